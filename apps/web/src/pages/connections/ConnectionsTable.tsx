import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import type { Connection, ImportProgress } from '../../api/whatsapp';
import { TableStateRow } from '../../components/ListStates';
import { NoQueueMark } from './NoQueueWarning';
import { ChannelIcon, DefaultMark, LastUpdate, SessionCell, StatusIcon, type SessionActions } from './ConnectionCells';

export interface RowActions {
  onEdit: (c: Connection) => void;
  onDelete: (c: Connection) => void;
}

interface Props {
  connections: Connection[];
  loading: boolean;
  error: boolean;
  onRetry?: () => void;
  /** Null: no session buttons (read-only overview). */
  sessionActions: SessionActions | null;
  rowActions: RowActions | null;
  progress?: Record<number, ImportProgress>;
  busyIds?: ReadonlySet<number>;
}

/** Spec 1 §2: channel, name, number, status, session, last update, default and actions. */
export function ConnectionsTable({ connections, loading, error, onRetry, sessionActions, rowActions, progress = {}, busyIds }: Props) {
  const { t } = useTranslation();
  const columns = rowActions ? 8 : 7;
  return (
    <Table size="small" stickyHeader data-testid="connections-table">
      <TableHead>
        <TableRow>
          <TableCell align="center">{t('connections.table.channel')}</TableCell>
          <TableCell>{t('connections.table.name')}</TableCell>
          <TableCell>{t('connections.table.number')}</TableCell>
          <TableCell align="center">{t('connections.table.status')}</TableCell>
          <TableCell>{t('connections.table.session')}</TableCell>
          <TableCell align="center">{t('connections.table.lastUpdate')}</TableCell>
          <TableCell align="center">{t('connections.table.default')}</TableCell>
          {rowActions && <TableCell align="center">{t('connections.table.actions')}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        <TableStateRow colSpan={columns} loading={loading} error={error} empty={connections.length === 0} onRetry={onRetry} />
        {!loading &&
          !error &&
          connections.map((c) => (
            <TableRow key={c.id} hover data-testid={`connection-row-${c.id}`} data-name={c.name}>
              <TableCell align="center">
                <ChannelIcon channel={c.channel} />
              </TableCell>
              <TableCell>
                <span data-testid="connection-name">{c.name}</span>
                {c.queues.length === 0 && <NoQueueMark />}
              </TableCell>
              <TableCell data-testid="connection-number">{c.number}</TableCell>
              <TableCell align="center">
                <StatusIcon status={c.status} />
              </TableCell>
              <TableCell>
                <SessionCell connection={c} progress={progress[c.id]} actions={sessionActions} busy={busyIds?.has(c.id) ?? false} />
              </TableCell>
              <TableCell align="center" sx={{ whiteSpace: 'nowrap' }} data-testid="connection-updated">
                <LastUpdate value={c.updatedAt} />
              </TableCell>
              <TableCell align="center">
                <DefaultMark isDefault={c.isDefault} />
              </TableCell>
              {rowActions && (
                <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('connections.buttons.edit')}>
                    <IconButton size="small" onClick={() => rowActions.onEdit(c)} data-testid="connection-edit">
                      <EditIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  <Tooltip title={t('connections.buttons.delete')}>
                    <IconButton size="small" onClick={() => rowActions.onDelete(c)} data-testid="connection-delete">
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  </Tooltip>
                </TableCell>
              )}
            </TableRow>
          ))}
      </TableBody>
    </Table>
  );
}
