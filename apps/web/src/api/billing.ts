import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Invoice, InvoicesPage, PaymentEventPayload, SubscriptionBody, SubscriptionResponse } from '@balcao/contracts';
import { refreshToken, request } from './http';
import { useCompanyEvent } from './liveEvents';
import { storeRecordChange, type PagedList } from './pagedList';

/** `GET /invoices`, 20 per page; a confirmed payment (`company-{id}-payment`) marks its invoice paid in place. */
export const invoicesList: PagedList<InvoicesPage, Invoice, PaymentEventPayload> = {
  key: ['invoices', 'page'],
  path: (search, page) => `/invoices?searchParam=${encodeURIComponent(search)}&pageNumber=${page}`,
  records: { get: (p) => p.invoices, set: (p, invoices) => ({ ...p, invoices }) },
  matches: (invoice, search) => invoice.detail.toLowerCase().includes(search) || invoice.status.toLowerCase().includes(search),
  event: 'payment',
  change: (payload) => ({ kind: 'upsert', record: payload.invoice }),
};

/** `POST /subscription`: the checkout; the reply holds the PIX BR Code and the amount the server computed. */
export function useSubscribe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubscriptionBody) => request<SubscriptionResponse>('/subscription', { method: 'POST', body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: invoicesList.key }),
  });
}

/**
 * A confirmed payment of this company: the session takes the new due date (a refresh returns the
 * user as the server now has it), then `onPaid` runs with the new due date.
 */
export function usePaymentConfirmed(onPaid: (payload: PaymentEventPayload) => void): void {
  const queryClient = useQueryClient();
  useCompanyEvent<PaymentEventPayload>('payment', (payload) => {
    if (payload?.action !== 'CONCLUIDA') return;
    storeRecordChange(queryClient, invoicesList, invoicesList.change(payload));
    void refreshToken().finally(() => onPaid(payload));
  });
}

/** The super user's view of one company's invoices (first page), to confirm a static-PIX payment by hand. */
export function useCompanyInvoices(companyId: number) {
  return useQuery({
    queryKey: ['invoices', 'company', companyId],
    queryFn: () => request<InvoicesPage>(`/companies/${companyId}/invoices`),
  });
}

/** `POST /invoices/{id}/confirm` (super user): the payment arrived; the company renews as if the provider said so. */
export function useConfirmPayment(companyId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invoiceId: number) => request(`/invoices/${invoiceId}/confirm`, { method: 'POST' }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['invoices', 'company', companyId] }),
  });
}
