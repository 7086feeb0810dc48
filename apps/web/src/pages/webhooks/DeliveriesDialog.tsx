import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { WebhookDelivery, WebhookEndpoint } from '@balcao/contracts';
import { ClosableDialogTitle } from '../../components/ClosableDialogTitle';
import { ListTable } from '../../components/ListTable';
import { formatDateTime } from '../../components/format';
import { toast, toastError } from '../../components/toast';
import { eventKey } from './events';
import { useDeliveries, useTestWebhook } from './queries';
import './texts';

const STATUS_COLORS = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

function ResponseCell({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  return (
    <TableCell sx={{ maxWidth: 260 }}>
      {delivery.lastStatusCode ?? '—'}
      {delivery.lastError && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
          {delivery.lastError}
        </Typography>
      )}
      {delivery.nextAttemptAt && (
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {t('webhooks.deliveries.next', { date: formatDateTime(delivery.nextAttemptAt) })}
        </Typography>
      )}
    </TableCell>
  );
}

/** An endpoint's latest deliveries, newest first, re-read every few seconds while open; "Send test" queues a ping. */
export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation();
  const deliveries = useDeliveries(endpoint.id);
  const test = useTestWebhook();
  const records = deliveries.data?.records ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" data-testid="webhook-deliveries">
      <ClosableDialogTitle closeLabel={t('webhooks.deliveries.close')} onClose={onClose}>
        {t('webhooks.deliveries.title')}
      </ClosableDialogTitle>
      <DialogContent dividers>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
          {endpoint.url}
        </Typography>
        <ListTable
          testId="webhook-deliveries-table"
          state={{
            loading: deliveries.isPending,
            error: deliveries.isError && records.length === 0,
            empty: !deliveries.isPending && records.length === 0,
            onRetry: () => void deliveries.refetch(),
            emptyText: t('webhooks.deliveries.empty'),
          }}
          columns={[
            { label: t('webhooks.deliveries.columns.event') },
            { label: t('webhooks.deliveries.columns.status') },
            { label: t('webhooks.deliveries.columns.attempts'), align: 'center' },
            { label: t('webhooks.deliveries.columns.response') },
            { label: t('webhooks.deliveries.columns.date') },
          ]}
        >
          {records.map((d) => (
            <TableRow key={d.id} data-testid={`webhook-delivery-${d.id}`} data-status={d.status}>
              <TableCell>{t(`webhooks.events.${eventKey(d.event)}`, { defaultValue: d.event })}</TableCell>
              <TableCell>
                <Chip size="small" variant="outlined" color={STATUS_COLORS[d.status]} label={t(`webhooks.deliveries.status.${d.status}`)} />
              </TableCell>
              <TableCell align="center">{d.attempts}</TableCell>
              <ResponseCell delivery={d} />
              <TableCell>{formatDateTime(d.createdAt)}</TableCell>
            </TableRow>
          ))}
        </ListTable>
      </DialogContent>
      <DialogActions>
        <Button
          disabled={test.isPending}
          data-testid="webhook-test"
          onClick={() => test.mutate(endpoint.id, { onSuccess: () => toast.success(t('webhooks.toasts.tested')), onError: toastError })}
        >
          {t('webhooks.actions.test')}
        </Button>
        <Button onClick={onClose}>{t('webhooks.deliveries.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
