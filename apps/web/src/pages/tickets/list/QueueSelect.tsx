import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import OutlinedInput from '@mui/material/OutlinedInput';
import Select from '@mui/material/Select';
import { DEFAULT_QUEUE_COLOR } from '@balcao/contracts';
import { QUEUE_CHIPS_SHOWN, firstWithRest, readableTextColor } from './rowFormat';
import type { QueueOption } from './useQueueOptions';

interface Props {
  queues: QueueOption[];
  selected: number[];
  onChange: (ids: number[]) => void;
}

/** The queues whose tickets the inbox shows; chips show at most 2, then '+N Filas' (spec 2 §2). */
export function QueueSelect({ queues, selected, onChange }: Props) {
  const { t } = useTranslation();
  const label = t('tickets.toolbar.queues');
  return (
    // Too narrow for two readable chips beside the toolbar's buttons (phones): the field takes a line of its own.
    <FormControl size="small" sx={{ minWidth: 240, flex: 1, maxWidth: { xs: 'none', sm: 320 } }}>
      <InputLabel id="tickets-queue-select-label">{label}</InputLabel>
      <Select
        labelId="tickets-queue-select-label"
        multiple
        value={selected}
        onChange={(e) => onChange(typeof e.target.value === 'string' ? [] : e.target.value)}
        input={<OutlinedInput label={label} />}
        renderValue={(ids) => {
          const chosen = queues.filter((q) => ids.includes(q.id));
          const { shown, rest } = firstWithRest(chosen, QUEUE_CHIPS_SHOWN);
          return (
            // Chips wrap rather than shrink: a name is never cut to a few letters.
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
              {shown.map((q) => (
                <Chip
                  key={q.id}
                  size="small"
                  label={q.name}
                  sx={{ height: 20, maxWidth: '100%', bgcolor: q.color || DEFAULT_QUEUE_COLOR, color: readableTextColor(q.color || DEFAULT_QUEUE_COLOR) }}
                />
              ))}
              {rest > 0 && <Chip size="small" variant="outlined" label={t('tickets.toolbar.moreQueues', { count: rest })} sx={{ height: 20 }} />}
            </Box>
          );
        }}
        sx={{ '& .MuiSelect-select': { py: 0.75 } }}
      >
        {queues.length === 0 && (
          <MenuItem disabled value={-1}>
            {t('tickets.toolbar.noQueues')}
          </MenuItem>
        )}
        {queues.map((q) => (
          <MenuItem key={q.id} value={q.id} dense>
            <Checkbox size="small" checked={selected.includes(q.id)} sx={{ p: 0.5, mr: 1, color: q.color, '&.Mui-checked': { color: q.color } }} />
            <ListItemText primary={q.name} />
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
