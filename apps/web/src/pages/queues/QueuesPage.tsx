import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import type { Queue } from '@balcao/contracts';
import { useDeleteQueue, useQueues, useQueuesLive } from '../../api/queues';
import { useUser } from '../../api/session';
import { useCompanySettings, useSettingsLive } from '../../api/settings';
import { ListPage } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { QueueDialog } from './QueueDialog';

/** /queues (admin): the company's queues with colour, name and order (spec 3 §2). */
export function QueuesPage() {
  const { t } = useTranslation();
  const user = useUser();
  const queues = useQueues();
  useQueuesLive();
  const settings = useCompanySettings(user.companyId);
  useSettingsLive(user.companyId);
  const remove = useDeleteQueue();
  const [editing, setEditing] = useState<{ queue: Queue | null } | null>(null);
  const list = queues.data ?? [];
  const scheduleType = settings.data?.scheduleType ?? user.company.companieSettings.scheduleType;

  return (
    <ListPage
      testId="queues-page"
      title={t('queues.title')}
      actions={
        <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ queue: null })} data-testid="queues-add">
          {t('queues.add')}
        </Button>
      }
    >
      <ListTable
        testId="queues-table"
        state={{ loading: queues.isPending, error: queues.isError, empty: queues.isSuccess && list.length === 0, onRetry: () => void queues.refetch() }}
        columns={[
          { label: t('queues.columns.color'), align: 'center', width: 80 },
          { label: t('queues.columns.name') },
          { label: t('queues.columns.order'), align: 'center', width: 100 },
          { label: t('queues.columns.greeting') },
          { label: t('queues.columns.actions'), align: 'center', width: 120 },
        ]}
      >
        {list.map((queue) => (
          <TableRow key={queue.id} hover data-testid={`queue-row-${queue.id}`}>
            <TableCell align="center">
              <Tooltip title={queue.color}>
                <Box
                  data-testid="queue-color-swatch"
                  role="img"
                  data-color={queue.color}
                  sx={{ width: 60, height: 20, mx: 'auto', borderRadius: 1, bgcolor: queue.color, border: 1, borderColor: 'divider' }}
                />
              </Tooltip>
            </TableCell>
            <TableCell>{queue.name}</TableCell>
            <TableCell align="center">{queue.orderQueue ?? ''}</TableCell>
            <TableCell>
              <Typography variant="body2" noWrap sx={{ maxWidth: 360 }} color="text.secondary">
                {queue.greetingMessage}
              </Typography>
            </TableCell>
            <RowActions
              id={queue.id}
              testIdPrefix="queue"
              onEdit={() => setEditing({ queue })}
              remove={{
                title: t('queues.confirmDelete.title', { name: queue.name }),
                message: t('queues.confirmDelete.message'),
                deletedText: t('queues.toasts.deleted'),
                run: (id) => remove.mutateAsync(id),
              }}
            />
          </TableRow>
        ))}
      </ListTable>
      {editing && <QueueDialog queue={editing.queue} scheduleType={scheduleType} onClose={() => setEditing(null)} />}
    </ListPage>
  );
}
