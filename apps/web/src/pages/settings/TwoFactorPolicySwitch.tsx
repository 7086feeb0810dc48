import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import { request } from '../../api/http';
import { twoFactorKey, useTwoFactorStatus } from '../../api/twoFactor';
import { toastError } from '../../components/toast';

/** The company rule: every user must sign in with two-factor login (those without it enrol at their next login). */
export function TwoFactorPolicySwitch() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const change = async (required: boolean) => {
    try {
      await request('/auth/2fa/policy', { method: 'PUT', body: { required } });
      await queryClient.invalidateQueries({ queryKey: twoFactorKey });
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <FormControlLabel
      control={
        <Switch
          checked={status.data?.required ?? false}
          disabled={!status.data}
          onChange={(e) => void change(e.target.checked)}
          slotProps={{ input: { 'data-testid': 'require-two-factor' } as object }}
        />
      }
      label={t('settings.audit.requireTwoFactor')}
    />
  );
}
