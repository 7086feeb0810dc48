import { InvoicesTable } from './InvoicesTable';

/** /financeiro (admins): the company's invoices and their checkout (spec 3 §2). */
export function FinanceiroPage() {
  return <InvoicesTable />;
}
