import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useTranslation } from 'react-i18next';
import type { Message } from '@balcao/contracts';
import { canDeleteMessage, canEditMessage, canForwardMessage, canQuoteOrForward } from './messageRules';

export interface MessageActions {
  onReply: (m: Message) => void;
  onEdit: (m: Message) => void;
  onDelete: (m: Message) => void;
  onForward: (m: Message) => void;
}

/** The bubble's options: reply, edit (own text within 15 minutes), delete (own), forward. */
export function MessageMenu({ message, actions, canReply }: { message: Message; actions: MessageActions; canReply: boolean }) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  // Read the clock when the menu opens, so the edit item is gone once the window closed.
  const [openedAt, setOpenedAt] = useState(0);
  const close = () => setAnchor(null);
  const run = (fn: (m: Message) => void) => () => {
    close();
    fn(message);
  };
  const quotable = canQuoteOrForward(message);
  const items = [
    canReply && quotable && (
      <MenuItem key="reply" onClick={run(actions.onReply)}>
        {t('conversation.messageMenu.reply')}
      </MenuItem>
    ),
    canReply && canEditMessage(message, openedAt) && (
      <MenuItem key="edit" onClick={run(actions.onEdit)}>
        {t('conversation.messageMenu.edit')}
      </MenuItem>
    ),
    canDeleteMessage(message) && (
      <MenuItem key="delete" onClick={run(actions.onDelete)}>
        {t('conversation.messageMenu.delete')}
      </MenuItem>
    ),
    canForwardMessage(message) && (
      <MenuItem key="forward" onClick={run(actions.onForward)}>
        {t('conversation.messageMenu.forward')}
      </MenuItem>
    ),
  ].filter(Boolean);
  if (!canReply && !canDeleteMessage(message) && !quotable) return null;
  return (
    <>
      <IconButton
        size="small"
        className="message-menu-button"
        aria-label={t('conversation.messageMenu.open')}
        aria-haspopup="menu"
        onClick={(e) => {
          setOpenedAt(Date.now());
          setAnchor(e.currentTarget);
        }}
        sx={{ position: 'absolute', top: 0, right: 0, p: 0.25 }}
      >
        <ExpandMoreIcon fontSize="small" />
      </IconButton>
      <Menu anchorEl={anchor} open={anchor !== null && items.length > 0} onClose={close}>
        {items}
      </Menu>
    </>
  );
}
