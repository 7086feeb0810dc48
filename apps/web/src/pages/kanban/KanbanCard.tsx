import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useDraggable } from '@dnd-kit/core';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import type { KanbanTicket } from '@balcao/contracts';
import { apiUrl } from '../../config';
import { formatAmount } from '../../components/format';
import { cardMessage, cardName, cardTime, cardValue } from './board';

interface Props {
  card: KanbanTicket;
  onEditValue: (card: KanbanTicket) => void;
  onRemoveValue: (card: KanbanTicket) => void;
}

const picture = (url: string | null) => (url && url.startsWith('/') ? `${apiUrl()}${url}` : (url ?? undefined));

/** One ticket on the board (spec 2 §2 "Card"), dragged by its handle with the mouse or the keyboard. */
export function KanbanCard({ card, onEditValue, onRemoveValue }: Props) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, isDragging } = useDraggable({ id: card.id });
  const value = cardValue(card);
  return (
    <Paper
      ref={setNodeRef}
      variant="outlined"
      data-testid={`kanban-card-${card.id}`}
      sx={{
        p: 1.25,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
        transform: transform ? `translate(${transform.x}px, ${transform.y}px)` : undefined,
        zIndex: isDragging ? 10 : undefined,
        boxShadow: isDragging ? 6 : undefined,
        position: 'relative',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Avatar src={picture(card.contact.urlPicture)} alt="" sx={{ width: 32, height: 32 }} />
        <Typography variant="subtitle2" title={card.contact.name} sx={{ flex: 1, minWidth: 0 }} data-testid="kanban-card-name">
          {cardName(card.contact.name)}
        </Typography>
        <Box
          component="button"
          type="button"
          {...attributes}
          {...listeners}
          aria-label={t('kanban.card.move', { id: card.id })}
          data-testid={`kanban-card-handle-${card.id}`}
          sx={{ border: 0, bgcolor: 'transparent', color: 'text.secondary', cursor: 'grab', p: 0.25, display: 'flex', borderRadius: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
        >
          <DragIndicatorIcon fontSize="small" />
        </Box>
      </Box>
      <Typography variant="caption" color="text.secondary">
        {t('kanban.card.ticket', { id: card.id })}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Button size="small" variant="text" onClick={() => onEditValue(card)} sx={{ px: 0.5, minWidth: 0 }} data-testid={`kanban-card-value-${card.id}`}>
          {value === null ? t('kanban.card.assignValue') : t('kanban.card.value', { value: formatAmount(value) })}
        </Button>
        {value !== null && (
          <Tooltip title={t('kanban.card.removeValue')}>
            <IconButton size="small" aria-label={t('kanban.card.removeValue')} onClick={() => onRemoveValue(card)} data-testid={`kanban-card-remove-value-${card.id}`}>
              <CloseIcon fontSize="inherit" />
            </IconButton>
          </Tooltip>
        )}
      </Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline' }}>
        <Typography variant="body2" title={card.lastMessage} sx={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
          {cardMessage(card.lastMessage)}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {cardTime(card.updatedAt)}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1 }}>
        <Typography variant="caption" sx={{ fontWeight: 600 }} data-testid="kanban-card-user">
          {(card.user?.name ?? t('kanban.card.noUser')).toUpperCase()}
        </Typography>
        <Button size="small" variant="outlined" component={RouterLink} to={`/tickets/${card.uuid}`} data-testid={`kanban-card-open-${card.id}`}>
          {t('kanban.card.openTicket')}
        </Button>
      </Box>
    </Paper>
  );
}
