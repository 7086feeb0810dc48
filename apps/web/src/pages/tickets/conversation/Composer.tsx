import { useCallback, useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { alpha, useTheme } from '@mui/material/styles';
import AttachFileIcon from '@mui/icons-material/AttachFile';
import PhotoCameraIcon from '@mui/icons-material/PhotoCamera';
import CloseIcon from '@mui/icons-material/Close';
import ContactPhoneIcon from '@mui/icons-material/ContactPhone';
import EditIcon from '@mui/icons-material/Edit';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import SendIcon from '@mui/icons-material/Send';
import { useTranslation } from 'react-i18next';
import type { Message, QuickMessage, Ticket } from '@balcao/contracts';
import { useEditMessage, useQuickMessages, useSendMessage, type ContactOption } from './conversationQueries';
import { useUser } from '../../../api/session';
import { toast, toastError } from '../../../components/toast';
import { AttachmentPreviewDialog, type CaptionedFile, type PendingFile } from './AttachmentPreviewDialog';
import { AudioRecorder } from './AudioRecorder';
import { CameraDialog } from './CameraDialog';
import { isBlank, quickReplyMatches, splitSignature, vCardOf, withSignature } from './compose';
import { ContactCardDialog } from './ContactCardDialog';
import { PrivateToggle, SignatureToggle } from './ComposerToggles';
import { EmojiPicker } from './EmojiPicker';
import { composerEnabled } from './messageRules';
import { QuickReplies } from './QuickReplies';
import { QuotedMessage } from './QuotedMessage';
import { useElementWidth } from './useElementWidth';

const COMPACT_BELOW_PX = 560;

interface Props {
  ticket: Ticket;
  replyTo: Message | null;
  onCancelReply: () => void;
  editing: Message | null;
  onCancelEdit: () => void;
  onSent: () => void;
  signatureAllowed: boolean;
  signature: boolean;
  onSignature: (on: boolean) => void;
  privateNote: boolean;
  onPrivateNote: (on: boolean) => void;
  /** Pending tickets: the hint offers the accept button. */
  onAccept: () => void;
  accepting: boolean;
}

/** Why the composer is closed, with the accept button for pending tickets. */
function ClosedHint({ ticket, onAccept, accepting }: Pick<Props, 'ticket' | 'onAccept' | 'accepting'>) {
  const { t } = useTranslation();
  const pending = ticket.status === 'pending';
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2, p: 2, borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', flexWrap: 'wrap' }} data-testid="composer-hint">
      <Typography variant="body2" color="text.secondary">
        {t(pending ? 'conversation.composer.pendingHint' : 'conversation.composer.closedHint')}
      </Typography>
      {pending && (
        <Button variant="contained" onClick={onAccept} disabled={accepting}>
          {t('conversation.composer.acceptTicket')}
        </Button>
      )}
    </Box>
  );
}

/** The message composer (spec 2 §4): text, emoji, attachments, audio, quick replies, signature, private notes. */
export function Composer(props: Props) {
  const { ticket, replyTo, onCancelReply, editing, onCancelEdit, onSent, signatureAllowed, signature, onSignature, privateNote, onPrivateNote } = props;
  const { t } = useTranslation();
  const theme = useTheme();
  // The extra buttons fold into a menu when the composer itself is narrow (phone, or beside the drawer).
  const [boxRef, width] = useElementWidth<HTMLDivElement>();
  const narrow = width > 0 && width < COMPACT_BELOW_PX;
  const user = useUser();
  const [text, setText] = useState('');
  const [files, setFiles] = useState<PendingFile[]>([]);
  const [recording, setRecording] = useState(false);
  const [contactCard, setContactCard] = useState(false);
  const [more, setMore] = useState<HTMLElement | null>(null);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  const [camera, setCamera] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const { text: sendText, media: sendMedia } = useSendMessage(ticket.id);
  const edit = useEditMessage(ticket.id);
  const enabled = composerEnabled(ticket.status);
  const quick = useQuickMessages(user.companyId, user.id, enabled);

  // Editing starts from the message's text; leaving edit mode empties the field.
  const editSignature = useMemo(() => (editing ? splitSignature(editing.body, user.name) : null), [editing, user.name]);
  useEffect(() => {
    setText(editSignature ? editSignature.text : '');
    if (editSignature) inputRef.current?.focus();
  }, [editSignature]);
  useEffect(() => {
    if (replyTo) inputRef.current?.focus();
  }, [replyTo]);

  const matches = useMemo(() => (editing ? null : quickReplyMatches(quick.data ?? [], text)), [quick.data, text, editing]);
  useEffect(() => setActive(0), [matches?.length]);

  const sign = (body: string) => withSignature(body, user.name, signatureAllowed && signature);
  const busy = sendText.isPending || sendMedia.isPending || edit.isPending;

  const submit = async () => {
    if (isBlank(text) || busy) return;
    const body = text.trim();
    try {
      if (editing) {
        await edit.mutateAsync({ id: editing.id, body: withSignature(body, user.name, editSignature?.signed ?? false) });
        onCancelEdit();
      } else {
        await sendText.mutateAsync({ body: sign(body), quotedMsg: replyTo, isPrivate: privateNote });
        onCancelReply();
        onSent();
      }
      setText('');
    } catch (err) {
      toastError(err);
    }
  };

  const sendFiles = async (items: CaptionedFile[]) => {
    try {
      await sendMedia.mutateAsync({ files: items.map((i) => ({ file: i.file, name: i.name, caption: i.caption.trim() ? sign(i.caption.trim()) : '' })), isPrivate: privateNote });
      onSent();
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  const sendRecording = useCallback(
    async (file: Blob, name: string) => {
      try {
        await sendMedia.mutateAsync({ files: [{ file, name, caption: '' }], isPrivate: privateNote });
        onSent();
      } catch (err) {
        toastError(err);
      }
    },
    [sendMedia, privateNote, onSent],
  );

  const sendContact = async (c: ContactOption) => {
    try {
      await sendText.mutateAsync({ body: '', quotedMsg: replyTo, isPrivate: privateNote, vCard: vCardOf(c) });
      onCancelReply();
      onSent();
    } catch (err) {
      toastError(err);
      throw err;
    }
  };

  /** A quick reply with media opens the attachment preview with its text as the caption. */
  const pickQuick = (q: QuickMessage) => {
    if (!q.mediaUrl) {
      setText(q.message);
      inputRef.current?.focus();
      return;
    }
    setText('');
    fetch(q.mediaUrl)
      .then((res) => (res.ok ? res.blob() : Promise.reject(new Error(`HTTP ${res.status}`))))
      .then((blob) => setFiles([{ file: new File([blob], q.mediaName ?? 'file', { type: blob.type }), caption: q.message }]))
      .catch(() => {
        toast.error(t('conversation.quickReplies.mediaFailed'));
        setText(q.message);
      });
  };

  const insertEmoji = (emoji: string) => {
    const el = inputRef.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (matches && matches.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (a + (e.key === 'ArrowDown' ? 1 : matches.length - 1)) % matches.length);
        return;
      }
      if (e.key === 'Enter' && !e.shiftKey) {
        e.preventDefault();
        const q = matches[active];
        if (q) pickQuick(q);
        return;
      }
    }
    if (e.key === 'Escape') {
      if (editing) onCancelEdit();
      else if (replyTo) onCancelReply();
      return;
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  const onPaste = (e: ClipboardEvent<HTMLDivElement>) => {
    const pasted = Array.from(e.clipboardData.files);
    if (pasted.length === 0 || editing) return;
    e.preventDefault();
    setFiles(pasted.map((file) => ({ file, caption: '' })));
  };

  // Files dragged from the desktop onto the composer open the same preview as the attach button.
  const carriesFiles = (e: DragEvent) => !editing && Array.from(e.dataTransfer.types).includes('Files');
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    if (!carriesFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDragLeave = (e: DragEvent<HTMLDivElement>) => {
    if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    setDragging(false);
    if (!carriesFiles(e)) return;
    e.preventDefault();
    const dropped = Array.from(e.dataTransfer.files);
    if (dropped.length > 0) setFiles(dropped.map((file) => ({ file, caption: '' })));
  };

  if (!enabled) return <ClosedHint ticket={ticket} onAccept={props.onAccept} accepting={props.accepting} />;

  const chooseFiles = () => fileRef.current?.click();
  const extraButtons = (
    <>
      <Tooltip title={t('conversation.composer.attach')}>
        <span>
          <IconButton onClick={chooseFiles} disabled={!!editing || busy} aria-label={t('conversation.composer.attach')}>
            <AttachFileIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('conversation.composer.camera')}>
        <span>
          <IconButton onClick={() => setCamera(true)} disabled={!!editing || busy} aria-label={t('conversation.composer.camera')} data-testid="composer-camera">
            <PhotoCameraIcon />
          </IconButton>
        </span>
      </Tooltip>
      <Tooltip title={t('conversation.composer.contactCard')}>
        <span>
          <IconButton onClick={() => setContactCard(true)} disabled={!!editing || busy} aria-label={t('conversation.composer.contactCard')}>
            <ContactPhoneIcon />
          </IconButton>
        </span>
      </Tooltip>
      {signatureAllowed && <SignatureToggle on={signature} onChange={onSignature} />}
      <PrivateToggle on={privateNote} onChange={onPrivateNote} disabled={!!editing} />
    </>
  );

  return (
    <Box
      ref={boxRef}
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', position: 'relative' }}
      data-testid="composer"
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      {dragging && (
        <Box
          data-testid="composer-drop-hint"
          sx={{
            position: 'absolute',
            inset: 0,
            zIndex: 3,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            border: 2,
            borderStyle: 'dashed',
            borderColor: 'primary.main',
            bgcolor: alpha(theme.palette.background.paper, 0.92),
            pointerEvents: 'none',
          }}
        >
          <Typography color="primary">{t('conversation.composer.dropHint')}</Typography>
        </Box>
      )}
      {matches && <QuickReplies matches={matches} active={active} onPick={pickQuick} />}
      {(replyTo || editing) && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, pt: 1 }}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {editing ? (
              <Typography variant="body2" color="primary" sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
                <EditIcon fontSize="small" /> {t('conversation.composer.editing')}
              </Typography>
            ) : (
              replyTo && <QuotedMessage quoted={replyTo} meLabel={t('conversation.you')} />
            )}
          </Box>
          <IconButton
            size="small"
            onClick={editing ? onCancelEdit : onCancelReply}
            aria-label={t(editing ? 'conversation.composer.cancelEdit' : 'conversation.composer.cancelReply')}
          >
            <CloseIcon fontSize="small" />
          </IconButton>
        </Box>
      )}
      <Box sx={{ display: 'flex', alignItems: 'flex-end', gap: 0.25, px: 1, py: 1 }}>
        <EmojiPicker onPick={insertEmoji} disabled={recording} />
        {narrow ? (
          <>
            <IconButton onClick={(e) => setMore(e.currentTarget)} aria-label={t('conversation.composer.more')} disabled={recording}>
              <MoreVertIcon />
            </IconButton>
            <Menu anchorEl={more} open={more !== null} onClose={() => setMore(null)}>
              <MenuItem onClick={() => { setMore(null); chooseFiles(); }} disabled={!!editing}>
                <ListItemIcon><AttachFileIcon fontSize="small" /></ListItemIcon>
                {t('conversation.composer.attach')}
              </MenuItem>
              <MenuItem onClick={() => { setMore(null); setCamera(true); }} disabled={!!editing}>
                <ListItemIcon><PhotoCameraIcon fontSize="small" /></ListItemIcon>
                {t('conversation.composer.camera')}
              </MenuItem>
              <MenuItem onClick={() => { setMore(null); setContactCard(true); }} disabled={!!editing}>
                <ListItemIcon><ContactPhoneIcon fontSize="small" /></ListItemIcon>
                {t('conversation.composer.contactCard')}
              </MenuItem>
              {signatureAllowed && (
                <MenuItem onClick={() => onSignature(!signature)} selected={signature} aria-pressed={signature}>
                  {t('conversation.composer.signature')}
                </MenuItem>
              )}
              <MenuItem onClick={() => onPrivateNote(!privateNote)} selected={privateNote} aria-pressed={privateNote} disabled={!!editing}>
                {t('conversation.composer.private')}
              </MenuItem>
            </Menu>
          </>
        ) : (
          !recording && extraButtons
        )}
        <input
          ref={fileRef}
          type="file"
          multiple
          hidden
          aria-label={t('conversation.composer.attach')}
          onChange={(e) => {
            setFiles(Array.from(e.target.files ?? [], (file) => ({ file, caption: '' })));
            e.target.value = '';
          }}
        />
        {!recording && (
          <TextField
            inputRef={inputRef}
            multiline
            maxRows={6}
            fullWidth
            size="small"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
            placeholder={t(privateNote && !editing ? 'conversation.composer.privatePlaceholder' : narrow ? 'conversation.composer.shortPlaceholder' : 'conversation.composer.placeholder')}
            slotProps={{ htmlInput: { 'aria-label': t('conversation.composer.input'), 'data-testid': 'composer-input' } }}
            sx={{
              '& .MuiOutlinedInput-root': {
                borderRadius: 3,
                bgcolor: privateNote && !editing ? alpha(theme.palette.warning.main, 0.12) : undefined,
              },
            }}
          />
        )}
        {text.trim() || editing ? (
          <Tooltip title={t('conversation.composer.send')}>
            <span>
              <IconButton color="primary" onClick={() => void submit()} disabled={busy || isBlank(text)} aria-label={t('conversation.composer.send')}>
                {busy ? <CircularProgress size={22} /> : <SendIcon />}
              </IconButton>
            </span>
          </Tooltip>
        ) : (
          <Box sx={{ ml: recording ? 'auto' : 0 }}>
            <AudioRecorder channel={ticket.channel} disabled={busy} onRecorded={sendRecording} onRecordingChange={setRecording} />
          </Box>
        )}
      </Box>
      <AttachmentPreviewDialog files={files} onClose={() => setFiles([])} onSend={sendFiles} />
      <ContactCardDialog open={contactCard} onClose={() => setContactCard(false)} onSend={sendContact} />
      {camera && (
        <CameraDialog
          onClose={() => setCamera(false)}
          onCapture={(file) => {
            setCamera(false);
            setFiles([{ file, caption: '' }]);
          }}
        />
      )}
    </Box>
  );
}
