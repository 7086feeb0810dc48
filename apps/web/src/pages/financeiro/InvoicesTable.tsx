import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { INVOICE_PAID, type Invoice } from '@balcao/contracts';
import { invoicesList, usePaymentConfirmed } from '../../api/billing';
import { usePagedList } from '../../api/pagedList';
import { formatAmount, formatDate } from '../../components/format';
import { ListPage } from '../../components/ListPage';
import { ListTable } from '../../components/ListTable';
import { toast } from '../../components/toast';
import { CheckoutDialog } from './CheckoutDialog';

/** Spec 3 §9: the app goes to / 4 s after a confirmed payment. */
const HOME_AFTER_PAYMENT_MS = 4000;

/** The invoices table of /financeiro and /financeiro-aberto: Pay opens the invoice's link, or the checkout. */
export function InvoicesTable({ header }: { header?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = usePagedList(invoicesList);
  const [paying, setPaying] = useState<Invoice | null>(null);
  usePaymentConfirmed((payment) => {
    toast.success(t('financeiro.renewed', { date: formatDate(payment.company.dueDate) }));
    setTimeout(() => void navigate('/'), HOME_AFTER_PAYMENT_MS);
  });
  const pay = (invoice: Invoice) => {
    if (invoice.linkInvoice) window.open(invoice.linkInvoice, '_blank', 'noopener');
    else setPaying(invoice);
  };

  return (
    <ListPage testId="invoices-page" title={t('financeiro.title')} onNearBottom={list.loadMore}>
      {header}
      <ListTable
        testId="invoices-table"
        state={{ ...list.state, emptyText: t('financeiro.empty') }}
        columns={[
          { label: t('financeiro.columns.detail') },
          { label: t('financeiro.columns.users'), align: 'center' },
          { label: t('financeiro.columns.connections'), align: 'center' },
          { label: t('financeiro.columns.dueDate'), align: 'center' },
          { label: t('financeiro.columns.value'), align: 'center' },
          { label: t('financeiro.columns.action'), align: 'center' },
        ]}
      >
        {list.records.map((invoice) => (
          <TableRow key={invoice.id} hover data-testid={`invoice-row-${invoice.id}`}>
            <TableCell>{invoice.detail}</TableCell>
            <TableCell align="center">{invoice.users}</TableCell>
            <TableCell align="center">{invoice.connections}</TableCell>
            <TableCell align="center">{formatDate(invoice.dueDate)}</TableCell>
            <TableCell align="center">R$ {formatAmount(invoice.value)}</TableCell>
            <TableCell align="center">
              {invoice.status === INVOICE_PAID ? (
                <Chip color="success" size="small" label={t('financeiro.paid')} data-testid="invoice-paid" />
              ) : (
                <Button variant="contained" size="small" onClick={() => pay(invoice)} data-testid="invoice-pay">
                  {t('financeiro.pay')}
                </Button>
              )}
            </TableCell>
          </TableRow>
        ))}
      </ListTable>
      {paying && <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />}
    </ListPage>
  );
}
