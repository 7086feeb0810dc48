import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { toast } from '../../components/toast';

/** The ten recovery codes, shown once right after enrolment. */
export function RecoveryCodesView({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const copy = async () => {
    await navigator.clipboard.writeText(codes.join('\n'));
    toast.success(t('twoFactor.copied'));
  };
  return (
    <Stack spacing={1.5} data-testid="recovery-codes">
      <Typography variant="subtitle2" component="h3">
        {t('twoFactor.recoveryTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('twoFactor.recoveryHint')}
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 0.5, fontFamily: 'monospace' }}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
        <Button onClick={() => void copy()}>{t('twoFactor.copy')}</Button>
        <Button variant="contained" onClick={onDone} data-testid="recovery-codes-done">
          {t('twoFactor.done')}
        </Button>
      </Stack>
    </Stack>
  );
}
