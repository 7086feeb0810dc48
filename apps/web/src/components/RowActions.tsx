import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import { ConfirmDeleteDialog } from './ConfirmDeleteDialog';

interface RowAction {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  testId: string;
  disabled?: boolean;
}

interface RowActionsProps {
  /** The row's record id; the test ids are `<testIdPrefix>-edit-<id>` and `<testIdPrefix>-delete-<id>`. */
  id: number;
  testIdPrefix: string;
  onEdit?: () => void;
  /** Actions between edit and delete (renew…). */
  extra?: RowAction[];
  /** Delete after a confirmation; absent when the row cannot be deleted. */
  remove?: { title: string; message: ReactNode; deletedText: string | ((result: unknown) => string); run: (id: number) => Promise<unknown> };
}

function ActionButton({ label, icon, onClick, testId, disabled }: RowAction) {
  const button = (
    <IconButton size="small" aria-label={label} onClick={onClick} data-testid={testId} disabled={disabled}>
      {icon}
    </IconButton>
  );
  // A disabled button fires no events: the tooltip listens on a wrapper instead.
  return <Tooltip title={label}>{disabled ? <span>{button}</span> : button}</Tooltip>;
}

/** The actions cell of a list row: edit, the row's own actions, and delete with its confirmation and toast. */
export function RowActions({ id, testIdPrefix, onEdit, extra = [], remove }: RowActionsProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  return (
    <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
      {onEdit && <ActionButton label={t('ui.actions.edit')} icon={<EditIcon fontSize="small" />} onClick={onEdit} testId={`${testIdPrefix}-edit-${id}`} />}
      {extra.map((action) => (
        <ActionButton key={action.testId} {...action} />
      ))}
      {remove && (
        <>
          <ActionButton
            label={t('ui.actions.delete')}
            icon={<DeleteOutlineIcon fontSize="small" />}
            onClick={() => setConfirming(true)}
            testId={`${testIdPrefix}-delete-${id}`}
          />
          <ConfirmDeleteDialog
            record={confirming ? { id } : null}
            title={remove.title}
            deletedText={remove.deletedText}
            remove={remove.run}
            onClose={() => setConfirming(false)}
          >
            {remove.message}
          </ConfirmDeleteDialog>
        </>
      )}
    </TableCell>
  );
}
