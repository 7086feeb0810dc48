import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import type { Queue } from '@balcao/contracts';
import { useDeleteQueue, useQueues, useQueuesLive } from '../../api/queues';
import { useUser } from '../../api/session';
import { useCompanySettings, useSettingsLive } from '../../api/settings';
import { ConfirmDeleteDialog } from '../../components/ConfirmDeleteDialog';
import { ListPage } from '../../components/ListPage';
import { TableStateRow } from '../../components/ListStates';
import { QueueDialog } from './QueueDialog';

const COLUMNS = 5;

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
  const [deleting, setDeleting] = useState<Queue | null>(null);
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
      <Table size="small" stickyHeader data-testid="queues-table">
        <TableHead>
          <TableRow>
            <TableCell align="center" sx={{ width: 80 }}>
              {t('queues.columns.color')}
            </TableCell>
            <TableCell>{t('queues.columns.name')}</TableCell>
            <TableCell align="center" sx={{ width: 100 }}>
              {t('queues.columns.order')}
            </TableCell>
            <TableCell>{t('queues.columns.greeting')}</TableCell>
            <TableCell align="center" sx={{ width: 120 }}>
              {t('queues.columns.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
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
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                <Tooltip title={t('ui.actions.edit')}>
                  <IconButton size="small" aria-label={t('ui.actions.edit')} onClick={() => setEditing({ queue })} data-testid={`queue-edit-${queue.id}`}>
                    <EditIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('ui.actions.delete')}>
                  <IconButton size="small" aria-label={t('ui.actions.delete')} onClick={() => setDeleting(queue)} data-testid={`queue-delete-${queue.id}`}>
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
          <TableStateRow
            colSpan={COLUMNS}
            loading={queues.isPending}
            error={queues.isError}
            empty={queues.isSuccess && list.length === 0}
            onRetry={() => void queues.refetch()}
          />
        </TableBody>
      </Table>
      {editing && <QueueDialog queue={editing.queue} scheduleType={scheduleType} onClose={() => setEditing(null)} />}
      <ConfirmDeleteDialog
        record={deleting}
        title={t('queues.confirmDelete.title', { name: deleting?.name ?? '' })}
        deletedText={t('queues.toasts.deleted')}
        remove={(id) => remove.mutateAsync(id)}
        onClose={() => setDeleting(null)}
      >
        {t('queues.confirmDelete.message')}
      </ConfirmDeleteDialog>
    </ListPage>
  );
}
