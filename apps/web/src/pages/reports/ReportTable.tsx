import './texts';
import { useState } from 'react';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import HistoryIcon from '@mui/icons-material/History';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { ReportRow } from '@balcao/contracts';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../components/format';
import { ListTable, type ListTableState } from '../../components/ListTable';
import { TicketLogDialog } from '../tickets/conversation/TicketLogDialog';

/** Spec 2 §2: contact name and last message cut at 20 characters plus an ellipsis, the whole text in a tooltip. */
const CUT = 20;
function Cut({ text }: { text: string }) {
  if (text.length <= CUT) return <>{text}</>;
  return (
    <Tooltip title={text}>
      <span>{`${text.slice(0, CUT)}...`}</span>
    </Tooltip>
  );
}

const dateTime = (iso: string | null) => (iso ? `${formatDate(iso)} ${new Date(iso).toTimeString().slice(0, 5)}` : '');

const COLUMNS = ['id', 'whatsapp', 'contact', 'user', 'queue', 'status', 'lastMessage', 'createdAt', 'closedAt', 'supportTime', 'nps', 'actions'] as const;

/** The report's rows, with the ticket-log dialog and the open-ticket action. */
export function ReportTable({ rows, state }: { rows: ReportRow[]; state: ListTableState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [logsOf, setLogsOf] = useState<number | null>(null);
  return (
    <>
      <ListTable testId="report-table" columns={COLUMNS.map((c) => ({ label: t(`reports.columns.${c}`), align: c === 'actions' ? 'center' : 'left' }))} state={state}>
        {rows.map((r) => (
          <TableRow key={r.id} data-testid={`report-row-${r.id}`}>
            <TableCell>{r.id}</TableCell>
            <TableCell>{r.whatsappName ?? ''}</TableCell>
            <TableCell>
              <Cut text={r.contactName} />
            </TableCell>
            <TableCell>{r.userName ?? ''}</TableCell>
            <TableCell>{r.queueName ?? t('reports.noQueue')}</TableCell>
            <TableCell>{t(`reports.statuses.${r.status}`)}</TableCell>
            <TableCell>
              <Cut text={r.lastMessage} />
            </TableCell>
            <TableCell>{dateTime(r.createdAt)}</TableCell>
            <TableCell>{dateTime(r.closedAt)}</TableCell>
            <TableCell>{r.supportTime ?? ''}</TableCell>
            <TableCell>{r.NPS ?? ''}</TableCell>
            <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
              <IconButton size="small" aria-label={t('reports.actions.logs')} onClick={() => setLogsOf(r.id)} data-testid={`report-logs-${r.id}`}>
                <HistoryIcon fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label={t('reports.actions.open')} onClick={() => navigate(`/tickets/${r.uuid}`)} data-testid={`report-open-${r.id}`}>
                <OpenInNewIcon fontSize="small" />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      {logsOf !== null && <TicketLogDialog ticketId={logsOf} open onClose={() => setLogsOf(null)} />}
    </>
  );
}
