import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import ForumOutlinedIcon from '@mui/icons-material/ForumOutlined';
import { unreadsOf, useChatsOverview } from '../api/chats';
import { useUser } from '../api/session';
import { BellEmpty, BellPopover } from './EmptyBell';

/** Chats the bell lists: the most recently active. */
const BELL_CHATS = 10;

/** The top-bar internal chat bell (spec 1 §2): the user's unread count, the latest chats, a click opens one in /chats. */
export function ChatsBell() {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const { records, unread } = useChatsOverview();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const label = t('topBar.chats');
  const chats = records.slice(0, BELL_CHATS);
  return (
    <>
      <Tooltip title={label}>
        <IconButton
          color="inherit"
          // The badge's digits are part of the visible name (axe label-content-name-mismatch).
          aria-label={unread > 0 ? `${label} ${unread}` : label}
          data-testid="chats-bell"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <Badge badgeContent={unread > 0 ? unread : null} color="error" data-testid="chats-bell-count">
            <ForumOutlinedIcon />
          </Badge>
        </IconButton>
      </Tooltip>
      <BellPopover anchor={anchor} onClose={() => setAnchor(null)}>
        {chats.length === 0 ? (
          <BellEmpty text={t('topBar.noChats')} />
        ) : (
          <List dense component="div" sx={{ width: 320, maxWidth: '90vw', maxHeight: 420, overflow: 'auto' }} data-testid="chats-bell-list">
            {chats.map((chat) => {
              const mine = unreadsOf(chat, user.id);
              return (
                <ListItemButton
                  key={chat.id}
                  data-testid={`chats-bell-item-${chat.id}`}
                  onClick={() => {
                    setAnchor(null);
                    void navigate(`/chats/${chat.uuid}`);
                  }}
                >
                  <ListItemText primary={chat.title} secondary={chat.lastMessage || ' '} slotProps={{ secondary: { noWrap: true } }} />
                  {mine > 0 && <Badge badgeContent={mine} color="error" sx={{ mx: 1.5 }} />}
                </ListItemButton>
              );
            })}
          </List>
        )}
      </BellPopover>
    </>
  );
}
