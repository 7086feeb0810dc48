import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { alpha } from '@mui/material/styles';
import AddIcon from '@mui/icons-material/Add';
import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import PriceCheckIcon from '@mui/icons-material/PriceCheck';
import {
  INFINITE_SCROLL_THRESHOLD_PX,
  PLATFORM_COMPANY_ID,
  dueDateColour,
  localIsoDate,
  renewDueDate,
  type Company,
} from '@balcao/contracts';
import { companiesList, useDeleteCompany, useRenewCompany } from '../../api/companies';
import { usePagedList } from '../../api/pagedList';
import { usePlansLive } from '../../api/plans';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { nearBottom } from '../../components/form';
import { formatDate } from '../../components/format';
import { SearchField } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { RowActions } from '../../components/RowActions';
import { toast, toastError } from '../../components/toast';
import { ConfirmPaymentDialog } from '../financeiro/ConfirmPaymentDialog';
import { CompanyDialog } from './CompanyDialog';

/** Spec 1 §4: due in 1–5 days yellow, today or past red. */
const DUE_YELLOW = '#FFD600';

/** The super user's companies: search, infinite scroll, due dates coloured, renew, edit, delete. */
export function CompaniesManager() {
  const { t } = useTranslation();
  const list = usePagedList(companiesList);
  usePlansLive(true);
  const renew = useRenewCompany();
  const remove = useDeleteCompany();
  const [editing, setEditing] = useState<{ company: Company | null } | null>(null);
  const [renewing, setRenewing] = useState<Company | null>(null);
  const [confirmingPayment, setConfirmingPayment] = useState<Company | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const today = localIsoDate(new Date());

  useEffect(() => {
    const el = scroller.current;
    if (el && el.scrollHeight <= el.clientHeight) list.loadMore();
  });

  return (
    <Stack spacing={2} sx={{ minHeight: 0, flex: 1 }} data-testid="companies-manager">
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Chip size="small" label={t('companies.due.soon')} sx={{ bgcolor: alpha(DUE_YELLOW, 0.35) }} />
          <Chip size="small" label={t('companies.due.overdue')} sx={{ bgcolor: (th) => alpha(th.palette.error.main, 0.3) }} />
        </Stack>
        <Stack direction="row" spacing={1}>
          <SearchField value={list.search} onChange={list.setSearch} testId="companies-search" />
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setEditing({ company: null })} data-testid="companies-add">
            {t('companies.add')}
          </Button>
        </Stack>
      </Stack>
      <Paper
        ref={scroller}
        variant="outlined"
        sx={{ overflow: 'auto', maxHeight: 'calc(100vh - 260px)', minHeight: 200 }}
        onScroll={(e) => {
          if (nearBottom(e.currentTarget, INFINITE_SCROLL_THRESHOLD_PX)) list.loadMore();
        }}
      >
        <ListTable
          testId="companies-table"
          state={list.state}
          columns={[
            { label: t('companies.columns.name') },
            { label: t('companies.columns.email') },
            { label: t('companies.columns.plan') },
            { label: t('companies.columns.status'), align: 'center' },
            { label: t('companies.columns.recurrence'), align: 'center' },
            { label: t('companies.columns.dueDate'), align: 'center' },
            { label: t('companies.columns.createdAt'), align: 'center' },
            { label: t('companies.columns.actions'), align: 'center' },
          ]}
        >
          {list.records.map((c) => {
            const colour = dueDateColour(c.dueDate, today);
            const platform = c.id === PLATFORM_COMPANY_ID;
            return (
              <TableRow
                key={c.id}
                hover
                data-testid={`company-row-${c.id}`}
                data-due={colour ?? 'none'}
                sx={{
                  bgcolor: (th) =>
                    colour === 'red' ? alpha(th.palette.error.main, 0.25) : colour === 'yellow' ? alpha(DUE_YELLOW, 0.35) : undefined,
                }}
              >
                <TableCell>{c.name}</TableCell>
                <TableCell>{c.email}</TableCell>
                <TableCell>{c.plan?.name ?? '—'}</TableCell>
                <TableCell align="center">{c.status ? t('companies.dialog.yes') : t('companies.dialog.no')}</TableCell>
                <TableCell align="center">{t(`companies.recurrences.${c.recurrence}`)}</TableCell>
                <TableCell align="center" data-testid={`company-due-${c.id}`}>
                  {formatDate(c.dueDate)}
                </TableCell>
                <TableCell align="center">{formatDate(c.createdAt)}</TableCell>
                <RowActions
                  id={c.id}
                  testIdPrefix="company"
                  onEdit={() => setEditing({ company: c })}
                  extra={
                    platform
                      ? []
                      : [
                          { label: t('companies.renew.action'), icon: <EventRepeatIcon fontSize="small" />, onClick: () => setRenewing(c), testId: `company-renew-${c.id}` },
                          {
                            label: t('financeiro.confirm.action'),
                            icon: <PriceCheckIcon fontSize="small" />,
                            onClick: () => setConfirmingPayment(c),
                            testId: `company-invoices-${c.id}`,
                          },
                        ]
                  }
                  remove={
                    platform
                      ? undefined
                      : {
                          title: t('companies.confirmDelete.title', { name: c.name }),
                          message: t('companies.confirmDelete.message'),
                          deletedText: t('companies.toasts.deleted'),
                          run: (id) => remove.mutateAsync(id),
                        }
                  }
                />
              </TableRow>
            );
          })}
        </ListTable>
      </Paper>
      <Box>
        {editing && <CompanyDialog company={editing.company} onClose={() => setEditing(null)} />}
        {confirmingPayment && <ConfirmPaymentDialog company={confirmingPayment} onClose={() => setConfirmingPayment(null)} />}
        <ConfirmDialog
          open={renewing !== null}
          title={t('companies.renew.title', { name: renewing?.name ?? '' })}
          confirmLabel={t('companies.renew.confirm')}
          onClose={() => setRenewing(null)}
          onConfirm={async () => {
            if (!renewing) return;
            try {
              const company = await renew.mutateAsync(renewing.id);
              toast.success(t('companies.toasts.renewed', { date: formatDate(company.dueDate) }));
            } catch (err) {
              toastError(err);
            }
          }}
        >
          {renewing &&
            t('companies.renew.message', {
              from: formatDate(renewing.dueDate) || '—',
              to: formatDate(renewDueDate(renewing.dueDate, renewing.recurrence, today)),
              recurrence: t(`companies.recurrences.${renewing.recurrence}`),
            })}
        </ConfirmDialog>
      </Box>
    </Stack>
  );
}
