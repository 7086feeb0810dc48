import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import SendIcon from '@mui/icons-material/Send';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import CloseIcon from '@mui/icons-material/Close';
import Chip from '@mui/material/Chip';
import { CHAT_MEDIA_MAX_BYTES, type Chat } from '@balcao/contracts';
import { unreadsOf } from '../../api/chats';
import { useUser } from '../../api/session';
import { ListState } from '../../components/ListStates';
import { formatDateTime } from '../../components/format';
import { toast, toastError } from '../../components/toast';
import { ChatAttachment } from './ChatAttachment';
import { useChatMessages, useReadChat, useSendChatMessage } from './queries';
import './texts';

/** Older messages load when the list is scrolled within this distance of its top (spec 3 §9). */
const LOAD_OLDER_WITHIN_PX = 600;
/** Closer than this to the bottom, a new message scrolls into view. */
const STICK_TO_BOTTOM_PX = 120;

/** One chat's messages, oldest first, and the input: Enter sends a non-empty message, Shift+Enter breaks the line. */
export function ChatMessages({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const me = useUser();
  const { messages, loadOlder, hasOlder, loadingOlder, loading, error, retry } = useChatMessages(chat.id);
  const send = useSendChatMessage(chat.id);
  const read = useReadChat();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | undefined>(undefined);
  const picker = useRef<HTMLInputElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // Where the list was before older messages were put above, so the view does not jump.
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const lastId = messages.at(-1)?.id;
  const unread = unreadsOf(chat, me.id);

  // Reading the chat while it is open clears the user's unread count (also for messages arriving now).
  const readMutate = read.mutate;
  useEffect(() => {
    if (unread > 0) readMutate(chat.id);
  }, [chat.id, unread, readMutate]);

  // Older messages load while the view is within 600 px of the top: on scroll, and after each
  // change (a first page too short to scroll asks for the one before it at once).
  const loadOlderIfNearTop = () => {
    const el = scroller.current;
    if (!el || !hasOlder || loadingOlder || el.scrollTop > LOAD_OLDER_WITHIN_PX) return;
    anchor.current = { height: el.scrollHeight, top: el.scrollTop };
    loadOlder();
  };

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current) {
      // Older messages went above: keep the ones on screen where they were.
      el.scrollTop = anchor.current.top + (el.scrollHeight - anchor.current.height);
      anchor.current = null;
    }
  }, [messages.length]);

  // The first page, and a new message while the view is at the bottom, scroll to the newest.
  const seenLast = useRef<number | undefined>(undefined);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || lastId === undefined) return;
    const first = seenLast.current === undefined;
    seenLast.current = lastId;
    if (first || el.scrollHeight - el.scrollTop - el.clientHeight < STICK_TO_BOTTOM_PX + el.clientHeight) el.scrollTop = el.scrollHeight;
  }, [lastId]);

  useEffect(() => {
    if (!loading) loadOlderIfNearTop();
  });

  const submit = async () => {
    const message = text.trim();
    if ((!message && !file) || send.isPending) return;
    try {
      await send.mutateAsync({ message, file });
      setText('');
      setFile(undefined);
    } catch (err) {
      toastError(err);
    }
  };

  // The server refuses beyond the limit too (413 ERR_FILE_TOO_LARGE); checked here before the upload.
  const pick = (picked: File | undefined) => {
    if (picker.current) picker.current.value = '';
    if (!picked) return;
    if (picked.size > CHAT_MEDIA_MAX_BYTES) {
      toast.error(t('chats.attach.tooLarge', { mb: CHAT_MEDIA_MAX_BYTES / (1024 * 1024) }));
      return;
    }
    setFile(picked);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }} data-testid="chat-messages">
      <Box ref={scroller} onScroll={loadOlderIfNearTop} sx={{ flex: 1, overflowY: 'auto', p: 2, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="chat-messages-list">
        {loadingOlder && (
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', justifyContent: 'center' }} data-testid="chat-loading-older">
            <CircularProgress size={16} />
            <Typography variant="body2" color="text.secondary">
              {t('chats.loadingOlder')}
            </Typography>
          </Box>
        )}
        <ListState loading={loading} error={error && messages.length === 0} empty={!loading && !error && messages.length === 0} onRetry={retry} emptyText={t('chats.noMessages')} />
        {messages.map((m) => {
          const mine = m.senderId === me.id;
          return (
            <Paper
              key={m.id}
              variant="outlined"
              data-testid={`chat-message-${m.id}`}
              data-mine={mine}
              sx={{ alignSelf: mine ? 'flex-end' : 'flex-start', maxWidth: '75%', px: 1.5, py: 1, bgcolor: mine ? 'action.selected' : 'background.paper' }}
            >
              {!mine && (
                <Typography variant="caption" sx={{ fontWeight: 600, display: 'block' }}>
                  {m.sender?.name ?? '—'}
                </Typography>
              )}
              {m.mediaUrl && <ChatAttachment message={m} />}
              {m.message && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {m.message}
                </Typography>
              )}
              <Typography variant="caption" color="text.secondary" sx={{ display: 'block', textAlign: 'right' }}>
                {formatDateTime(m.createdAt)}
              </Typography>
            </Paper>
          );
        })}
      </Box>
      {file && (
        <Box sx={{ px: 1.5, pt: 1, borderTop: 1, borderColor: 'divider' }}>
          <Chip icon={<AttachFileIcon />} label={file.name} data-testid="chat-file-chip" />
          <IconButton size="small" aria-label={t('chats.attach.remove')} onClick={() => setFile(undefined)} data-testid="chat-file-remove">
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 1, p: 1.5, borderTop: file ? 0 : 1, borderColor: 'divider', alignItems: 'flex-end' }}>
        <input ref={picker} type="file" hidden onChange={(e) => pick(e.target.files?.[0])} data-testid="chat-file-input" aria-label={t('chats.attach.label')} />
        <Tooltip title={t('chats.attach.label')}>
          <IconButton aria-label={t('chats.attach.label')} onClick={() => picker.current?.click()} disabled={send.isPending} data-testid="chat-attach">
            <AttachFileIcon />
          </IconButton>
        </Tooltip>
        <TextField
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={t('chats.input.placeholder')}
          multiline
          maxRows={5}
          fullWidth
          size="small"
          slotProps={{ htmlInput: { 'aria-label': t('chats.input.label'), maxLength: 5000, 'data-testid': 'chat-input' } }}
        />
        <Tooltip title={t('chats.input.send')}>
          <span>
            <IconButton color="primary" aria-label={t('chats.input.send')} disabled={(!text.trim() && !file) || send.isPending} onClick={() => void submit()} data-testid="chat-send">
              <SendIcon />
            </IconButton>
          </span>
        </Tooltip>
      </Box>
    </Box>
  );
}
