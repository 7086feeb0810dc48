import { expect, test } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

/** Issue 12: where users land, what the login page costs, and /financeiro-aberto for a company in good standing. */

test('the login page reads its branding in one call and never shows the fallback name', async ({ page }) => {
  const settingsCalls: string[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/public-settings')) settingsCalls.push(pathname);
  });
  // A slow branding answer: the page must wait for the name, not show 'O Plano' meanwhile.
  let answered = false;
  await page.route('**/public-settings', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    answered = true;
    await route.continue();
  });
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toBeVisible();
  expect(answered).toBe(false);
  await expect(page.getByText('O Plano')).toHaveCount(0);
  await expect(page.getByText('Balcão').first()).toBeVisible();
  await page.waitForTimeout(500);
  expect(settingsCalls).toEqual(['/public-settings']);
});

test('the login page opens no socket: socket.io connects only once there is a session', async ({ page }) => {
  const socketCalls: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/socket.io')) socketCalls.push(req.url());
  });
  page.on('websocket', (ws) => socketCalls.push(ws.url()));
  await page.goto('/login');
  await expect(page.getByTestId('login-email')).toBeVisible();
  await page.waitForTimeout(1500);
  expect(socketCalls).toEqual([]);
});

test('an attendant on a phone lands on the inbox, not on the 403 page', async ({ browser, request }) => {
  const token = await apiToken(request, admin.email, admin.password);
  const email = uniqueEmail('phone-att');
  const password = 'phone-att-pass-1';
  const res = await request.post(`${E2E_API_URL}/users`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Atendente Celular', email, password, profile: 'user' },
  });
  expect(res.status(), await res.text()).toBeLessThan(300);

  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByRole('tablist', { name: 'Status dos atendimentos' })).toBeVisible();
  await expect(page.getByTestId('forbidden')).toHaveCount(0);
  // An address that leads nowhere lands there too.
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/tickets$/);
  await context.close();
});

test('/financeiro-aberto of a company in good standing speaks of no expiry and leads to /financeiro', async ({ page }) => {
  await loginUI(page, admin.email, admin.password);
  await page.goto('/financeiro-aberto');
  await expect(page).toHaveURL(/\/financeiro$/);
  await expect(page.getByTestId('subscription-expired')).toHaveCount(0);
  await expect(page.getByText('Opss! Sua assinatura venceu')).toHaveCount(0);
});
