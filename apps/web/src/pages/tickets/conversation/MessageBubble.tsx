import { memo } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import BlockIcon from '@mui/icons-material/Block';
import LockIcon from '@mui/icons-material/Lock';
import ShortcutIcon from '@mui/icons-material/Shortcut';
import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { AckIcon } from './AckIcon';
import { MediaContent } from './MediaContent';
import { MessageMenu, type MessageActions } from './MessageMenu';
import { QuotedMessage } from './QuotedMessage';
import { messageTime } from './timeline';

interface Props {
  message: Message;
  /** First of a run from the same side: shows the sender's name in groups. */
  first: boolean;
  isGroup: boolean;
  highlighted: boolean;
  /** Forward selection mode: a checkbox instead of the menu. */
  selecting: boolean;
  selected: boolean;
  canReply: boolean;
  hideDeletedBody: boolean;
  actions: MessageActions;
  onToggleSelect: (m: Message) => void;
  onQuoteClick: (quotedId: number) => void;
}

function BubbleColors(message: Message, dark: boolean) {
  if (message.isPrivate) return { bg: dark ? '#4a3f12' : '#fff4c2', border: dark ? '#c9a227' : '#e0b200' };
  if (message.fromMe) return { bg: dark ? '#005c4b' : '#d9fdd3', border: 'transparent' };
  return { bg: dark ? '#202c33' : '#ffffff', border: 'transparent' };
}

/** One message of the conversation (spec 2 §3 and §4). */
export const MessageBubble = memo(function MessageBubble(props: Props) {
  const { message: m, first, isGroup, highlighted, selecting, selected, canReply, hideDeletedBody, actions, onToggleSelect, onQuoteClick } = props;
  const { t } = useTranslation();
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const colors = BubbleColors(m, dark);

  if (m.mediaType === 'reactionMessage') {
    return (
      <Box sx={{ display: 'flex', justifyContent: m.fromMe ? 'flex-end' : 'flex-start', px: 2, py: 0.25 }} data-testid="message-reaction">
        <Typography variant="caption" color="text.secondary" sx={{ bgcolor: 'action.hover', borderRadius: 3, px: 1, py: 0.25 }}>
          {t('conversation.media.reacted', { emoji: m.body })}
        </Typography>
      </Box>
    );
  }

  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: m.fromMe ? 'flex-end' : 'flex-start',
        px: { xs: 1, sm: 2 },
        pt: first ? 1 : 0.25,
        pb: 0.25,
        bgcolor: highlighted ? alpha(theme.palette.primary.main, 0.15) : selected ? alpha(theme.palette.primary.main, 0.08) : undefined,
        transition: 'background-color .6s',
        cursor: selecting ? 'pointer' : undefined,
      }}
      onClick={selecting ? () => onToggleSelect(m) : undefined}
      data-testid="message"
      data-message-id={m.id}
      data-from-me={m.fromMe}
      data-private={m.isPrivate || undefined}
    >
      {selecting && (
        <Checkbox
          checked={selected}
          size="small"
          sx={{ order: m.fromMe ? 0 : 2 }}
          slotProps={{ input: { 'aria-label': t('conversation.forward.select') } }}
          onClick={(e) => e.stopPropagation()}
          onChange={() => onToggleSelect(m)}
        />
      )}
      <Box
        sx={{
          order: 1,
          position: 'relative',
          maxWidth: { xs: '85%', md: '70%' },
          minWidth: 90,
          bgcolor: colors.bg,
          border: m.isPrivate ? '1px dashed' : 'none',
          borderColor: colors.border,
          borderRadius: 2,
          borderTopRightRadius: m.fromMe && first ? 0 : undefined,
          borderTopLeftRadius: !m.fromMe && first ? 0 : undefined,
          boxShadow: '0 1px 0.5px rgba(11,20,26,.13)',
          px: 1,
          pt: 0.75,
          pb: 0.5,
          pr: selecting ? 1 : 3,
          '& .message-menu-button': { opacity: 0, transition: 'opacity .15s' },
          '&:hover .message-menu-button, & .message-menu-button:focus-visible, & .message-menu-button[aria-expanded="true"]': { opacity: 1 },
          '@media (hover: none)': { '& .message-menu-button': { opacity: 0.7 } },
        }}
      >
        {!selecting && <MessageMenu message={m} actions={actions} canReply={canReply} />}
        {m.isPrivate && (
          <Typography variant="caption" component="div" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 600, color: dark ? '#f3d36b' : '#8a6d00' }}>
            <LockIcon sx={{ fontSize: 14 }} /> {t('conversation.privateNote')}
          </Typography>
        )}
        {m.isForwarded && (
          <Typography variant="caption" component="div" color="text.secondary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontStyle: 'italic' }}>
            <ShortcutIcon sx={{ fontSize: 14 }} /> {t('conversation.forwarded')}
          </Typography>
        )}
        {isGroup && !m.fromMe && first && m.contact && (
          <Typography variant="caption" component="div" fontWeight={600} color="primary">
            {m.contact.name}
          </Typography>
        )}
        {m.quotedMsg && !m.isDeleted && <QuotedMessage quoted={m.quotedMsg} onClick={() => m.quotedMsg && onQuoteClick(m.quotedMsg.id)} />}
        {m.isDeleted ? (
          <Box sx={{ color: 'text.secondary' }} data-testid="message-deleted">
            <Typography variant="body2" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontStyle: 'italic' }}>
              <BlockIcon sx={{ fontSize: 16 }} /> {t('conversation.deleted')}
            </Typography>
            {!hideDeletedBody && m.body && m.mediaType === 'chat' && (
              <Typography variant="body2" sx={{ textDecoration: 'line-through', opacity: 0.7, whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {m.body}
              </Typography>
            )}
          </Box>
        ) : (
          <Typography variant="body2" component="div">
            <MediaContent m={m} />
          </Typography>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 0.5, mt: 0.25, mr: selecting ? 0 : -2, color: 'text.secondary' }}>
          {m.isEdited && !m.isDeleted && (
            <Typography variant="caption" sx={{ fontStyle: 'italic' }}>
              {t('conversation.edited')}
            </Typography>
          )}
          <Typography variant="caption" component="time" dateTime={m.createdAt}>
            {messageTime(m.createdAt)}
          </Typography>
          {m.fromMe && !m.isPrivate && <AckIcon message={m} />}
        </Box>
      </Box>
    </Box>
  );
});
