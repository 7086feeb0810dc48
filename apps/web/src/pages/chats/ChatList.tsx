import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import type { Chat } from '@balcao/contracts';
import { unreadsOf } from '../../api/chats';
import { useUser } from '../../api/session';
import { ListState } from '../../components/ListStates';
import './texts';

interface Props {
  chats: Chat[];
  state: { loading: boolean; error: boolean; empty: boolean; onRetry: () => void; loadingMore: boolean };
  selectedId: number | undefined;
  onSelect: (chat: Chat) => void;
  onEdit: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
  onNearBottom: () => void;
}

/** The user's chats, most recently active first, with their unread count; the owner alone sees edit and delete. */
export function ChatList({ chats, state, selectedId, onSelect, onEdit, onDelete, onNearBottom }: Props) {
  const { t } = useTranslation();
  const me = useUser();
  return (
    <Box
      sx={{ overflowY: 'auto', height: '100%' }}
      onScroll={(e) => {
        const el = e.currentTarget;
        if (el.scrollHeight - el.scrollTop - el.clientHeight < 100) onNearBottom();
      }}
    >
      <ListState {...state} emptyText={t('chats.list.empty')} />
      <List aria-label={t('chats.list.label')} data-testid="chat-list" disablePadding>
        {chats.map((chat) => {
          const unread = unreadsOf(chat, me.id);
          const owner = chat.ownerId === me.id;
          return (
            <ListItem
              key={chat.id}
              disablePadding
              divider
              data-testid={`chat-item-${chat.id}`}
              secondaryAction={
                owner && (
                  <>
                    <Tooltip title={t('chats.actions.edit')}>
                      <IconButton size="small" aria-label={t('chats.actions.edit')} onClick={() => onEdit(chat)} data-testid={`chat-edit-${chat.id}`}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t('chats.actions.delete')}>
                      <IconButton size="small" aria-label={t('chats.actions.delete')} onClick={() => onDelete(chat)} data-testid={`chat-delete-${chat.id}`}>
                        <DeleteOutlineIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </>
                )
              }
            >
              <ListItemButton selected={chat.id === selectedId} onClick={() => onSelect(chat)} sx={{ pr: owner ? 11 : 2 }}>
                <ListItemText
                  primary={chat.title}
                  secondary={chat.lastMessage || ' '}
                  slotProps={{ primary: { noWrap: true, sx: { fontWeight: unread > 0 ? 700 : 400 } }, secondary: { noWrap: true } }}
                />
                {unread > 0 && (
                  <Badge
                    badgeContent={unread}
                    color="error"
                    sx={{ mx: 1.5 }}
                    data-testid={`chat-unread-${chat.id}`}
                    slotProps={{ badge: { 'aria-label': t('chats.list.unread', { count: unread }) } as object }}
                  />
                )}
              </ListItemButton>
            </ListItem>
          );
        })}
      </List>
    </Box>
  );
}
