import { useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQueues } from '../../api/queues';
import { facebookLogin, loadFacebookSdk, type FacebookSdk } from './metaLogin';
import { NoQueueAlert } from './NoQueueWarning';

interface Props {
  instagram: boolean;
  onClose: () => void;
  /** Sends the token and the chosen queues to `POST /facebook`; the dialog closes when it resolves true. */
  onSubmit: (userId: string, token: string, queueIds: number[]) => Promise<boolean>;
}

/**
 * Adding Pages (or Instagram accounts): first the queues they will feed, then Meta's login popup
 * when its JS SDK loads, or — without it (no network, no app id) — a pasted user access token,
 * which the server exchanges the same way.
 */
export function MetaTokenDialog({ instagram, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const queues = useQueues();
  const [sdk, setSdk] = useState<FacebookSdk | null | undefined>(undefined);
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const [userId, setUserId] = useState('');
  const [token, setToken] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const tokenMissing = token.trim().length < 10;

  useEffect(() => {
    let live = true;
    void loadFacebookSdk().then((loaded) => live && setSdk(loaded));
    return () => {
      live = false;
    };
  }, []);

  const send = async (id: string, userToken: string) => {
    setBusy(true);
    try {
      if (await onSubmit(id, userToken, queueIds)) onClose();
    } finally {
      setBusy(false);
    }
  };

  const submit = async () => {
    if (sdk) {
      const result = await facebookLogin(sdk, instagram);
      if (result) await send(result.userId, result.token);
      return;
    }
    setTouched(true);
    // Graph's "me" is the token's own user: the id is optional here.
    if (!tokenMissing) await send(userId.trim() || 'me', token.trim());
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} maxWidth="sm" fullWidth data-testid="meta-token-dialog">
      <DialogTitle>{instagram ? t('connections.meta.instagramTitle') : t('connections.meta.facebookTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <TextField
            select
            fullWidth
            label={t('connectionSetup.meta.queues')}
            helperText={t('connectionSetup.meta.queuesHelp')}
            value={queueIds}
            onChange={(e) => {
              const v = e.target.value as unknown;
              setQueueIds(Array.isArray(v) ? v.map(Number) : String(v).split(',').filter(Boolean).map(Number));
            }}
            slotProps={{ select: { multiple: true, SelectDisplayProps: { 'data-testid': 'meta-queues' } as HTMLAttributes<HTMLDivElement> } }}
          >
            {(queues.data ?? []).map((q) => (
              <MenuItem key={q.id} value={q.id} data-testid={`meta-queue-option-${q.id}`}>
                {q.name}
              </MenuItem>
            ))}
          </TextField>
          {queueIds.length === 0 && <NoQueueAlert />}
          {sdk === undefined && <CircularProgress size={24} sx={{ alignSelf: 'center' }} />}
          {sdk === null && (
            <>
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
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {t('ui.actions.cancel')}
        </Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={busy || sdk === undefined}
          startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
          data-testid="meta-submit"
        >
          {sdk ? t('connectionSetup.meta.continue') : t('connections.meta.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
