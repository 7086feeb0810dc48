import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

test.describe('outbound webhooks', () => {
  test('an admin registers an endpoint, sends a test and sees the signed deliveries listed', async ({ page, request }) => {
    test.setTimeout(120_000);
    // The receiver at the network boundary: it records what the server sends.
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${Date.now()}`;

    // Before the browser's login: a new login ends the older sessions of the user.
    const token = await apiToken(request, admin.email, admin.password);
    await loginUI(page, admin.email, admin.password);
    await page.getByTestId('menu-/webhooks').click();
    await expect(page.getByTestId('page-title')).toHaveText('Webhooks');
    await page.getByTestId('webhooks-add').click();
    const dialog = page.getByTestId('webhook-dialog');
    await dialog.getByTestId('webhook-save').click();
    await expect(dialog).toContainText('Obrigatório');
    await dialog.getByTestId('webhook-url').fill('ftp://example.com');
    await dialog.getByTestId('webhook-event-contact.created').check();
    await dialog.getByTestId('webhook-save').click();
    await expect(dialog).toContainText('URL inválida');
    await dialog.getByTestId('webhook-url').fill(url);
    await expectAccessible(page, '/webhooks dialog');
    await dialog.getByTestId('webhook-save').click();
    await expectToast(page, 'Webhook salvo com sucesso!');
    const row = page.locator('[data-testid^="webhook-row-"]').filter({ hasText: url });
    await expect(row).toContainText('Contato criado');
    await expectAccessible(page, '/webhooks');

    // The secret the receiver checks signatures with.
    await row.locator('[data-testid^="webhook-edit-"]').click();
    const secret = await page.getByTestId('webhook-secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-dialog').getByRole('button', { name: 'Fechar' }).first().click();

    // A contact created through the API is an event the endpoint subscribed to.
    const contact = await request.post(`${E2E_API_URL}/contacts`, { headers: { Authorization: `Bearer ${token}` }, data: { name: `Gancho ${Date.now() % 1e6}`, number: `55119${Date.now() % 1e8}` } });
    expect(contact.status(), await contact.text()).toBe(200);

    await row.locator('[data-testid^="webhook-deliveries-"]').click();
    const deliveries = page.getByTestId('webhook-deliveries');
    await deliveries.getByTestId('webhook-test').click();
    await expectToast(page, 'Envio de teste registrado.');
    await expect(deliveries.locator('[data-testid^="webhook-delivery-"][data-status="delivered"]')).toHaveCount(2, { timeout: 20_000 });
    await expect(deliveries).toContainText('Contato criado');
    await expect(deliveries).toContainText('Teste');
    await expect(deliveries).toContainText('Entregue');
    await expectAccessible(page, '/webhooks deliveries');

    expect(received).toHaveLength(2);
    for (const hit of received) {
      const expected = `sha256=${createHmac('sha256', secret).update(`${String(hit.headers['x-balcao-timestamp'])}.${hit.body}`).digest('hex')}`;
      expect(hit.headers['x-balcao-signature']).toBe(expected);
    }
    expect(received.map((r) => r.headers['x-balcao-event']).sort()).toEqual(['contact.created', 'webhook.ping']);

    await deliveries.getByRole('button', { name: 'Fechar' }).last().click();
    await row.locator('[data-testid^="webhook-delete-"]').click();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, 'Webhook excluído com sucesso!');
    await expect(row).toHaveCount(0);
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });
});
