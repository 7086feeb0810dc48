import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import AddCommentOutlinedIcon from '@mui/icons-material/AddCommentOutlined';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import FilterListIcon from '@mui/icons-material/FilterList';
import InboxIcon from '@mui/icons-material/MoveToInbox';
import PlaylistRemoveIcon from '@mui/icons-material/PlaylistRemove';
import SearchIcon from '@mui/icons-material/Search';
import VisibilityIcon from '@mui/icons-material/Visibility';
import VisibilityOffIcon from '@mui/icons-material/VisibilityOff';
import { SEARCH_DEBOUNCE_MS, type SessionUser, type Ticket } from '@balcao/contracts';
import { useUser } from '../../../api/session';
import { useAcceptTicket, useTicketList } from './ticketQueries';
import { useDebouncedValue } from '../../../components/form';
import { toastError } from '../../../components/toast';
import { useColorMode } from '../../../components/colorMode';
import { AcceptQueueDialog } from '../conversation/AcceptQueueDialog';
import { CloseAllDialog } from './CloseAllDialog';
import type { ExistingTicket } from './conflict';
import { FilterPanel, NO_FILTERS, hasFilters, type SearchFilters } from './FilterPanel';
import { flattenPages, unreadConversations, unreadMessagesTotal, type ListFilters, type ListView, type SortOrder } from './listModel';
import { NewTicketDialog } from './NewTicketDialog';
import { NotificationPrompt } from './NotificationPrompt';
import { QueueSelect } from './QueueSelect';
import { useQueueOptions } from './useQueueOptions';
import { TicketAlreadyOpenDialog } from './TicketAlreadyOpenDialog';
import { TicketList } from './TicketList';

type Mode = 'inbox' | 'closed' | 'search';
type InboxTab = 'open' | 'pending' | 'group';

const NO_SEARCH = { search: '', searchOnMessages: false, ...NO_FILTERS };

/** Show-all: admins, or users with allUserChat (spec 2 §6 tickets-manager:showall). */
export const canShowAll = (u: Pick<SessionUser, 'profile' | 'allUserChat'>) => u.profile === 'admin' || u.allUserChat === 'enabled';

/** A status tab: its name, and a badge with the conversations that have unread messages. */
function tabProps(value: InboxTab, label: string, unread: number, describe: string) {
  return {
    value,
    // The name is the visible text (label, then the count when there is one): an aria-label without the count
    // would not match what sighted users see (axe label-content-name-mismatch).
    'aria-description': unread > 0 ? describe : undefined,
    label: (
      <Badge badgeContent={unread > 0 ? unread : null} color="error" max={99} sx={{ '& .MuiBadge-badge': { right: -14, top: 2 } }}>
        {label}
      </Badge>
    ),
    sx: { minHeight: 40 },
  };
}

interface Props {
  selectedUuid: string | null;
  /** A row was chosen (narrow screens switch to the conversation). */
  onOpenTicket?: () => void;
}

/** The inbox side of /tickets: toolbar, filters, tabs and the live lists (spec 2 §2 "Ticket inbox"). */
export function TicketsManager({ selectedUuid, onOpenTicket }: Props) {
  const { t } = useTranslation();
  const user = useUser();
  const navigate = useNavigate();
  const { setUnread } = useColorMode();
  const isAdmin = user.profile === 'admin';
  const queueOptions = useQueueOptions();

  const [mode, setMode] = useState<Mode>('inbox');
  const [tab, setTab] = useState<InboxTab>('open');
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [searchOnMessages, setSearchOnMessages] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [filters, setFilters] = useState<SearchFilters>(NO_FILTERS);
  const [showAll, setShowAll] = useState(false);
  const [sort, setSort] = useState<SortOrder>('DESC');
  const [queueIds, setQueueIds] = useState<number[]>(() => user.queues.map((q) => q.id));
  const [newTicketOpen, setNewTicketOpen] = useState(false);
  const [closeAllOpen, setCloseAllOpen] = useState(false);
  const [heldBy, setHeldBy] = useState<ExistingTicket | null>(null);
  const [acceptFor, setAcceptFor] = useState<Ticket | null>(null);

  const listFilters = useMemo(() => {
    const base = { ...NO_SEARCH, queueIds, showAll, sort };
    const of = (view: ListView): ListFilters => ({ ...base, view });
    return {
      open: of('open'),
      pending: of('pending'),
      group: of('group'),
      closed: { ...of('closed'), sort: 'DESC' as const },
      search: { ...base, ...filters, view: 'search' as const, search, searchOnMessages, sort: 'DESC' as const },
    };
  }, [queueIds, showAll, sort, filters, search, searchOnMessages]);

  // The status lists stay loaded (their unread counts feed the badges and the tab title).
  const openList = useTicketList(listFilters.open);
  const pendingList = useTicketList(listFilters.pending);
  const groupList = useTicketList(listFilters.group, user.allowGroup);
  const closedList = useTicketList(listFilters.closed, mode === 'closed');
  const searchList = useTicketList(listFilters.search, mode === 'search');

  const openTickets = useMemo(() => flattenPages(openList.data), [openList.data]);
  const pendingTickets = useMemo(() => flattenPages(pendingList.data), [pendingList.data]);
  const groupTickets = useMemo(() => flattenPages(user.allowGroup ? groupList.data : undefined), [groupList.data, user.allowGroup]);

  const totalUnread = unreadMessagesTotal(openTickets) + unreadMessagesTotal(pendingTickets) + unreadMessagesTotal(groupTickets);
  useEffect(() => setUnread(totalUnread), [totalUnread, setUnread]);
  useEffect(() => () => setUnread(0), [setUnread]);

  const active = mode === 'closed' ? closedList : mode === 'search' ? searchList : tab === 'pending' ? pendingList : tab === 'group' ? groupList : openList;
  const activeTickets = useMemo(
    () =>
      mode === 'inbox'
        ? tab === 'pending'
          ? pendingTickets
          : tab === 'group'
            ? groupTickets
            : openTickets
        : flattenPages(active.data),
    [mode, tab, pendingTickets, groupTickets, openTickets, active.data],
  );

  const onSearchChange = (text: string) => {
    setSearchText(text);
    if (text.trim()) setMode('search');
    else if (mode === 'search' && !filtersOpen && !hasFilters(filters)) setMode('inbox');
  };

  const toggleFilters = () => {
    setFiltersOpen((o) => !o);
    if (!filtersOpen) setMode('search');
  };

  const accept = useAcceptTicket();
  const acceptTicket = (ticket: Ticket, queueId: number) =>
    accept.mutate(
      { id: ticket.id, userId: user.id, queueId },
      {
        onSuccess: (result) => {
          setAcceptFor(null);
          // The server may answer with the contact's other open ticket, held by someone else.
          if (result.id !== ticket.id && result.userId !== null && result.userId !== user.id) {
            setHeldBy({ id: result.id, uuid: result.uuid, userId: result.userId, userName: result.user?.name ?? '', queueName: result.queue?.name ?? '' });
            return;
          }
          setTab('open');
          onOpenTicket?.();
          navigate(`/tickets/${result.uuid}`);
        },
        onError: toastError,
      },
    );
  const onAccept = (ticket: Ticket) => (ticket.queueId !== null ? acceptTicket(ticket, ticket.queueId) : setAcceptFor(ticket));

  const sortable = mode === 'inbox';
  const closable = isAdmin && mode === 'inbox' && tab !== 'group';

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, bgcolor: 'background.paper' }}>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, px: 1.5, pt: 1.5, pb: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <TextField
            size="small"
            fullWidth
            type="search"
            placeholder={t('tickets.toolbar.search')}
            value={searchText}
            onChange={(e) => onSearchChange(e.target.value)}
            slotProps={{
              htmlInput: { 'aria-label': t('tickets.toolbar.search') },
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" color="action" />
                  </InputAdornment>
                ),
              },
            }}
          />
          <Tooltip title={t('tickets.toolbar.filters')}>
            <IconButton aria-label={t('tickets.toolbar.filters')} aria-pressed={filtersOpen} aria-expanded={filtersOpen} onClick={toggleFilters} color={filtersOpen || hasFilters(filters) ? 'primary' : 'default'}>
              <Badge variant="dot" color="primary" invisible={!hasFilters(filters)}>
                <FilterListIcon />
              </Badge>
            </IconButton>
          </Tooltip>
        </Box>
        {mode === 'search' && (
          <FormControlLabel
            sx={{ ml: 0, '& .MuiFormControlLabel-label': { fontSize: 13 } }}
            control={<Checkbox size="small" checked={searchOnMessages} onChange={(e) => setSearchOnMessages(e.target.checked)} />}
            label={t('tickets.toolbar.searchOnMessages')}
          />
        )}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
          <Tooltip title={t('tickets.toolbar.newTicket')}>
            <IconButton color="primary" aria-label={t('tickets.toolbar.newTicket')} onClick={() => setNewTicketOpen(true)}>
              <AddCommentOutlinedIcon />
            </IconButton>
          </Tooltip>
          {canShowAll(user) && (
            <Tooltip title={t('tickets.toolbar.showAll')}>
              <IconButton aria-label={t('tickets.toolbar.showAll')} aria-pressed={showAll} color={showAll ? 'primary' : 'default'} onClick={() => setShowAll((s) => !s)}>
                {showAll ? <VisibilityIcon /> : <VisibilityOffIcon />}
              </IconButton>
            </Tooltip>
          )}
          {sortable && (
            <Tooltip title={t(sort === 'DESC' ? 'tickets.toolbar.sortDesc' : 'tickets.toolbar.sortAsc')}>
              <IconButton
                aria-label={t(sort === 'DESC' ? 'tickets.toolbar.sortDesc' : 'tickets.toolbar.sortAsc')}
                onClick={() => setSort((s) => (s === 'DESC' ? 'ASC' : 'DESC'))}
              >
                {sort === 'DESC' ? <ArrowDownwardIcon /> : <ArrowUpwardIcon />}
              </IconButton>
            </Tooltip>
          )}
          {closable && (
            <Tooltip title={t('tickets.toolbar.closeAll')}>
              <IconButton aria-label={t('tickets.toolbar.closeAll')} color="error" onClick={() => setCloseAllOpen(true)}>
                <PlaylistRemoveIcon />
              </IconButton>
            </Tooltip>
          )}
          <Box sx={{ flex: 1 }} />
          <QueueSelect queues={queueOptions} selected={queueIds} onChange={setQueueIds} />
        </Box>
      </Box>
      <Collapse in={filtersOpen} unmountOnExit>
        <FilterPanel value={filters} onChange={setFilters} isAdmin={isAdmin} />
      </Collapse>
      <Divider />
      <Tabs value={mode} onChange={(_e, v: Mode) => setMode(v)} variant="fullWidth" aria-label={t('tickets.views.label')} sx={{ minHeight: 44 }}>
        <Tab value="inbox" label={t('tickets.views.inbox')} icon={<InboxIcon fontSize="small" />} iconPosition="start" sx={{ minHeight: 44 }} />
        <Tab value="closed" label={t('tickets.views.closed')} icon={<CheckCircleOutlineIcon fontSize="small" />} iconPosition="start" sx={{ minHeight: 44 }} />
        <Tab value="search" label={t('tickets.views.search')} icon={<SearchIcon fontSize="small" />} iconPosition="start" sx={{ minHeight: 44 }} />
      </Tabs>
      {mode === 'inbox' && (
        <Tabs
          value={tab}
          onChange={(_e, v: InboxTab) => setTab(v)}
          variant="fullWidth"
          aria-label={t('tickets.tabs.label')}
          sx={{ minHeight: 40, bgcolor: 'action.hover' }}
        >
          {(
            [
              ['open', openTickets],
              ['pending', pendingTickets],
              ...(user.allowGroup ? ([['group', groupTickets]] as const) : []),
            ] as const
          ).map(([value, list]) => {
            const unread = unreadConversations(list);
            return <Tab key={value} {...tabProps(value, t(`tickets.tabs.${value}`), unread, t('tickets.tabs.unread', { count: unread }))} />;
          })}
        </Tabs>
      )}
      <Divider />
      <NotificationPrompt />
      <TicketList
        tickets={activeTickets}
        selectedUuid={selectedUuid}
        showOwner={isAdmin}
        loading={active.isPending && active.fetchStatus !== 'idle'}
        error={active.isError}
        hasMore={active.hasNextPage}
        loadingMore={active.isFetchingNextPage}
        onLoadMore={() => void active.fetchNextPage()}
        onRetry={() => void active.refetch()}
        onAccept={mode === 'inbox' && tab === 'pending' ? onAccept : undefined}
        onOpen={onOpenTicket}
        emptyText={mode === 'search' && !search && !hasFilters(filters) ? t('tickets.list.searchHint') : t('tickets.list.empty')}
      />
      {newTicketOpen && <NewTicketDialog open onClose={() => setNewTicketOpen(false)} onHeldByOther={setHeldBy} />}
      <CloseAllDialog open={closeAllOpen} status={tab} queueIds={queueIds} onClose={() => setCloseAllOpen(false)} />
      <TicketAlreadyOpenDialog ticket={heldBy} onClose={() => setHeldBy(null)} />
      {acceptFor && (
        <AcceptQueueDialog
          open
          busy={accept.isPending}
          onClose={() => setAcceptFor(null)}
          onConfirm={(queueId) => acceptTicket(acceptFor, queueId)}
        />
      )}
    </Box>
  );
}
