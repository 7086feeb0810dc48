import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Calendar, dayjsLocalizer, Views, type EventProps, type View } from 'react-big-calendar';
import 'react-big-calendar/lib/css/react-big-calendar.css';
import dayjs from 'dayjs';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/es';
import 'dayjs/locale/tr';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { SEARCH_DEBOUNCE_MS, type Schedule, type ScheduleStatus } from '@balcao/contracts';
import { useContactChoice, useDeleteSchedule, useSchedulesInRange, useSchedulesLive } from '../../api/schedules';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { useDebouncedValue } from '../../components/form';
import { ListPage, SearchField } from '../../components/ListPage';
import { ScheduleDialog } from './ScheduleDialog';

const localizer = dayjsLocalizer(dayjs);
/** dayjs's names of the app's languages (English is dayjs's own). */
const CULTURES: Record<string, string> = { 'pt-BR': 'pt-br', es: 'es', tr: 'tr', en: 'en' };
const STATUS_COLORS: Record<ScheduleStatus, string> = { PENDENTE: '#1976d2', AGENDADA: '#b45309', ENVIADA: '#2e7d32', ERRO: '#d32f2f' };
/** How long an event looks in the time grids (a send is an instant). */
const EVENT_MINUTES = 30;

interface ScheduleEvent {
  id: number;
  title: string;
  start: Date;
  end: Date;
  schedule: Schedule;
}

/** The range the calendar shows for a view around a date (months include the weeks they touch; the agenda 30 days). */
function visibleRange(date: Date, view: View): { from: Date; to: Date } {
  const d = dayjs(date);
  if (view === Views.MONTH) return { from: d.startOf('month').subtract(7, 'day').toDate(), to: d.endOf('month').add(7, 'day').toDate() };
  if (view === Views.DAY) return { from: d.startOf('day').toDate(), to: d.endOf('day').toDate() };
  if (view === Views.AGENDA) return { from: d.startOf('day').toDate(), to: d.startOf('day').add(30, 'day').toDate() };
  return { from: d.startOf('week').subtract(1, 'day').toDate(), to: d.endOf('week').add(1, 'day').toDate() };
}

/** /schedules (spec 2 §2): the calendar of scheduled messages, their dialog, search and `?contactId=`. */
export function SchedulesPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const [date, setDate] = useState(() => new Date());
  const [view, setView] = useState<View>(Views.MONTH);
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);
  const remove = useDeleteSchedule();
  useSchedulesLive();

  const term = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const range = useMemo(() => ({ ...visibleRange(date, view), search: term }), [date, view, term]);
  const schedules = useSchedulesInRange(range);
  const contactParam = Number(params.get('contactId'));
  const askedContact = useContactChoice(Number.isInteger(contactParam) && contactParam > 0 ? contactParam : null);

  const events = useMemo<ScheduleEvent[]>(
    () =>
      (schedules.data ?? []).map((s) => {
        const start = new Date(s.sendAt);
        return { id: s.id, title: s.contact?.name ?? '', start, end: new Date(start.getTime() + EVENT_MINUTES * 60_000), schedule: s };
      }),
    [schedules.data],
  );

  const messages = useMemo(
    () => ({
      ...(t('schedules.calendar', { returnObjects: true }) as Record<string, string>),
      showMore: (count: number) => t('schedules.calendar.showMore', { count }),
    }),
    [t],
  );

  const EventLabel = useMemo(
    () =>
      function EventLabel({ event }: EventProps<ScheduleEvent>) {
        const s = event.schedule;
        return (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }} data-testid={`schedule-event-${s.id}`} data-status={s.status}>
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', flex: 1 }}>
              {event.title} · {t(`schedules.status.${s.status}`)}
            </Box>
            <IconButton
              size="small"
              aria-label={t('schedules.delete')}
              sx={{ color: 'inherit', p: 0.25 }}
              data-testid={`schedule-delete-${s.id}`}
              onClick={(e) => {
                e.stopPropagation();
                setDeleting(s);
              }}
            >
              <DeleteOutlineIcon fontSize="inherit" />
            </IconButton>
          </Box>
        );
      },
    [t],
  );

  const closeDialog = () => {
    setEditing(null);
    if (params.has('contactId')) {
      params.delete('contactId');
      setParams(params, { replace: true });
    }
  };
  const fromQuery = askedContact.data ? { id: askedContact.data.id, name: askedContact.data.name } : null;

  return (
    <ListPage
      title={t('schedules.title')}
      testId="schedules-page"
      actions={
        <>
          <SearchField value={search} onChange={setSearch} />
          <Button variant="contained" onClick={() => setEditing('new')} data-testid="schedule-add">
            {t('schedules.add')}
          </Button>
        </>
      }
    >
      <Box
        sx={{
          p: 1,
          height: '100%',
          minHeight: 560,
          position: 'relative',
          // The library's greys are too faint on days outside the month (and ignore the dark theme).
          '& .rbc-off-range': { color: 'text.secondary' },
          '& .rbc-off-range-bg': { bgcolor: 'action.hover' },
          '& .rbc-today': { bgcolor: 'action.selected' },
          '& .rbc-toolbar button': { color: 'text.primary', borderColor: 'divider' },
          '& .rbc-toolbar button.rbc-active, & .rbc-toolbar button:hover, & .rbc-toolbar button:focus, & .rbc-toolbar button:active': {
            bgcolor: 'action.selected',
            color: 'text.primary',
          },
          '& .rbc-show-more': { bgcolor: 'transparent', color: 'primary.main' },
        }}
      >
        {schedules.isFetching && (
          <CircularProgress size={20} aria-label={t('schedules.loading')} sx={{ position: 'absolute', right: 16, top: 16, zIndex: 5 }} />
        )}
        <Calendar<ScheduleEvent>
          localizer={localizer}
          culture={CULTURES[i18n.language] ?? 'pt-br'}
          messages={messages}
          events={events}
          date={date}
          onNavigate={setDate}
          view={view}
          onView={setView}
          views={[Views.MONTH, Views.WEEK, Views.WORK_WEEK, Views.DAY, Views.AGENDA]}
          popup
          onDoubleClickEvent={(event) => setEditing(event.schedule)}
          eventPropGetter={(event) => ({ style: { backgroundColor: STATUS_COLORS[event.schedule.status] } })}
          components={{ event: EventLabel }}
          style={{ height: 'calc(100vh - 200px)', minHeight: 540 }}
        />
      </Box>
      {editing !== null && <ScheduleDialog schedule={editing === 'new' ? null : editing} onClose={closeDialog} />}
      {editing === null && fromQuery && <ScheduleDialog key={fromQuery.id} schedule={null} contact={fromQuery} onClose={closeDialog} />}
      <ConfirmDeleteDialog
        record={deleting}
        title={t('schedules.confirmDelete.title')}
        deletedText={t('schedules.toasts.deleted')}
        remove={(id) => remove.mutateAsync(id)}
        onClose={() => setDeleting(null)}
      >
        {t('schedules.confirmDelete.message')}
      </ConfirmDeleteDialog>
    </ListPage>
  );
}
