import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';

interface Props {
  instagram: boolean;
  onClose: () => void;
  /** Sends the token to `POST /facebook`; the dialog closes when it resolves. */
  onSubmit: (userId: string, token: string) => Promise<boolean>;
}

/**
 * Without Meta's JS SDK (no network, no app id), an operator pastes a user
 * access token instead; the server does the same exchange with it.
 */
export function MetaTokenDialog({ instagram, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [userId, setUserId] = useState('');
  const [token, setToken] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const tokenMissing = token.trim().length < 10;

  const submit = async () => {
    setTouched(true);
    if (tokenMissing) return;
    setBusy(true);
    try {
      // Graph's "me" is the token's own user: the id is optional here.
      if (await onSubmit(userId.trim() || 'me', token.trim())) onClose();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth data-testid="meta-token-dialog">
      <DialogTitle>{instagram ? t('connections.meta.instagramTitle') : t('connections.meta.facebookTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="info">{t('connections.meta.intro')}</Alert>
          <TextField
            label={t('connections.meta.userId')}
            value={userId}
            onChange={(e) => setUserId(e.target.value)}
            slotProps={{ htmlInput: { 'data-testid': 'meta-user-id', maxLength: 100 } }}
          />
          <TextField
            label={t('connections.meta.userToken')}
            value={token}
            onChange={(e) => setToken(e.target.value)}
            required
            multiline
            minRows={3}
            error={touched && tokenMissing}
            helperText={touched && tokenMissing ? t('connections.meta.required') : undefined}
            slotProps={{ htmlInput: { 'data-testid': 'meta-user-token', maxLength: 2000 } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('ui.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="meta-submit"
        >
          {t('connections.meta.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
