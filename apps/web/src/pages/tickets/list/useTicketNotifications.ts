import { useRef } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AppMessageEventPayload } from '@balcao/contracts';
import { useCompanyEvent } from '../../../api/liveEvents';
import { useUser } from '../../../api/session';
import { readVolume } from '../../../layout/VolumeControl';
import { lastMessagePreview, truncate } from './rowFormat';
import { viewerOf } from './listModel';
import { shouldNotify } from './notify';
import { playChime } from './sound';

const NOTIFICATION_BODY_MAX = 120;

export const notificationsSupported = () => typeof window !== 'undefined' && 'Notification' in window;

/**
 * A customer's new message plays the chime at the top bar's volume and, when
 * the browser allows it, shows a desktop notification that opens the ticket.
 * Nothing for the ticket the user is looking at.
 */
export function useTicketNotifications(openTicketUuid: string | null): void {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const shown = useRef(new Map<string, Notification>());

  useCompanyEvent<AppMessageEventPayload>('appMessage', (payload) => {
    if (payload.action !== 'create' || !payload.ticket || !payload.message) return;
    const { ticket, message } = payload;
    const notify = shouldNotify(ticket, message, {
      viewer: viewerOf(user),
      notifyPending: user.company.companieSettings.showNotificationPending === 'enabled',
      openTicketUuid,
      focused: document.visibilityState === 'visible' && document.hasFocus(),
    });
    if (!notify) return;
    playChime(readVolume());
    if (!notificationsSupported() || Notification.permission !== 'granted') return;
    const name = payload.contact?.name ?? ticket.contact?.name ?? '';
    // One notification per ticket: a newer message replaces the older one.
    shown.current.get(ticket.uuid)?.close();
    const n = new Notification(t('tickets.notification.title', { name }), {
      body: truncate(lastMessagePreview(message.body || t('tickets.notification.media')).text, NOTIFICATION_BODY_MAX),
      icon: payload.contact?.urlPicture ?? undefined,
      tag: `ticket-${ticket.uuid}`,
    });
    n.onclick = () => {
      window.focus();
      navigate(`/tickets/${ticket.uuid}`);
      n.close();
    };
    n.onclose = () => {
      if (shown.current.get(ticket.uuid) === n) shown.current.delete(ticket.uuid);
    };
    shown.current.set(ticket.uuid, n);
  });
}

/** New customer messages chime and notify on every screen, not only in the inbox: the routes mount it beside the shell. */
export function TicketNotifications(): null {
  useTicketNotifications(useMatch('/tickets/:ticketId')?.params.ticketId ?? null);
  return null;
}
