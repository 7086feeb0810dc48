import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';

/** The 403 page of the dashboard (spec 2 §2): 'Oops! Acesso Negado!' with Voltar to /tickets. */
export function Forbidden() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Box
      data-testid="forbidden"
      sx={{ flex: 1, display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, p: 4, textAlign: 'center' }}
    >
      <Typography variant="h1" color="primary" sx={{ fontWeight: 700 }}>
        403
      </Typography>
      <Typography variant="h5">{t('forbidden.title')}</Typography>
      <Typography color="text.secondary">{t('forbidden.message')}</Typography>
      <Button variant="contained" onClick={() => navigate('/tickets')}>
        {t('forbidden.back')}
      </Button>
    </Box>
  );
}
