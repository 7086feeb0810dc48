import { expect, test } from '@playwright/test';
import { expectAccessible } from './axe';
import { BILLING_ENV, EFI_ORIGIN } from './billing-env';
import { E2E_API_URL } from './env';
import { admin, apiToken, uniqueEmail } from './helpers';

/** Issue 18: an expired company pays its invoice by PIX through the (fake) provider and is let back in. */
test('an expired company logs in, pays through the provider and sees the renewal toast and the dashboard', async ({ page, request, context }) => {
  // A long walk (three accessibility checks, a 4 s redirect) on a shared machine.
  test.setTimeout(150_000);
  const token = await apiToken(request, admin.email, admin.password);
  const email = uniqueEmail('expired');
  const password = 'amber-lantern-pays-7';
  const created = await request.post(`${E2E_API_URL}/companies`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: `Vencida ${Date.now()}`, email, password, planId: 1, dueDate: '2020-03-15', recurrence: 'MENSAL' },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);

  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/financeiro-aberto$/);
  await expect(page.getByTestId('subscription-expired')).toContainText('Opss! Sua assinatura venceu em 15/03/2020.');
  const row = page.locator('[data-testid^="invoice-row-"]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('15/03/2020');
  await expectAccessible(page, '/financeiro-aberto');
  // Any other screen leads back here while the subscription is expired.
  await page.goto('/tickets');
  await expect(page).toHaveURL(/\/financeiro-aberto$/);
  await expect(row).toHaveCount(1);

  await row.getByTestId('invoice-pay').click();
  const dialog = page.getByTestId('checkout-dialog');
  await expect(dialog.locator('.MuiStepLabel-label.Mui-active')).toHaveText('Personalizar');
  // At 3 the decrement does nothing; each added user costs 11 and each added connection 20.
  for (const what of ['users', 'connections']) {
    while (Number(await dialog.getByTestId(`checkout-${what}-value`).textContent()) > 3) await dialog.getByTestId(`checkout-${what}-decrease`).click();
    await dialog.getByTestId(`checkout-${what}-decrease`).click();
    await expect(dialog.getByTestId(`checkout-${what}-value`)).toHaveText('3');
  }
  await expect(dialog.getByTestId('checkout-price')).toHaveText('R$ 49,00 /mês');
  await dialog.getByTestId('checkout-users-increase').click();
  await dialog.getByTestId('checkout-connections-increase').click();
  await expect(dialog.getByTestId('checkout-price')).toHaveText('R$ 80,00 /mês');
  await expectAccessible(page, 'checkout');
  await dialog.getByTestId('checkout-next').click();
  await expect(dialog.getByTestId('checkout-review')).toContainText('4 usuários e 4 conexões');
  await dialog.getByTestId('checkout-back').click();
  await expect(dialog.getByTestId('checkout-users-value')).toHaveText('4');
  await dialog.getByTestId('checkout-next').click();
  await dialog.getByTestId('checkout-pay').click();

  await expect(dialog.getByTestId('checkout-pix')).toBeVisible();
  await expect(dialog.getByTestId('checkout-amount')).toHaveText('Valor: R$ 80,00');
  await expect(dialog.getByRole('img', { name: 'QR code do PIX' })).toBeVisible();
  const brCode = await dialog.getByTestId('checkout-brcode').inputValue();
  expect(brCode).toMatch(/^000201.*br\.gov\.bcb\.pix.*540580\.00.*6304[0-9A-F]{4}$/);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await dialog.getByTestId('checkout-copy').click();
  await expect(dialog.getByTestId('checkout-copy')).toHaveText('Copiado!');
  await expect(dialog.getByTestId('checkout-copy')).toHaveText('Copiar', { timeout: 3000 });
  await expectAccessible(page, 'PIX code');

  // The payer pays: the provider concludes the charge and calls the webhook.
  const cobs = (await (await request.get(`${EFI_ORIGIN}/__cobs`)).json()) as { txid: string; pixCopiaECola: string }[];
  const cob = cobs.find((c) => c.pixCopiaECola === brCode);
  expect(cob).toBeDefined();
  const paid = await request.post(`${EFI_ORIGIN}/__pay`, {
    data: { txid: cob!.txid, webhookUrl: `${E2E_API_URL}/subscription/webhook/pix?hmac=${BILLING_ENV.EFI_WEBHOOK_SECRET}` },
  });
  expect(await paid.json()).toEqual({ webhookStatus: 200 });

  const now = new Date();
  const next = new Date(now.getFullYear(), now.getMonth() + 1, 1);
  const lastDay = new Date(next.getFullYear(), next.getMonth() + 1, 0).getDate();
  const renewed = new Date(next.getFullYear(), next.getMonth(), Math.min(now.getDate(), lastDay));
  const shown = `${String(renewed.getDate()).padStart(2, '0')}/${String(renewed.getMonth() + 1).padStart(2, '0')}/${renewed.getFullYear()}`;
  // The checkout's own toast may still be showing beside it.
  await expect(page.getByTestId('toast').filter({ hasText: `Sua licença foi renovada até ${shown}!` })).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 8000 });
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await expect(page.getByTestId('subscription-expired')).toHaveCount(0);
});

/** Issue 18 point 5: the super user acts on another company's connections from /allConnections. */
test('the super user gets the session actions of another company’s connection in /allConnections and re-pairs it', async ({ page, request }) => {
  test.setTimeout(120_000);
  const superToken = await apiToken(request, admin.email, admin.password);
  const email = uniqueEmail('allconn');
  const password = 'copper-meadow-links-4';
  const created = await request.post(`${E2E_API_URL}/companies`, {
    headers: { Authorization: `Bearer ${superToken}` },
    data: { name: `Conexões ${Date.now()}`, email, password, planId: 1 },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const company = (await created.json()) as { id: number; name: string };
  const ownerToken = await apiToken(request, email, password);
  const connection = await request.post(`${E2E_API_URL}/whatsapp`, { headers: { Authorization: `Bearer ${ownerToken}` }, data: { name: 'Da outra empresa' } });
  expect(connection.status(), await connection.text()).toBeLessThan(300);
  const { id } = (await connection.json()) as { id: number };
  // Without WhatsApp's servers the session ends DISCONNECTED; a disconnect sent before the new session has started is asked again.
  const owner = { Authorization: `Bearer ${ownerToken}` };
  await expect
    .poll(async () => {
      await request.delete(`${E2E_API_URL}/whatsappsession/${id}`, { headers: owner });
      return ((await (await request.get(`${E2E_API_URL}/whatsapp/${id}`, { headers: owner })).json()) as { status: string }).status;
    }, { timeout: 30_000 })
    .toBe('DISCONNECTED');

  await page.goto('/login');
  await page.getByTestId('login-email').fill(admin.email);
  await page.getByTestId('login-password').fill(admin.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await page.goto('/allConnections');
  await page.getByTestId(`all-connections-row-${company.id}`).getByTestId('all-connections-edit').click();
  const dialog = page.getByTestId('company-connections-dialog');
  await expect(dialog).toContainText(`Conexões de: ${company.name}`);
  const row = dialog.locator('[data-name="Da outra empresa"]');
  await expect(row.getByTestId('connection-try-again')).toBeVisible({ timeout: 20_000 });

  const renewed = page.waitForResponse((r) => r.url().endsWith(`/whatsappsession/${id}`) && r.request().method() === 'PUT');
  await row.getByTestId('connection-new-qr').click();
  expect((await renewed).status()).toBe(200);
  await expect(page.getByTestId('toast')).toContainText('Operação realizada com sucesso');
});
