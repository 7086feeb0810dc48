import { useTranslation } from 'react-i18next';
import Chip from '@mui/material/Chip';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';

/**
 * Admins see tickets without a queue that attendants never get (docs/connections-web.md
 * "Connections without a queue"): the row says so instead of a plain "Sem fila".
 */
export function QueuelessFlag() {
  const { t } = useTranslation();
  return (
    <Chip
      size="small"
      color="warning"
      icon={<WarningAmberIcon />}
      label={t('connectionSetup.noQueue.short')}
      title={t('connectionSetup.noQueue.ticket')}
      aria-label={t('connectionSetup.noQueue.ticket')}
      data-testid="ticket-no-queue"
      sx={{ height: 18, fontSize: 11, '& .MuiChip-icon': { fontSize: 14 } }}
    />
  );
}
