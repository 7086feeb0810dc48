import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Ticket, UpdateTicketBody } from '@balcao/contracts';
import { ApiError } from '../../../api/http';
import { useDeleteTicket, useUpdateTicket } from './conversationQueries';
import { useUser } from '../../../api/session';
import { toast, toastError } from '../../../components/toast';
import { otherOwner, transitionBody } from './transitions';

export type QueueChoiceFor = 'accept' | 'reopen';

/**
 * The header's transitions with their feedback: the queue choice before
 * accepting (or reopening) a ticket without a queue, the 'held by another
 * user' info, the required-tag warning, and where to go afterwards.
 */
export function useTicketActions(ticket: Ticket) {
  const { t } = useTranslation();
  const me = useUser();
  const navigate = useNavigate();
  const update = useUpdateTicket(ticket);
  const remove = useDeleteTicket();
  const [queueChoice, setQueueChoice] = useState<QueueChoiceFor | null>(null);
  const [heldBy, setHeldBy] = useState<Ticket | null>(null);

  /** Runs one transition; true when it went through. */
  const run = async (body: UpdateTicketBody, success: string, leave: boolean): Promise<boolean> => {
    try {
      const reply = await update.mutateAsync(body);
      if (otherOwner(ticket, reply, me.id)) {
        setHeldBy(reply);
        return false;
      }
      toast.success(t(success));
      if (reply && reply.id !== ticket.id) navigate(`/tickets/${reply.uuid}`);
      else if (leave) navigate('/tickets/');
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_REQUIRED_TAG') toast.warning(t('backendErrors.ERR_REQUIRED_TAG'));
      else toastError(err);
      return false;
    }
  };

  const accept = (queueId: number) => run(transitionBody.accept(ticket, me.id, queueId), 'conversation.toasts.accepted', false);
  const reopen = (queueId: number) => run(transitionBody.reopen(ticket, me.id, queueId), 'conversation.toasts.reopened', false);

  return {
    busy: update.isPending || remove.isPending,
    queueChoice,
    closeQueueChoice: () => setQueueChoice(null),
    heldBy,
    closeHeldBy: () => setHeldBy(null),
    /** Accept: a ticket without a queue asks for one first (spec 2 §4). */
    requestAccept: () => (ticket.queueId ? void accept(ticket.queueId) : setQueueChoice('accept')),
    requestReopen: () => (ticket.queueId ? void reopen(ticket.queueId) : setQueueChoice('reopen')),
    chooseQueue: async (queueId: number) => {
      const ok = await (queueChoice === 'reopen' ? reopen(queueId) : accept(queueId));
      if (ok) setQueueChoice(null);
    },
    resolve: (farewell: boolean) => run(transitionBody.resolve(ticket, me.id, farewell), 'conversation.toasts.resolved', true),
    returnToQueue: () => run(transitionBody.returnToQueue(), 'conversation.toasts.returned', true),
    ignore: () => run(transitionBody.ignore(), 'conversation.toasts.ignored', true),
    transfer: (queueId: number, userId: number | null, note: string) =>
      run(transitionBody.transfer(ticket, queueId, userId, note), 'conversation.toasts.transferred', true),
    toggleIntegration: () => run(transitionBody.integration(!ticket.useIntegration), 'conversation.toasts.saved', false),
    deleteTicket: async () => {
      try {
        await remove.mutateAsync(ticket.id);
        toast.success(t('conversation.toasts.deleted'));
        navigate('/tickets/');
      } catch (err) {
        toastError(err);
      }
    },
  };
}

export type TicketActionsApi = ReturnType<typeof useTicketActions>;
