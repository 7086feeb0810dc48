import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Contact } from '@balcao/contracts';

/** The contact's extra-info fields, name over value (spec 2 §2). */
export function ExtraInfoList({ items }: { items: Contact['extraInfo'] }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="contact-extra-empty">
        {t('contactDrawer.extraInfo.empty')}
      </Typography>
    );
  }
  return (
    <Box component="dl" sx={{ m: 0, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid="contact-extra-list">
      {items.map((info) => (
        <Box key={info.id} sx={{ p: 1, borderRadius: 1, bgcolor: 'action.hover' }}>
          <Typography component="dt" variant="caption" color="text.secondary">
            {info.name}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
            {info.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
