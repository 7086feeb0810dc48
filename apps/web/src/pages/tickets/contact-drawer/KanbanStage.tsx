import { useTranslation } from 'react-i18next';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { laneOf, type Ticket } from '@balcao/contracts';
import { useKanbanLanes, useMoveToLane } from '../../../api/kanban';
import { toastError } from '../../../components/toast';

const NONE = 'default';

/**
 * The ticket's kanban stage (spec 2 §2 contact drawer): its lane, or the board's default
 * column; a change moves it as a drag on the board does (docs/kanban.md).
 */
export function KanbanStage({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation();
  const lanes = useKanbanLanes();
  const move = useMoveToLane();
  const list = lanes.data ?? [];
  const current = laneOf(ticket.tags, new Set(list.map((l) => l.id)));
  const change = (value: string) => {
    const lane = value === NONE ? null : (list.find((l) => String(l.id) === value) ?? null);
    move.mutate({ ticketId: ticket.id, lane }, { onError: toastError });
  };
  return (
    <TextField
      select
      fullWidth
      size="small"
      label={t('kanban.stage.label')}
      value={current === null ? NONE : String(current)}
      onChange={(e) => change(e.target.value)}
      disabled={lanes.isPending || move.isPending}
      slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'contact-kanban-stage' } as object } }}
    >
      <MenuItem value={NONE}>{t('kanban.defaultColumn')}</MenuItem>
      {list.map((lane) => (
        <MenuItem key={lane.id} value={String(lane.id)}>
          {lane.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
