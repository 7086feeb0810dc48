import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type AuthResponse, type SessionUser, type TwoFactorEnrolment } from '@balcao/contracts';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import i18n from '../../i18n';
import { useSession } from '../../api/session';
import { loginWithCode, startLoginEnrolment } from '../../api/twoFactor';
import { toastError } from '../../components/toast';
import { AuthenticatorSetup } from '../profile/AuthenticatorSetup';
import { RecoveryCodesView } from '../profile/RecoveryCodesView';
import { twoFactorMessages } from '../profile/texts';

// This chunk loads before the signed-in shell, which mounts the screens' texts: it brings its own.
for (const lang of LANGUAGES) i18n.addResourceBundle(lang, 'translation', { twoFactor: twoFactorMessages[lang] }, true, false);

export interface CodeStepProps {
  challenge: string;
  /** The company requires two-factor login and the user has none yet: enrol here first. */
  setup: boolean;
  onDone: (user: SessionUser) => void;
  onBack: () => void;
}

/** The login's second step (lazy: /login downloads it only when a code is due). */
export function CodeStep({ challenge, setup, onDone, onBack }: CodeStepProps) {
  const { t } = useTranslation();
  const { startSession } = useSession();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [finished, setFinished] = useState<{ session: AuthResponse; codes: string[] } | null>(null);

  useEffect(() => {
    if (!setup) return;
    startLoginEnrolment(challenge).then(setEnrolment, (err: unknown) => {
      toastError(err);
      onBack();
    });
  }, [setup, challenge, onBack]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { recoveryCodes, ...session } = await loginWithCode(challenge, code);
      // A finished setup shows its recovery codes first: the session starts (and the page leaves) once they are kept.
      if (recoveryCodes) setFinished({ session, codes: recoveryCodes });
      else onDone(startSession(session));
    } catch (err) {
      toastError(err);
      setCode('');
      setBusy(false);
    }
  };

  if (finished) return <RecoveryCodesView codes={finished.codes} onDone={() => onDone(startSession(finished.session))} />;
  if (setup && !enrolment) return <CircularProgress sx={{ alignSelf: 'center' }} aria-label={t('twoFactor.loading')} />;

  return (
    <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate data-testid="login-code-step">
      <Typography variant="h6" component="h1" sx={{ textAlign: 'center' }}>
        {t('twoFactor.loginTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {setup ? t('twoFactor.setupHint') : t('twoFactor.loginHint')}
      </Typography>
      {enrolment && <AuthenticatorSetup enrolment={enrolment} />}
      <TextField
        label={setup ? t('twoFactor.code') : t('twoFactor.codeOrRecovery')}
        name="code"
        autoComplete="one-time-code"
        autoFocus
        required
        fullWidth
        value={code}
        onChange={(e) => setCode(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'login-code', inputMode: setup ? 'numeric' : 'text' } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy || code.trim().length < 6} data-testid="login-code-submit">
        {busy ? <CircularProgress size={24} color="inherit" aria-label={t('twoFactor.loading')} /> : t('twoFactor.verify')}
      </Button>
      <Button onClick={onBack}>{t('twoFactor.back')}</Button>
    </Stack>
  );
}
