import './texts';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import type { DashboardAttendant } from '@balcao/contracts';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../components/ListTable';
import { formatMinutes } from './Indicators';

/** 'Atendentes': name, score, rated calls, total calls, average wait, average service, online/offline. */
export function AttendantsTable({ rows, loading }: { rows: DashboardAttendant[]; loading: boolean }) {
  const { t } = useTranslation();
  const k = (key: string) => t(`dashboard.attendants.${key}`);
  const columns = ['name', 'rating', 'countRating', 'tickets', 'waitTime', 'supportTime', 'status'].map((key) => ({
    label: k(key),
    align: key === 'name' ? ('left' as const) : ('center' as const),
  }));
  return (
    <ListTable testId="attendants-table" columns={columns} state={{ loading, error: false, empty: !loading && rows.length === 0 }}>
      {rows.map((a) => (
        <TableRow key={a.id} data-testid={`attendant-${a.id}`}>
          <TableCell>{a.name}</TableCell>
          <TableCell align="center">{a.rating ?? '—'}</TableCell>
          <TableCell align="center">{a.countRating}</TableCell>
          <TableCell align="center">{a.tickets}</TableCell>
          <TableCell align="center">{formatMinutes(a.avgWaitTime)}</TableCell>
          <TableCell align="center">{formatMinutes(a.avgSupportTime)}</TableCell>
          <TableCell align="center">
            <Chip size="small" color={a.online ? 'success' : 'default'} label={a.online ? k('online') : k('offline')} />
          </TableCell>
        </TableRow>
      ))}
    </ListTable>
  );
}
