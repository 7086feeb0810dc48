import { useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  title?: string;
  children?: ReactNode;
  confirmLabel?: string;
  onClose: () => void;
  /** Runs on confirm; the dialog stays open (busy) until it settles, then closes. */
  onConfirm: () => Promise<unknown> | void;
}

/** The one confirmation dialog (deletes and other irreversible actions). */
export function ConfirmDialog({ open, title, children, confirmLabel, onClose, onConfirm }: Props) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onClose();
    }
  };
  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} maxWidth="xs" fullWidth data-testid="confirm-dialog">
      <DialogTitle>{title ?? t('ui.confirm.title')}</DialogTitle>
      <DialogContent dividers>
        <Typography component="div">{children ?? t('ui.confirm.deleteMessage')}</Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy} data-testid="confirm-cancel">
          {t('ui.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={() => void confirm()}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="confirm-ok"
        >
          {confirmLabel ?? t('ui.actions.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
