import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import type { Message, Ticket } from '@balcao/contracts';
import { ApiError } from '../../../api/http';
import { useConversationLive, useDeleteMessage, useTicket } from './conversationQueries';
import { useUser } from '../../../api/session';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { formatDate } from '../../../components/format';
import { toast, toastError } from '../../../components/toast';
import { CONTACT_DRAWER_WIDTH, ContactDrawer } from '../contact-drawer/ContactDrawer';
import { panelFits, useElementWidth } from './roomForPanel';
import { AcceptQueueDialog } from './AcceptQueueDialog';
import { Composer } from './Composer';
import { exportConversationPdf } from './exportPdf';
import { ForwardDialog } from './ForwardDialog';
import { HeldByDialog } from './HeldByDialog';
import { MessageList } from './MessageList';
import type { MessageActions } from './MessageMenu';
import { composerEnabled, hasReplyWindow } from './messageRules';
import { CONVERSATION_STORAGE, useStoredFlag } from './preferences';
import { useQuotedSummary } from './useQuotedSummary';
import { TicketHeader } from './TicketHeader';
import { messageTime } from './timeline';
import { useTicketActions } from './useTicketActions';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The PDF's texts in the interface language. */
function usePdfTexts(ticket: Ticket) {
  const { t } = useTranslation();
  const summary = useQuotedSummary();
  return useCallback(
    () => ({
      title: `${ticket.contact.name} - Ticket #${ticket.id}`,
      subtitle: [t(`conversation.channels.${ticket.channel}`), ticket.queue?.name, ticket.user?.name, `${formatDate(new Date().toISOString())} ${messageTime(new Date().toISOString())}`].filter(Boolean).join(' | '),
      author: (m: Message) => (m.isPrivate ? t('conversation.pdf.privateNote') : m.fromMe ? t('conversation.pdf.attendant') : (m.contact?.name ?? ticket.contact.name)),
      body: (m: Message) => (m.isDeleted ? t('conversation.deleted') : summary(m)),
      fileName: `ticket-${ticket.id}.pdf`,
    }),
    [t, summary, ticket],
  );
}

function OpenConversation({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const actions = useTicketActions(ticket);
  const remove = useDeleteMessage();
  const [drawer, setDrawer] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const roomy = panelFits(useElementWidth(root), CONTACT_DRAWER_WIDTH);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [editing, setEditing] = useState<Message | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  const [selected, setSelected] = useState<Set<number> | null>(null);
  const [forwarding, setForwarding] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);
  const [exporting, setExporting] = useState(false);
  const signatureAllowed = me.company.companieSettings.sendSignMessage === 'enabled';
  const [signature, setSignature] = useStoredFlag(CONVERSATION_STORAGE.signature, true);
  const [privateNote, setPrivateNote] = useStoredFlag(CONVERSATION_STORAGE.privateNote);
  const pdfTexts = usePdfTexts(ticket);

  useConversationLive(ticket, {
    onGone: () => {
      toast.info(t('conversation.toasts.gone'));
      navigate('/tickets/');
    },
  });

  const messageActions = useMemo<MessageActions>(
    () => ({
      onReply: (m) => {
        setEditing(null);
        setReplyTo(m);
      },
      onEdit: (m) => {
        setReplyTo(null);
        setEditing(m);
      },
      onDelete: (m) => setDeleting(m),
      onForward: (m) => setSelected(new Set([m.id])),
    }),
    [],
  );
  const toggleSelect = useCallback((m: Message) => {
    setSelected((prev) => {
      if (!prev) return prev;
      const next = new Set(prev);
      if (next.has(m.id)) next.delete(m.id);
      else next.add(m.id);
      return next;
    });
  }, []);
  const onSent = useCallback(() => setFollowSignal((n) => n + 1), []);

  const exportPdf = () => {
    setExporting(true);
    // Spec 2 §8: a failed export is only logged.
    exportConversationPdf(ticket, pdfTexts())
      .catch((err: unknown) => console.error('PDF export failed', err))
      .finally(() => setExporting(false));
  };

  const canWrite = composerEnabled(ticket.status);
  return (
    <Box ref={root} sx={{ flex: 1, minWidth: 0, minHeight: 0, display: 'flex', height: '100%', overflow: 'hidden' }} data-testid="conversation" data-ticket-id={ticket.id}>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <TicketHeader ticket={ticket} actions={actions} onOpenContact={() => setDrawer(true)} onExportPdf={exportPdf} exporting={exporting} />
        {hasReplyWindow(ticket.channel) && (
          <Alert severity="info" sx={{ borderRadius: 0, py: 0 }} data-testid="reply-window-notice">
            {t('conversation.replyWindow')}
          </Alert>
        )}
        <MessageList
          ticket={ticket}
          actions={messageActions}
          canReply={canWrite}
          selected={selected}
          onToggleSelect={toggleSelect}
          followSignal={followSignal}
        />
        {selected ? (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 2, py: 1.5, borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper' }} data-testid="forward-bar">
            <Typography variant="body2" sx={{ flex: 1 }}>
              {t('conversation.forward.selected', { count: selected.size })}
            </Typography>
            <Button onClick={() => setSelected(null)}>{t('conversation.actions.cancel')}</Button>
            <Button
              variant="contained"
              onClick={() => (selected.size === 0 ? toast.error(t('conversation.forward.nothingSelected')) : setForwarding(true))}
            >
              {t('conversation.forward.submit')}
            </Button>
          </Box>
        ) : (
          <Composer
            ticket={ticket}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            editing={editing}
            onCancelEdit={() => setEditing(null)}
            onSent={onSent}
            signatureAllowed={signatureAllowed}
            signature={signature}
            onSignature={setSignature}
            privateNote={privateNote}
            onPrivateNote={setPrivateNote}
            onAccept={actions.requestAccept}
            accepting={actions.busy}
          />
        )}
      </Box>
      <ContactDrawer ticket={ticket} open={drawer} onClose={() => setDrawer(false)} overlay={!roomy} />
      <AcceptQueueDialog open={actions.queueChoice !== null} busy={actions.busy} onClose={actions.closeQueueChoice} onConfirm={(q) => void actions.chooseQueue(q)} />
      <HeldByDialog ticket={actions.heldBy} onClose={actions.closeHeldBy} />
      <ForwardDialog
        open={forwarding}
        channel={ticket.channel}
        messageIds={selected ? [...selected] : []}
        signatureAllowed={signatureAllowed}
        signatureDefault={signature}
        onClose={() => setForwarding(false)}
        onDone={() => {
          setForwarding(false);
          setSelected(null);
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={t('conversation.deleteMessage.title')}
        confirmLabel={t('conversation.messageMenu.delete')}
        onClose={() => setDeleting(null)}
        onConfirm={() => (deleting ? remove.mutateAsync(deleting.id).catch(toastError) : undefined)}
      >
        {t('conversation.deleteMessage.message')}
      </ConfirmDialog>
    </Box>
  );
}

/**
 * The conversation of /tickets/{uuid} (spec 2 §2): header and actions, the
 * message list and the composer. 'undefined', an invalid id or a failed load
 * (404/403) go back to /tickets.
 */
export function Conversation({ ticketUuid }: { ticketUuid: string }) {
  const valid = UUID_RE.test(ticketUuid);
  const ticket = useTicket(ticketUuid, valid);
  const error = ticket.error;
  useEffect(() => {
    // Not found / not allowed simply leave; anything else also says why.
    if (error && !(error instanceof ApiError && (error.status === 404 || error.status === 403))) toastError(error);
  }, [error]);
  if (!valid || ticket.isError) return <Navigate to="/tickets" replace />;
  if (!ticket.data) {
    return (
      <Box sx={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <CircularProgress />
      </Box>
    );
  }
  return <OpenConversation ticket={ticket.data} />;
}
