import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import { useTranslation } from 'react-i18next';

/** The view a user gets on a page their profile may not open (spec 1 §6). */
export function NoPermission() {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="no-permission"
      sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 1, p: 4, textAlign: 'center' }}
    >
      <BlockIcon color="error" sx={{ fontSize: 56 }} />
      <Typography variant="h5">{t('noPermission.title')}</Typography>
      <Typography color="text.secondary">{t('noPermission.message')}</Typography>
    </Box>
  );
}
