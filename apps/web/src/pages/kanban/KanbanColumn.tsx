import { useTranslation } from 'react-i18next';
import { useDroppable } from '@dnd-kit/core';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { KANBAN_COLUMN_WIDTH, type KanbanTicket } from '@balcao/contracts';
import { formatAmount } from '../../components/format';
import { columnTotal, type ColumnId } from './board';
import { KanbanCard } from './KanbanCard';

interface Props {
  id: ColumnId;
  title: string;
  color?: string;
  cards: KanbanTicket[];
  onEditValue: (card: KanbanTicket) => void;
  onRemoveValue: (card: KanbanTicket) => void;
}

/** One column (272 px): title, 'Total: R$ {sum}', and its cards; cards dropped on it move to its lane. */
export function KanbanColumn({ id, title, color, cards, onEditValue, onRemoveValue }: Props) {
  const { t } = useTranslation();
  const { setNodeRef, isOver } = useDroppable({ id });
  const headingId = `kanban-column-title-${id}`;
  return (
    <Paper
      ref={setNodeRef}
      component="section"
      aria-labelledby={headingId}
      variant="outlined"
      data-testid={`kanban-column-${id}`}
      sx={{
        width: KANBAN_COLUMN_WIDTH,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        maxHeight: '100%',
        bgcolor: isOver ? 'action.hover' : 'background.default',
        borderTop: 4,
        borderTopColor: color ?? 'divider',
      }}
    >
      <Box sx={{ px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography id={headingId} variant="subtitle1" component="h2" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
          {title}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid={`kanban-column-total-${id}`}>
          {t('kanban.total', { sum: formatAmount(columnTotal(cards)) })}
        </Typography>
      </Box>
      <Box sx={{ p: 1, display: 'flex', flexDirection: 'column', gap: 1, overflowY: 'auto', minHeight: 120, flex: 1 }}>
        {cards.length === 0 ? (
          <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center', py: 2 }}>
            {t('kanban.empty')}
          </Typography>
        ) : (
          cards.map((card) => <KanbanCard key={card.id} card={card} onEditValue={onEditValue} onRemoveValue={onRemoveValue} />)
        )}
      </Box>
    </Paper>
  );
}
