import { useEffect, useMemo } from 'react';
import { useMatch } from 'react-router';
import { useUser } from '../../../api/session';
import { useColorMode } from '../../../components/colorMode';
import { NO_FILTERS } from './FilterPanel';
import { flattenPages, unreadMessagesTotal, viewerOf, type ListFilters, type ListView } from './listModel';
import { useTicketList } from './ticketQueries';
import { useLiveTickets } from './useLiveTickets';

/**
 * Off the inbox, the tab title still counts the unread messages (issue 14): the same lists
 * the inbox opens with (the user's queues, not show-all), kept live from the socket. On
 * /tickets the inbox itself sets the count, so this stays out of its way.
 */
function OffInboxUnread() {
  const user = useUser();
  const { setUnread } = useColorMode();
  const queueIds = useMemo(() => user.queues.map((q) => q.id), [user.queues]);
  const of = (view: ListView): ListFilters => ({ view, search: '', searchOnMessages: false, ...NO_FILTERS, queueIds, showAll: false, sort: 'DESC' });
  const open = useTicketList(of('open'));
  const pending = useTicketList(of('pending'));
  const group = useTicketList(of('group'), user.allowGroup);
  useLiveTickets(viewerOf(user));
  const total =
    unreadMessagesTotal(flattenPages(open.data)) + unreadMessagesTotal(flattenPages(pending.data)) + unreadMessagesTotal(flattenPages(user.allowGroup ? group.data : undefined));
  useEffect(() => setUnread(total), [total, setUnread]);
  useEffect(() => () => setUnread(0), [setUnread]);
  return null;
}

/** Mounted beside the shell by the routes, like the new-message notifications. */
export function UnreadTabTitle() {
  const inInbox = useMatch('/tickets/:ticketId?') !== null;
  return inInbox ? null : <OffInboxUnread />;
}
