import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';

/**
 * A connection without queues gives tickets without a queue, which only admins and `allTicket`
 * users see (docs/connections-web.md "Connections without a queue"): say so where it is set up.
 */
export function NoQueueAlert() {
  const { t } = useTranslation();
  return (
    <Alert severity="warning" data-testid="no-queue-warning">
      {t('connectionSetup.noQueue.dialog')}
    </Alert>
  );
}

/** The table's mark beside the name of a connection without queues. */
export function NoQueueMark() {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('connectionSetup.noQueue.table')}>
      <Chip
        size="small"
        color="warning"
        variant="outlined"
        icon={<WarningAmberIcon />}
        label={t('connectionSetup.noQueue.short')}
        aria-label={t('connectionSetup.noQueue.table')}
        data-testid="connection-no-queue"
        // The outline and icon say "warning"; the label keeps the body colour (warning orange on white is under AA contrast).
        sx={{ ml: 1, '& .MuiChip-label': { color: 'text.primary' } }}
      />
    </Tooltip>
  );
}
