import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import type { QueueIntegration } from '@balcao/contracts';
import { usePagedList } from '../../api/pagedList';
import { queueIntegrationPages, useDeleteQueueIntegration } from '../../api/queueIntegrations';
import { ListPage, SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { IntegrationLogo } from './IntegrationLogo';
import { QueueIntegrationDialog } from './QueueIntegrationDialog';
import './texts';

/** /queue-integration (spec 3 §2 "Integrations page"): title with count, search, infinite scroll, logo by type, the per-type dialog. */
export function QueueIntegrationsPage() {
  const { t } = useTranslation();
  const list = usePagedList(queueIntegrationPages);
  const remove = useDeleteQueueIntegration();
  const [editing, setEditing] = useState<{ record: QueueIntegration | null } | null>(null);

  return (
    <ListPage
      testId="queue-integrations-page"
      title={t('queueIntegrations.title', { count: list.records.length })}
      onNearBottom={list.loadMore}
      actions={
        <>
          <SearchField value={list.search} onChange={list.setSearch} testId="queue-integrations-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ record: null })} data-testid="queue-integrations-add">
            {t('queueIntegrations.add')}
          </Button>
        </>
      }
    >
      <ListTable
        testId="queue-integrations-table"
        state={list.state}
        columns={[
          { label: t('queueIntegrations.columns.logo'), width: 80 },
          { label: t('queueIntegrations.columns.id'), align: 'center', width: 80 },
          { label: t('queueIntegrations.columns.name') },
          { label: t('queueIntegrations.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.records.map((record) => (
          <TableRow key={record.id} hover data-testid={`queue-integration-row-${record.id}`}>
            <TableCell>
              <IntegrationLogo type={record.type} label={t(`queueIntegrations.types.${record.type}`)} />
            </TableCell>
            <TableCell align="center">{record.id}</TableCell>
            <TableCell>{record.name}</TableCell>
            <RowActions
              id={record.id}
              testIdPrefix="queue-integration"
              onEdit={() => setEditing({ record })}
              remove={{
                title: t('queueIntegrations.confirmDelete.title', { name: record.name }),
                message: t('queueIntegrations.confirmDelete.message'),
                deletedText: t('queueIntegrations.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <QueueIntegrationDialog record={editing.record} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
