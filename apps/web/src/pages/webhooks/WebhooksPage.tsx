import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import ListAltIcon from '@mui/icons-material/ListAlt';
import type { WebhookEndpoint } from '@balcao/contracts';
import { ListPage } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { DeliveriesDialog } from './DeliveriesDialog';
import { eventKey } from './events';
import { useDeleteWebhook, useWebhooks } from './queries';
import { WebhookDialog } from './WebhookDialog';
import './texts';

/** /webhooks (admins; docs/webhooks.md): the company's endpoints, their dialog, and each one's latest deliveries. */
export function WebhooksPage() {
  const { t } = useTranslation();
  const endpoints = useWebhooks();
  const remove = useDeleteWebhook();
  const [editing, setEditing] = useState<{ endpoint: WebhookEndpoint | null } | null>(null);
  const [viewing, setViewing] = useState<WebhookEndpoint | null>(null);
  const records = endpoints.data ?? [];

  return (
    <ListPage
      testId="webhooks-page"
      title={t('webhooks.title')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ endpoint: null })} data-testid="webhooks-add">
          {t('webhooks.add')}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {t('webhooks.intro')}
      </Typography>
      <ListTable
        testId="webhooks-table"
        state={{
          loading: endpoints.isPending,
          error: endpoints.isError && records.length === 0,
          empty: !endpoints.isPending && !endpoints.isError && records.length === 0,
          onRetry: () => void endpoints.refetch(),
        }}
        columns={[
          { label: t('webhooks.columns.url') },
          { label: t('webhooks.columns.events') },
          { label: t('webhooks.columns.status'), align: 'center', width: 110 },
          { label: t('webhooks.columns.actions'), align: 'center', width: 150 },
        ]}
      >
        {records.map((endpoint) => (
          <TableRow key={endpoint.id} hover data-testid={`webhook-row-${endpoint.id}`}>
            <TableCell sx={{ overflowWrap: 'anywhere' }}>{endpoint.url}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} sx={{ flexWrap: 'wrap', rowGap: 0.5 }}>
                {endpoint.events.map((e) => (
                  <Chip key={e} size="small" label={t(`webhooks.events.${eventKey(e)}`, { defaultValue: e })} />
                ))}
              </Stack>
            </TableCell>
            <TableCell align="center">{endpoint.enabled ? t('webhooks.status.on') : t('webhooks.status.off')}</TableCell>
            <RowActions
              id={endpoint.id}
              testIdPrefix="webhook"
              onEdit={() => setEditing({ endpoint })}
              extra={[{ label: t('webhooks.actions.deliveries'), icon: <ListAltIcon fontSize="small" />, onClick: () => setViewing(endpoint), testId: `webhook-deliveries-${endpoint.id}` }]}
              remove={{
                title: t('webhooks.confirmDelete.title'),
                message: t('webhooks.confirmDelete.message'),
                deletedText: t('webhooks.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <WebhookDialog endpoint={editing.endpoint} onClose={() => setEditing(null)} />}
      {viewing && <DeliveriesDialog endpoint={viewing} onClose={() => setViewing(null)} />}
    </ListPage>
  );
}
