import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expectAccessible } from './axe';
import { admin, apiToken, liftUserLimit, loginUI, uniqueEmail } from './helpers';
import { E2E_API_URL } from './env';

/** What an authenticator app shows for `secret`, `stepsAhead` 30 s steps from now. */
const codeFor = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: Date.now() + stepsAhead * 30_000 });

/** Issue 18: a user enables two-factor login in the profile dialog and then logs in with a generated code. */
test('a user enables two-factor login and signs in with a code from the authenticator', async ({ page, request }) => {
  // Two axe passes on a shared machine.
  test.setTimeout(180_000);
  const token = await apiToken(request, admin.email, admin.password);
  await liftUserLimit(request, token);
  const email = uniqueEmail('dois-fatores');
  const password = 'Cobalto-Salgueiro-4417';
  const created = await request.post(`${E2E_API_URL}/users`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: 'Dois Fatores', email, password, profile: 'user' },
  });
  expect(created.status(), await created.text()).toBe(200);

  await loginUI(page, email, password);
  await page.getByTestId('account-menu').click();
  await page.getByTestId('account-profile').click();
  const section = page.getByTestId('two-factor-section');
  await expect(section.getByTestId('two-factor-state')).toBeVisible();
  await section.getByTestId('two-factor-enable').click();
  await expect(section.getByRole('img')).toBeVisible();
  const secret = (await section.getByTestId('two-factor-secret').innerText()).replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page, 'profile two-factor setup');

  await section.getByTestId('two-factor-code').fill(codeFor(secret));
  await section.getByTestId('two-factor-submit').click();
  const codes = section.getByTestId('recovery-codes').locator('li');
  await expect(codes).toHaveCount(10);
  await section.getByTestId('recovery-codes-done').click();
  await expect(section.getByTestId('two-factor-state')).toContainText('10');

  await page.getByTestId('user-dialog-close').click();
  await page.getByTestId('account-menu').click();
  await page.getByTestId('account-logout').click();
  await expect(page.getByTestId('login-email')).toBeVisible();

  // The password alone no longer signs in: the code step asks for the authenticator's code.
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('login-code-step')).toBeVisible();
  await expect(page.getByTestId('side-menu')).toHaveCount(0);
  await expectAccessible(page, 'login code step');

  await page.getByTestId('login-code').fill('000000');
  await page.getByTestId('login-code-submit').click();
  // The refusal empties the field: wait for it, or the next code typed before the answer would be wiped.
  await expect(page.getByTestId('login-code')).toHaveValue('');
  await expect(page.getByTestId('login-code-step')).toBeVisible();

  // The code of the enrolment was used once: the app's next code signs in.
  await page.getByTestId('login-code').fill(codeFor(secret, 1));
  await page.getByTestId('login-code-submit').click();
  await expect(page.getByTestId('side-menu')).toBeVisible();
});

/** Issue 18: an admin reads the audit log in /settings and narrows it with the filters. */
test('an admin reads the audit log in /settings and filters it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const token = await apiToken(request, admin.email, admin.password);
  const name = `Auditoria ${Date.now()}`;
  const color = `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;
  const queue = await request.post(`${E2E_API_URL}/queue`, { headers: { Authorization: `Bearer ${token}` }, data: { name, color } });
  expect(queue.status(), await queue.text()).toBe(200);

  await loginUI(page, admin.email, admin.password);
  await page.goto('/settings?tab=audit');
  const rows = page.getByTestId('audit-row');
  // A full page load (session restored, the settings chunk, then the log) on a shared machine.
  await expect(rows.filter({ hasText: name })).toHaveCount(1, { timeout: 30_000 });
  await expect(rows.filter({ hasText: name })).toContainText('Criação · Fila');
  await expectAccessible(page, 'settings audit log');

  await page.getByRole('combobox', { name: 'Registro' }).click();
  await page.getByRole('option', { name: 'Plano', exact: true }).click();
  await expect(rows.filter({ hasText: name })).toHaveCount(0);
  await page.getByRole('combobox', { name: 'Registro' }).click();
  await page.getByRole('option', { name: 'Fila', exact: true }).click();
  await expect(rows.filter({ hasText: name })).toHaveCount(1);
});
