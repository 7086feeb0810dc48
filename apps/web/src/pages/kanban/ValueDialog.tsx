import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { KanbanTicket } from '@balcao/contracts';
import { FormDialogActions } from '../../components/FormDialogActions';
import { cardValue, parseValue } from './board';

interface Props {
  card: KanbanTicket;
  saving: boolean;
  onCancel: () => void;
  onSave: (value: number) => void;
}

/** 'Editar' / 'Atribuir' 'Valor da Oportunidade' (spec 2 §2): one numeric field. */
export function ValueDialog({ card, saving, onCancel, onSave }: Props) {
  const { t } = useTranslation();
  const current = cardValue(card);
  const [text, setText] = useState(current === null ? '' : current.toFixed(2).replace('.', ','));
  const [invalid, setInvalid] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseValue(text);
    setInvalid(value === null);
    if (value !== null) onSave(value);
  };
  const title = t(current === null ? 'kanban.dialog.assign' : 'kanban.dialog.edit');
  return (
    <Dialog open onClose={onCancel} fullWidth maxWidth="xs" aria-labelledby="kanban-value-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="kanban-value-title">{title}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('kanban.dialog.field')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            error={invalid}
            helperText={invalid ? t('kanban.dialog.invalid') : ' '}
            slotProps={{ htmlInput: { inputMode: 'decimal', 'data-testid': 'kanban-value-input' } }}
          />
        </DialogContent>
        <FormDialogActions cancelLabel={t('kanban.dialog.cancel')} submitLabel={t('kanban.dialog.save')} submitting={saving} onCancel={onCancel} testId="kanban-value-save" />
      </form>
    </Dialog>
  );
}
