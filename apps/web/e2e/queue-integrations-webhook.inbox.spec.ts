import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Customer } from './customer';
import { loginUI, admin } from './helpers';
import { setUpInbox, type ApiTicket } from './inbox-setup';

/**
 * Issue 16: a webhook integration pointed at a local receiver (started here) on the connection of
 * Page 1000002 (no queues and no integration between specs): the customer's message arrives at the receiver as
 * JSON and the receiver's `{ text }` answer shows in the conversation.
 */
test("a webhook integration receives the customer's message and its reply shows in the conversation", async ({ page }) => {
  test.setTimeout(180_000);
  const received: { message?: { body?: string }; contact?: { name?: string } }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as (typeof received)[number];
      received.push(body);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: `Recebi: ${body.message?.body ?? ''}` }));
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const world = await setUpInbox();
  const { api } = world;
  const connections = await api.call<{ id: number; facebookPageId: string | null }[]>('GET', '/whatsapp');
  const connection = connections.find((c) => c.facebookPageId === '1000002');
  expect(connection, 'the Page 1000002 connection').toBeDefined();
  const customer = new Customer('1000002');
  const integration = await api.call<{ id: number }>('POST', '/queueIntegration', { type: 'webhook', name: `Receptor ${customer.tag}`, urlN8N: hookUrl });
  let ticket: ApiTicket | undefined;
  try {
    await api.call('PUT', `/whatsapp/${connection!.id}`, { integrationId: integration.id, queueIds: [] });
    const text = `Quero falar com o robô ${customer.tag}`;
    await customer.says(text);
    await expect.poll(() => received.some((r) => r.message?.body === text), { timeout: 30_000 }).toBe(true);

    const reply = `Recebi: ${text}`;
    await expect.poll(async () => (ticket = await api.ticketByLastMessage('pending', reply)) !== undefined, { timeout: 30_000 }).toBe(true);
    await loginUI(page, admin.email, admin.password);
    await page.goto(`/tickets/${ticket!.uuid}`);
    await expect(page.getByText(text).first()).toBeVisible();
    await expect(page.getByText(reply).first()).toBeVisible();
  } finally {
    await api.raw('PUT', `/whatsapp/${connection!.id}`, { integrationId: null });
    if (ticket) await api.raw('PUT', `/tickets/${ticket.id}`, { status: 'closed' });
    await api.raw('DELETE', `/queueIntegration/${integration.id}`);
    await api.dispose();
    receiver.close();
  }
});
