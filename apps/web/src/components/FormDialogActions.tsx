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
  /** Submit only: the form is not complete yet (cancel stays available). */
  submitDisabled?: boolean;
}

/** Cancel and submit of a form dialog: both wait while the form is submitting. */
export function FormDialogActions({ cancelLabel, submitLabel, submitting, onCancel, testId, submitDisabled = false }: FormDialogActionsProps) {
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={submitting}>
        {cancelLabel}
      </Button>
      <Button
        type="submit"
        variant="contained"
        disabled={submitting || submitDisabled}
        startIcon={submitting ? <CircularProgress size={16} color="inherit" /> : undefined}
        data-testid={testId}
      >
        {submitLabel}
      </Button>
    </DialogActions>
  );
}
