import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import EditIcon from '@mui/icons-material/Edit';
import { request } from '../../api/http';
import { useUser } from '../../api/session';
import { whatsappAllKey, whatsappApi } from '../../api/whatsapp';
import { ListPage } from '../../components/ListPage';
import { TableStateRow } from '../../components/ListStates';
import { CompanyConnectionsDialog } from './CompanyConnectionsDialog';
import { countByCompany } from './counts';

interface CompanyRef {
  id: number;
  name: string;
}

/** /allConnections (spec 1 §2): connected, disconnected and total connections per company, with a totals row. */
export function AllConnectionsPage() {
  const { t } = useTranslation();
  const user = useUser();
  const canEdit = user.profile === 'admin';
  const [open, setOpen] = useState<CompanyRef | null>(null);
  const companies = useQuery({
    queryKey: ['companies', 'list'],
    queryFn: () => request<CompanyRef[]>('/companies/list'),
    retry: false,
  });
  const connections = useQuery({ queryKey: whatsappAllKey, queryFn: whatsappApi.all, retry: false });
  const { rows, totals } = useMemo(
    () => countByCompany(companies.data ?? [], connections.data ?? []),
    [companies.data, connections.data],
  );
  const loading = companies.isPending || connections.isPending;
  const error = companies.isError || connections.isError;
  const columns = canEdit ? 5 : 4;

  return (
    <ListPage title={t('allConnections.title')} testId="all-connections-page">
      <Table size="small" stickyHeader data-testid="all-connections-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('allConnections.client')}</TableCell>
            <TableCell align="center">{t('allConnections.connected')}</TableCell>
            <TableCell align="center">{t('allConnections.disconnected')}</TableCell>
            <TableCell align="center">{t('allConnections.total')}</TableCell>
            {canEdit && <TableCell align="center">{t('allConnections.actions')}</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          <TableStateRow
            colSpan={columns}
            loading={loading}
            error={error}
            empty={rows.length === 0}
            onRetry={() => {
              void companies.refetch();
              void connections.refetch();
            }}
          />
          {!loading &&
            !error &&
            rows.map((r) => (
              <TableRow key={r.companyId} hover data-testid={`all-connections-row-${r.companyId}`}>
                <TableCell>{r.name}</TableCell>
                <TableCell align="center" sx={{ color: 'success.main', fontWeight: 600 }} data-testid="count-connected">
                  {r.connected}
                </TableCell>
                <TableCell align="center" sx={{ color: r.disconnected ? 'error.main' : undefined }} data-testid="count-disconnected">
                  {r.disconnected}
                </TableCell>
                <TableCell align="center" data-testid="count-total">
                  {r.total}
                </TableCell>
                {canEdit && (
                  <TableCell align="center">
                    <Tooltip title={t('allConnections.edit')}>
                      <IconButton size="small" onClick={() => setOpen({ id: r.companyId, name: r.name })} data-testid="all-connections-edit">
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            ))}
          {!loading && !error && rows.length > 0 && (
            <TableRow data-testid="all-connections-totals" sx={{ '& td': { fontWeight: 700 } }}>
              <TableCell>{t('allConnections.totals')}</TableCell>
              <TableCell align="center">{totals.connected}</TableCell>
              <TableCell align="center">{totals.disconnected}</TableCell>
              <TableCell align="center">{totals.total}</TableCell>
              {canEdit && <TableCell />}
            </TableRow>
          )}
        </TableBody>
      </Table>
      {open && <CompanyConnectionsDialog company={open} onClose={() => setOpen(null)} />}
    </ListPage>
  );
}
