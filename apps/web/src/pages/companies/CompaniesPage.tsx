import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CompaniesManager } from './CompaniesManager';

/** /companies (super user only; the route guard denies others). */
export function CompaniesPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, display: 'flex', flexDirection: 'column', gap: 2, minHeight: 0, flex: 1 }}>
      <Typography variant="h5" component="h1" color="primary" data-testid="page-title" sx={{ fontWeight: 600 }}>
        {t('companies.title')}
      </Typography>
      <CompaniesManager />
    </Box>
  );
}
