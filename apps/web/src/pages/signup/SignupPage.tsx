import type { HTMLAttributes } from 'react';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { FORM_SUBMIT_DELAY_MS, signupBody, type Plan } from '@balcao/contracts';
import { ApiError, request } from '../../api/http';
import { usePublicPlans } from '../../api/plans';
import { AuthFrame } from '../../components/AuthFrame';
import { formatAmount } from '../../components/format';
import { toast, toastError } from '../../components/toast';
import { useColorMode } from '../../components/colorMode';

type SignupInput = z.input<typeof signupBody>;
type SignupOutput = z.output<typeof signupBody>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function planLabel(t: (key: string, values: Record<string, string | number>) => string, plan: Plan): string {
  return t('signup.planLabel', {
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    amount: formatAmount(plan.amount),
  });
}

export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { branding } = useColorMode();
  const plans = usePublicPlans();
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignupInput, unknown, SignupOutput>({
    resolver: zodResolver(signupBody),
    defaultValues: { companyName: '', name: '', email: '', password: '', phone: '', planId: '' },
  });

  const message = (err: FieldError | undefined, value?: unknown): string | undefined => {
    if (!err) return undefined;
    if (value === '' || value === undefined) return t('signup.validation.required');
    if (err.type === 'too_small') return t('signup.validation.tooShort');
    if (err.type === 'too_big') return t('signup.validation.tooLong');
    if (err.type === 'invalid_format' || err.type === 'invalid_type') return t('signup.validation.email');
    return err.message;
  };

  const onSubmit = async (values: SignupOutput) => {
    await sleep(FORM_SUBMIT_DELAY_MS);
    try {
      await request('/auth/signup', { method: 'POST', body: values, auth: false });
      toast.success(t('signup.success'));
      navigate('/login', { replace: true });
    } catch (err) {
      toastError(err);
    }
  };

  const planList = plans.data ?? [];
  const plansMissing = plans.isError && plans.error instanceof ApiError && plans.error.status === 404;

  return (
    <AuthFrame image={branding.signupImage}>
      <Typography variant="h5" component="h1" sx={{ mb: 2, textAlign: 'center' }}>
        {t('signup.title')}
      </Typography>
      <Stack component="form" spacing={2} noValidate onSubmit={(e) => void handleSubmit(onSubmit)(e)}>
        <Controller
          name="companyName"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('signup.companyName')}
              autoFocus
              required
              error={!!fieldState.error}
              helperText={message(fieldState.error, field.value)}
              slotProps={{ htmlInput: { 'data-testid': 'signup-companyName' } }}
            />
          )}
        />
        <Controller
          name="name"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('signup.name')}
              required
              error={!!fieldState.error}
              helperText={message(fieldState.error, field.value)}
              slotProps={{ htmlInput: { 'data-testid': 'signup-name' } }}
            />
          )}
        />
        <Controller
          name="email"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              onChange={(e) => field.onChange(e.target.value.toLowerCase())}
              label={t('signup.email')}
              type="email"
              autoComplete="email"
              required
              error={!!fieldState.error}
              helperText={message(fieldState.error, field.value)}
              slotProps={{ htmlInput: { 'data-testid': 'signup-email' } }}
            />
          )}
        />
        <Controller
          name="password"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              label={t('signup.password')}
              type="password"
              autoComplete="new-password"
              required
              error={!!fieldState.error}
              helperText={message(fieldState.error, field.value)}
              slotProps={{ htmlInput: { 'data-testid': 'signup-password' } }}
            />
          )}
        />
        <TextField
          {...register('phone')}
          label={t('signup.phone')}
          type="tel"
          error={!!errors.phone}
          helperText={message(errors.phone, 'x')}
          slotProps={{ htmlInput: { 'data-testid': 'signup-phone' } }}
        />
        {plans.isPending ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <CircularProgress size={20} />
            <Typography color="text.secondary">{t('common.loading')}</Typography>
          </Stack>
        ) : plans.isError && !plansMissing ? (
          <Alert severity="warning" data-testid="plans-unavailable">
            {t('signup.plansError')}
          </Alert>
        ) : planList.length === 0 ? (
          <Alert severity="info" data-testid="plans-unavailable">
            {t('signup.noPlans')}
          </Alert>
        ) : (
          <Controller
            name="planId"
            control={control}
            render={({ field, fieldState }) => (
              <TextField
                select
                label={t('signup.plan')}
                required
                value={field.value ?? ''}
                onChange={(e) => field.onChange(e.target.value)}
                onBlur={field.onBlur}
                inputRef={field.ref}
                error={!!fieldState.error}
                helperText={fieldState.error ? t('signup.validation.required') : undefined}
                slotProps={{
                  select: {
                    // The full plan label wraps instead of being cut.
                    SelectDisplayProps: { 'data-testid': 'signup-plan', style: { whiteSpace: 'normal' } } as HTMLAttributes<HTMLDivElement>,
                  },
                }}
              >
                {planList.map((p) => (
                  <MenuItem key={p.id} value={String(p.id)} data-testid={`plan-option-${p.id}`}>
                    {planLabel(t, p)}
                  </MenuItem>
                ))}
              </TextField>
            )}
          />
        )}
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={isSubmitting || planList.length === 0}
          data-testid="signup-submit"
        >
          {isSubmitting ? <CircularProgress size={24} color="inherit" /> : t('signup.submit')}
        </Button>
        <Link component={RouterLink} to="/login" variant="body2" sx={{ textAlign: 'center' }} data-testid="login-link">
          {t('signup.login')}
        </Link>
      </Stack>
    </AuthFrame>
  );
}
