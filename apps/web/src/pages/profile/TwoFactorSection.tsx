import { useState, type KeyboardEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TwoFactorEnrolment } from '@balcao/contracts';
import { confirmEnrolment, disableTwoFactor, startEnrolment, twoFactorKey, useTwoFactorStatus } from '../../api/twoFactor';
import { toast, toastError } from '../../components/toast';
import { AuthenticatorSetup } from './AuthenticatorSetup';
import { RecoveryCodesView } from './RecoveryCodesView';

/** The profile dialog's two-factor section: enrol (scan, confirm, keep the recovery codes) or turn off. */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: twoFactorKey });

  const submit = () =>
    void run(async () => {
      if (enrolment) {
        setCodes((await confirmEnrolment(code)).recoveryCodes);
        setEnrolment(null);
        toast.success(t('twoFactor.enabled'));
      } else {
        await disableTwoFactor(code);
        toast.success(t('twoFactor.disabled'));
      }
      setCode('');
      await refresh();
    });
  // It sits inside the profile form: Enter here confirms the code, it does not save the profile.
  const onEnter = (e: KeyboardEvent) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (code.trim().length >= 6) submit();
  };

  const state = status.data;
  let body;
  if (!state) body = <CircularProgress size={24} aria-label={t('twoFactor.loading')} />;
  else if (codes) body = <RecoveryCodesView codes={codes} onDone={() => setCodes(null)} />;
  else {
    const asksCode = enrolment !== null || state.enabled;
    body = (
      <Stack spacing={1.5}>
        <Typography variant="body2" color="text.secondary" data-testid="two-factor-state">
          {state.enabled ? t('twoFactor.on', { count: state.recoveryCodesLeft }) : t('twoFactor.off')}
          {state.required ? ` ${t('twoFactor.required')}` : ''}
        </Typography>
        {enrolment && <AuthenticatorSetup enrolment={enrolment} />}
        {!state.enabled && !enrolment && (
          <Button
            variant="outlined"
            sx={{ alignSelf: 'flex-start' }}
            disabled={busy}
            onClick={() => void run(async () => setEnrolment(await startEnrolment()))}
            data-testid="two-factor-enable"
          >
            {t('twoFactor.enable')}
          </Button>
        )}
        {asksCode && !(state.enabled && state.required) && (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
            <TextField
              size="small"
              label={enrolment ? t('twoFactor.code') : t('twoFactor.codeOrRecovery')}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              onKeyDown={onEnter}
              autoComplete="one-time-code"
              slotProps={{ htmlInput: { 'data-testid': 'two-factor-code', inputMode: enrolment ? 'numeric' : 'text' } }}
            />
            <Button variant="contained" disabled={busy || code.trim().length < 6} onClick={submit} data-testid="two-factor-submit">
              {enrolment ? t('twoFactor.confirm') : t('twoFactor.disable')}
            </Button>
          </Stack>
        )}
      </Stack>
    );
  }

  return (
    <Stack spacing={1.5} sx={{ mt: 2 }} data-testid="two-factor-section">
      <Divider />
      <Typography variant="subtitle1" component="h2">
        {t('twoFactor.title')}
      </Typography>
      {body}
    </Stack>
  );
}
