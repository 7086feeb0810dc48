import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { PageShell } from '../../components/PageShell';

/** A screen that a later issue builds: its translated title, an honest note and nothing pretended. */
export function TitledPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <PageShell title={t(`pages.${titleKey}`)}>
      <Typography color="text.secondary" data-testid="not-available">
        {t('common.notAvailable')}
      </Typography>
    </PageShell>
  );
}
