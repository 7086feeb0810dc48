import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import DialogActions from '@mui/material/DialogActions';

interface FormDialogActionsProps {
  cancelLabel: string;
  submitLabel: string;
  submitting: boolean;
  onCancel: () => void;
  /** The submit button's `data-testid`. */
  testId: string;
}

/** Cancel and submit of a form dialog: both wait while the form is submitting. */
export function FormDialogActions({ cancelLabel, submitLabel, submitting, onCancel, testId }: FormDialogActionsProps) {
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={submitting}>
        {cancelLabel}
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={submitting}
        startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        data-testid={testId}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}
