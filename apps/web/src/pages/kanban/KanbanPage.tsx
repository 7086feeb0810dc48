import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type KeyboardCoordinateGetter,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { can, KANBAN_SORTS, type KanbanSort, type KanbanTicket } from '@balcao/contracts';
import { useKanbanLanes, useKanbanLive, useKanbanTickets, useMoveToLane, useSetOpportunityValue } from '../../api/kanban';
import { useUser } from '../../api/session';
import { readStorage, writeStorage } from '../../api/storage';
import { toastError } from '../../components/toast';
import { columnsOf, DEFAULT_COLUMN, isoDay, readSort, SORT_STORAGE_KEY, type ColumnId } from './board';
import { KanbanColumn } from './KanbanColumn';
import { ValueDialog } from './ValueDialog';

/**
 * Arrow left / right carry the picked-up card to the centre of the neighbouring column
 * (the default step would need a dozen presses to cross one 272 px column).
 */
const columnCoordinates: KeyboardCoordinateGetter = (event, { context: { collisionRect, droppableRects, over } }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  if (!step || !collisionRect) return undefined;
  event.preventDefault();
  const columns = [...droppableRects.entries()].sort(([, a], [, b]) => a.left - b.left);
  const centre = collisionRect.left + collisionRect.width / 2;
  const here = over ? columns.findIndex(([id]) => id === over.id) : columns.findIndex(([, r]) => centre >= r.left && centre <= r.left + r.width);
  const target = columns[Math.min(columns.length - 1, Math.max(0, here + step))]?.[1];
  if (!target) return undefined;
  return { x: target.left + (target.width - collisionRect.width) / 2, y: collisionRect.top };
};

/** /Kanban (plan flag useKanban; spec 2 §2 "Kanban", docs/kanban.md). */
export function KanbanPage() {
  const { t } = useTranslation();
  const user = useUser();
  const today = isoDay(new Date());
  const [inputs, setInputs] = useState({ startDate: today, endDate: today });
  const [range, setRange] = useState(inputs);
  const [sort, setSort] = useState<KanbanSort>(() => readSort(readStorage(SORT_STORAGE_KEY)));
  const [editing, setEditing] = useState<KanbanTicket | null>(null);
  const lanes = useKanbanLanes();
  const tickets = useKanbanTickets(range);
  useKanbanLive();
  const move = useMoveToLane();
  const setValue = useSetOpportunityValue();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }), useSensor(KeyboardSensor, { coordinateGetter: columnCoordinates }));

  const laneList = useMemo(() => lanes.data ?? [], [lanes.data]);
  const columns = useMemo(() => columnsOf(tickets.data ?? [], laneList.map((l) => l.id), sort), [tickets.data, laneList, sort]);
  const columnName = (id: UniqueIdentifier | undefined) => (id === DEFAULT_COLUMN ? t('kanban.defaultColumn') : (laneList.find((l) => l.id === id)?.name ?? ''));
  const columnOfCard = (cardId: UniqueIdentifier) => [...columns.entries()].find(([, cards]) => cards.some((c) => c.id === cardId))?.[0];

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || over.id === columnOfCard(active.id)) return;
    const lane = over.id === DEFAULT_COLUMN ? null : (laneList.find((l) => l.id === over.id) ?? null);
    move.mutate({ ticketId: Number(active.id), lane }, { onError: toastError });
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('kanban.dnd.picked', { id: active.id }),
    onDragOver: ({ over }) => (over ? t('kanban.dnd.over', { column: columnName(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('kanban.dnd.dropped', { id: active.id, column: columnName(over.id) }) : t('kanban.dnd.cancelled')),
    onDragCancel: () => t('kanban.dnd.cancelled'),
  };

  const changeSort = (value: KanbanSort) => {
    setSort(value);
    writeStorage(SORT_STORAGE_KEY, value);
  };
  const saveValue = (card: KanbanTicket, value: number | null) =>
    setValue.mutate({ contact: card.contact, value }, { onSuccess: () => setEditing(null), onError: toastError });

  const loading = tickets.isPending || lanes.isPending;
  const failed = tickets.isError || lanes.isError;
  const ordered: { id: ColumnId; title: string; color?: string }[] = [
    { id: DEFAULT_COLUMN, title: t('kanban.defaultColumn') },
    ...laneList.map((l) => ({ id: l.id, title: l.name, color: l.color })),
  ];

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, flex: 1 }} data-testid="kanban-page">
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('kanban.title')}
      </Typography>
      <Box component="form" onSubmit={(e) => (e.preventDefault(), setRange(inputs))} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={t('kanban.sort.label')}
          value={sort}
          onChange={(e) => changeSort(e.target.value as KanbanSort)}
          sx={{ minWidth: 220 }}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'kanban-sort' } as object } }}
        >
          {KANBAN_SORTS.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`kanban.sort.${s}`)}
            </MenuItem>
          ))}
        </TextField>
        {(['startDate', 'endDate'] as const).map((field) => (
          <TextField
            key={field}
            type="date"
            size="small"
            label={t(`kanban.${field}`)}
            value={inputs[field]}
            onChange={(e) => setInputs((v) => ({ ...v, [field]: e.target.value }))}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': `kanban-${field}` } }}
          />
        ))}
        <Button type="submit" variant="contained" data-testid="kanban-search">
          {t('kanban.search')}
        </Button>
        {can(user.profile, 'dashboard:view') && (
          <Button component={RouterLink} to="/TagsKanban" variant="outlined" data-testid="kanban-add-columns">
            {t('kanban.addColumns')}
          </Button>
        )}
      </Box>
      {failed && (
        <Typography color="error" role="alert">
          {t('kanban.loadError')}
        </Typography>
      )}
      {loading ? (
        <CircularProgress aria-label={t('kanban.loading')} sx={{ alignSelf: 'center' }} />
      ) : (
        <DndContext sensors={sensors} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: t('kanban.dnd.instructions') } }}>
          <Box sx={{ display: 'flex', gap: 1.5, overflowX: 'auto', alignItems: 'stretch', flex: 1, minHeight: 0, pb: 1 }} data-testid="kanban-board">
            {ordered.map((col) => (
              <KanbanColumn
                key={col.id}
                id={col.id}
                title={col.title}
                color={col.color}
                cards={failed ? [] : (columns.get(col.id) ?? [])}
                onEditValue={setEditing}
                onRemoveValue={(card) => saveValue(card, null)}
              />
            ))}
          </Box>
        </DndContext>
      )}
      {editing && <ValueDialog card={editing} saving={setValue.isPending} onCancel={() => setEditing(null)} onSave={(value) => saveValue(editing, value)} />}
    </Box>
  );
}
