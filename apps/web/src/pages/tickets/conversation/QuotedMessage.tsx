import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { useQuotedSummary } from './useQuotedSummary';

type Quoted = NonNullable<Message['quotedMsg']>;

interface Props {
  quoted: Pick<Quoted, 'body' | 'fromMe' | 'mediaType' | 'contact'>;
  /** Author shown for the attendant's own messages. */
  meLabel?: string;
  onClick?: () => void;
}

/** The quoted message above a reply (and in the composer's reply bar). */
export function QuotedMessage({ quoted, meLabel, onClick }: Props) {
  const { t } = useTranslation();
  const summary = useQuotedSummary();
  const author = quoted.fromMe ? (meLabel ?? t('conversation.you')) : (quoted.contact?.name ?? '');
  return (
    <Box
      role={onClick ? 'button' : undefined}
      tabIndex={onClick ? 0 : undefined}
      aria-label={onClick ? t('conversation.quote.goTo') : undefined}
      onClick={onClick}
      onKeyDown={(e) => {
        if (onClick && (e.key === 'Enter' || e.key === ' ')) onClick();
      }}
      sx={{
        borderLeft: 4,
        borderColor: quoted.fromMe ? 'primary.main' : 'success.main',
        bgcolor: 'action.hover',
        borderRadius: 1,
        px: 1,
        py: 0.5,
        mb: 0.5,
        cursor: onClick ? 'pointer' : 'default',
        overflow: 'hidden',
      }}
    >
      {author && (
        <Typography variant="caption" fontWeight={600} color={quoted.fromMe ? 'primary' : 'success.main'} component="div">
          {author}
        </Typography>
      )}
      <Typography
        variant="body2"
        color="text.secondary"
        sx={{ display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
      >
        {summary(quoted)}
      </Typography>
    </Box>
  );
}
