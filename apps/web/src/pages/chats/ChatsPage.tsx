import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import type { Chat } from '@balcao/contracts';
import { chatsListFor } from '../../api/chats';
import { usePagedList } from '../../api/pagedList';
import { useUser } from '../../api/session';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { SearchField } from '../../components/ListPage';
import { ChatDialog } from './ChatDialog';
import { ChatList } from './ChatList';
import { ChatMessages } from './ChatMessages';
import { useChatByUuid, useDeleteChat } from './queries';
import './texts';

/**
 * /chats and /chats/{uuid} (spec 3 §2 "Internal chat"): the chat list on the left, the open
 * chat's messages on the right; on narrow screens two tabs, Chats and Messages.
 */
export function ChatsPage() {
  const { t } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const { id: uuid } = useParams();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  const list = usePagedList(chatsListFor(me.id));
  const remove = useDeleteChat();
  const [editing, setEditing] = useState<{ chat: Chat | null } | null>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const [tab, setTab] = useState<'chats' | 'messages'>(uuid ? 'messages' : 'chats');

  const loaded = list.records.find((c) => c.uuid === uuid);
  const fetched = useChatByUuid(uuid, loaded);
  const selected = loaded ?? fetched.data;

  // A chat deleted (or left) while open: back to the list.
  useEffect(() => {
    if (uuid && fetched.isError) void navigate('/chats', { replace: true });
  }, [uuid, fetched.isError, navigate]);

  const open = (chat: Chat) => {
    setTab('messages');
    void navigate(`/chats/${chat.uuid}`);
  };

  const listPane = (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Box sx={{ display: 'flex', gap: 1, p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <SearchField value={list.search} onChange={list.setSearch} testId="chats-search" />
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ chat: null })} data-testid="chats-add" sx={{ flexShrink: 0 }}>
          {t('chats.add')}
        </Button>
      </Box>
      <Box sx={{ flex: 1, minHeight: 0 }}>
        <ChatList
          chats={list.records}
          state={list.state}
          selectedId={selected?.id}
          onSelect={open}
          onEdit={(chat) => setEditing({ chat })}
          onDelete={setDeleting}
          onNearBottom={list.loadMore}
        />
      </Box>
    </Box>
  );
  const messagesPane = selected ? (
    <ChatMessages key={selected.id} chat={selected} />
  ) : (
    <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="chat-select">
      {t('chats.select')}
    </Typography>
  );

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, flex: 1, minHeight: 0 }} data-testid="chats-page">
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {selected && narrow && tab === 'messages' ? selected.title : t('chats.title')}
      </Typography>
      <Paper variant="outlined" sx={{ display: 'flex', flexDirection: 'column', height: { xs: 'calc(100dvh - 150px)', sm: 'calc(100dvh - 170px)' }, minHeight: 360 }}>
        {narrow ? (
          <>
            <Tabs value={tab} onChange={(_e, v: 'chats' | 'messages') => setTab(v)} variant="fullWidth" sx={{ borderBottom: 1, borderColor: 'divider' }}>
              <Tab value="chats" label={t('chats.tabs.chats')} data-testid="chats-tab-chats" />
              <Tab value="messages" label={t('chats.tabs.messages')} data-testid="chats-tab-messages" />
            </Tabs>
            <Box sx={{ flex: 1, minHeight: 0 }}>{tab === 'chats' ? listPane : messagesPane}</Box>
          </>
        ) : (
          <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
            <Box sx={{ width: 340, flexShrink: 0, borderRight: 1, borderColor: 'divider' }}>{listPane}</Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>{messagesPane}</Box>
          </Box>
        )}
      </Paper>
      {editing && <ChatDialog chat={editing.chat} onClose={() => setEditing(null)} onSaved={(chat) => !editing.chat && open(chat)} />}
      <ConfirmDeleteDialog
        record={deleting}
        title={t('chats.confirmDelete.title')}
        deletedText={t('chats.toasts.deleted')}
        remove={async (id) => {
          await remove.mutateAsync(id);
          if (selected?.id === id) void navigate('/chats');
        }}
        onClose={() => setDeleting(null)}
      >
        {t('chats.confirmDelete.message')}
      </ConfirmDeleteDialog>
    </Box>
  );
}
