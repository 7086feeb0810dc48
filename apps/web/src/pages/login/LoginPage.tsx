import { lazy, Suspense, useCallback, useState, type FormEvent } from 'react';
import type { SessionUser } from '@balcao/contracts';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { ApiError } from '../../api/http';
import { useSession } from '../../api/session';
import { subscriptionState } from '../../api/subscription';
import { AuthFrame } from '../../components/AuthFrame';
import { formatDate } from '../../components/format';
import { toast, toastError } from '../../components/toast';
import { useColorMode } from '../../components/colorMode';
import { landingPath } from '../../layout/landingPath';

// Only users with two-factor login download the code step.
const CodeStep = lazy(() => import('./CodeStep').then((m) => ({ default: m.CodeStep })));

/** The password step's answer when a second factor is due: its challenge, and whether the user must enrol first. */
function secondFactorDue(err: unknown): { challenge: string; setup: boolean } | null {
  if (!(err instanceof ApiError) || (err.code !== 'ERR_2FA_REQUIRED' && err.code !== 'ERR_2FA_SETUP_REQUIRED')) return null;
  const challenge = (err.data as { challenge?: unknown }).challenge;
  return typeof challenge === 'string' ? { challenge, setup: err.code === 'ERR_2FA_SETUP_REQUIRED' } : null;
}

export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const navigate = useNavigate();
  const { branding } = useColorMode();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const [due, setDue] = useState<{ challenge: string; setup: boolean } | null>(null);

  const enter = (user: SessionUser) => {
    const state = subscriptionState(user.company.id, user.company.dueDate);
    if (state.kind === 'expired') {
      // Spec 1 §4: the token is kept and the user is sent to the expiry page.
      toast.error(`${t('financeiroAberto.message', { date: formatDate(user.company.dueDate) })} ${t('financeiroAberto.contact')}`);
      navigate('/financeiro-aberto', { replace: true });
      return;
    }
    if (state.kind === 'expiring') {
      const key = state.daysLeft === 1 ? 'login.dueWarningOne' : 'login.dueWarningMany';
      toast.warning(t(key, { count: state.daysLeft }));
    }
    navigate(landingPath(user), { replace: true });
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      enter(await login({ email, password }));
    } catch (err) {
      const second = secondFactorDue(err);
      if (second) setDue(second);
      else toastError(err);
      setBusy(false);
    }
  };
  const back = useCallback(() => setDue(null), []);

  if (due) {
    return (
      <AuthFrame image={branding.loginImage}>
        <Suspense fallback={<CircularProgress aria-label={t('login.submit')} />}>
          <CodeStep {...due} onDone={enter} onBack={back} />
        </Suspense>
      </AuthFrame>
    );
  }

  return (
    <AuthFrame image={branding.loginImage}>
      <Typography variant="h5" component="h1" sx={{ mb: 2, textAlign: 'center' }}>
        {t('login.title')}
      </Typography>
      <Stack component="form" spacing={2} onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label={t('login.email')}
          type="email"
          name="email"
          autoComplete="email"
          autoFocus
          required
          fullWidth
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          slotProps={{ htmlInput: { 'data-testid': 'login-email' } }}
        />
        <TextField
          label={t('login.password')}
          type={showPassword ? 'text' : 'password'}
          name="password"
          autoComplete="current-password"
          required
          fullWidth
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          slotProps={{
            htmlInput: { 'data-testid': 'login-password' },
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                    data-testid="toggle-password"
                    onClick={() => setShowPassword((s) => !s)}
                    edge="end"
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Button type="submit" variant="contained" size="large" disabled={busy || !email || !password} data-testid="login-submit">
          {busy ? <CircularProgress size={24} color="inherit" /> : t('login.submit')}
        </Button>
        {branding.userCreation === 'enabled' && (
          <Link component={RouterLink} to="/signup" variant="body2" sx={{ textAlign: 'center' }} data-testid="signup-link">
            {t('login.register')}
          </Link>
        )}
      </Stack>
    </AuthFrame>
  );
}
