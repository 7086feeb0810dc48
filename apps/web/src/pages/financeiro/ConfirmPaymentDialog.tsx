import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { INVOICE_PAID, type Company } from '@balcao/contracts';
import { useCompanyInvoices, useConfirmPayment } from '../../api/billing';
import { formatAmount, formatDate } from '../../components/format';
import { toast, toastError } from '../../components/toast';

/** /companies (super user): a company's invoices; an open one can be confirmed as paid by hand (static PIX). */
export function ConfirmPaymentDialog({ company, onClose }: { company: Company; onClose: () => void }) {
  const { t } = useTranslation();
  const invoices = useCompanyInvoices(company.id);
  const confirm = useConfirmPayment(company.id);
  const run = async (invoiceId: number) => {
    try {
      await confirm.mutateAsync(invoiceId);
      toast.success(t('financeiro.confirm.done'));
    } catch (err) {
      toastError(err);
    }
  };
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="confirm-payment-title" data-testid="confirm-payment-dialog">
      <DialogTitle id="confirm-payment-title">{t('financeiro.confirm.title', { name: company.name })}</DialogTitle>
      <DialogContent>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('financeiro.columns.detail')}</TableCell>
              <TableCell align="center">{t('financeiro.columns.dueDate')}</TableCell>
              <TableCell align="center">{t('financeiro.columns.value')}</TableCell>
              <TableCell align="center">{t('financeiro.columns.action')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(invoices.data?.invoices ?? []).map((invoice) => (
              <TableRow key={invoice.id} data-testid={`confirm-invoice-${invoice.id}`}>
                <TableCell>{invoice.detail}</TableCell>
                <TableCell align="center">{formatDate(invoice.dueDate)}</TableCell>
                <TableCell align="center">R$ {formatAmount(invoice.value)}</TableCell>
                <TableCell align="center">
                  {invoice.status === INVOICE_PAID ? (
                    <Chip color="success" size="small" label={t('financeiro.paid')} />
                  ) : (
                    <Button size="small" variant="contained" disabled={confirm.isPending} onClick={() => void run(invoice.id)}>
                      {t('financeiro.confirm.action')}
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
            {invoices.isSuccess && invoices.data.invoices.length === 0 && (
              <TableRow>
                <TableCell colSpan={4}>{t('financeiro.empty')}</TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('financeiro.checkout.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
