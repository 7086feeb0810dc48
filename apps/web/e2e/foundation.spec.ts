import { expect, test } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, openDrawer, uniqueEmail } from './helpers';

test.describe('session and routes', () => {
  test('an unauthenticated visitor is sent to /login, and the login page renders', async ({ page }, testInfo) => {
    await page.goto('/users');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId('login-email')).toBeVisible();
    await expect(page.getByTestId('signup-link')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('login.png'), fullPage: true });
  });

  test('a wrong password shows the translated error toast', async ({ page }) => {
    await page.goto('/login');
    await page.getByTestId('login-email').fill(admin.email);
    await page.getByTestId('login-password').fill('definitely-wrong');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('toast')).toContainText('Erro de autenticação. Por favor, tente novamente.');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('menu by role', () => {
  test('the super user sees exactly the entries the spec allows', async ({ page }, testInfo) => {
    await loginUI(page, admin.email, admin.password);
    // Issue 12: everyone lands on the inbox; the dashboard is a deliberate visit.
    await expect(page).toHaveURL(/\/tickets$/);
    await page.goto('/');
    await expect(page.getByTestId('page-title')).toHaveText('Dashboard');
    await openDrawer(page);

    const present = [
      'menu-/tickets',
      'menu-group-management',
      'menu-/',
      'menu-/reports',
      'menu-/moments',
      'menu-/quick-messages',
      'menu-/Kanban',
      'menu-/contacts',
      'menu-/schedules',
      'menu-/tags',
      'menu-/chats',
      'menu-section-administration',
      'menu-group-campaigns',
      'menu-/announcements',
      'menu-/messages-api',
      'menu-/users',
      'menu-/queues',
      'menu-/prompts',
      'menu-/queue-integration',
      'menu-/connections',
      'menu-/allConnections',
      'menu-/files',
      'menu-/financeiro',
      'menu-/settings',
      'menu-/webhooks',
      'menu-/companies',
    ];
    for (const id of present) await expect(page.getByTestId(id), id).toHaveCount(1);
    // No help item exists on a fresh install, so /helps is not listed.
    await expect(page.getByTestId('menu-/helps')).toHaveCount(0);

    await expect(page.getByTestId('greeting')).toContainText('Admin');
    await expect(page.getByTestId('app-version')).toContainText('2.0.4-v3');
    await page.screenshot({ path: testInfo.outputPath('shell-super.png') });

    // Tickets stays highlighted on a ticket path; 'undefined' goes back to /tickets.
    await page.goto('/tickets/undefined');
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByTestId('menu-/tickets')).toHaveClass(/Mui-selected/);
  });

  test('a plain user has no administration block, no management group and no dashboard', async ({ page, request }) => {
    const token = await apiToken(request, admin.email, admin.password);
    const email = uniqueEmail('plain');
    const password = 'plain-user-pass';
    const res = await request.post(`${E2E_API_URL}/users`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'Plain Attendant', email, password, profile: 'user' },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);

    await loginUI(page, email, password);
    // Issue 12: an attendant lands on the inbox, not on the 403 page.
    await expect(page).toHaveURL(/\/tickets$/);
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
    await expect(page.getByTestId('menu-/tickets')).toHaveCount(1);
    await expect(page.getByTestId('menu-/contacts')).toHaveCount(1);
    for (const id of [
      'menu-section-administration',
      'menu-group-management',
      'menu-/',
      'menu-/users',
      'menu-/connections',
      'menu-/settings',
      'menu-/webhooks',
      'menu-/companies',
      'menu-/announcements',
    ]) {
      await expect(page.getByTestId(id), id).toHaveCount(0);
    }
    // Dashboard, visited on purpose: the 403 page with Voltar to /tickets.
    await page.goto('/');
    await expect(page.getByText('Oops! Acesso Negado!')).toBeVisible();
    await page.getByRole('button', { name: 'Voltar' }).click();
    await expect(page).toHaveURL(/\/tickets$/);

    await page.goto('/settings');
    await expect(page.getByTestId('no-permission')).toBeVisible();
    await page.goto('/allConnections');
    await expect(page).toHaveURL(/\/tickets$/);
  });
});

test.describe('preferences', () => {
  test('light/dark choice persists across reload', async ({ page }, testInfo) => {
    await page.goto('/login');
    const toggle = page.getByTestId('theme-toggle');
    const before = await toggle.getAttribute('data-mode');
    const expected = before === 'light' ? 'dark' : 'light';
    await toggle.click();
    await expect(toggle).toHaveAttribute('data-mode', expected);
    await expect(page.locator('html')).toHaveAttribute('data-theme', expected);
    await page.reload();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-mode', expected);

    await loginUI(page, admin.email, admin.password);
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-mode', expected);
    await page.goto('/users');
    await expect(page.getByTestId('page-title')).toHaveText('Usuários');
    await page.screenshot({ path: testInfo.outputPath(`shell-${expected}.png`) });
    await page.getByTestId('theme-toggle').click();
    await page.reload();
    await expect(page.getByTestId('theme-toggle')).toHaveAttribute('data-mode', before ?? 'light');
  });

  test('switching to English changes the menu', async ({ page }) => {
    await loginUI(page, admin.email, admin.password);
    await openDrawer(page);
    await expect(page.getByTestId('menu-/tickets')).toContainText('Atendimentos');
    await expect(page.getByTestId('menu-/users')).toContainText('Usuários');
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-en').click();
    await expect(page.getByTestId('menu-/tickets')).toContainText('Tickets');
    await expect(page.getByTestId('menu-/users')).toContainText('Users');
    await expect(page.getByTestId('greeting')).toContainText('Hello');
    await page.reload();
    await expect(page.getByTestId('menu-/users')).toContainText('Users');
  });
});

test.describe('signup', () => {
  test('signs up a company and logs in as its admin', async ({ page, request }) => {
    const plans = await request.get(`${E2E_API_URL}/plans/list`);
    expect(plans.ok()).toBe(true);

    await page.goto('/login');
    await page.getByTestId('signup-link').click();
    await expect(page).toHaveURL(/\/signup$/);
    const email = uniqueEmail('owner');
    const company = `Empresa E2E ${Date.now()}`;
    await page.getByTestId('signup-companyName').fill(company);
    await page.getByTestId('signup-name').fill('Dona Maria');
    await page.getByTestId('signup-email').fill(email.toUpperCase());
    await expect(page.getByTestId('signup-email')).toHaveValue(email);
    await page.getByTestId('signup-password').fill('owner-pass-123');
    await page.getByTestId('signup-phone').fill('5511999999999');
    await page.getByTestId('signup-plan').click();
    const option = page.locator('[data-testid^="plan-option-"]').first();
    await expect(option).toContainText('R$');
    await option.click();
    await expect(page.getByRole('listbox')).toBeHidden();
    await page.getByTestId('signup-submit').click();
    await expect(page.getByTestId('toast')).toContainText('Cadastro realizado com sucesso');
    await expect(page).toHaveURL(/\/login$/);

    await loginUI(page, email, 'owner-pass-123');
    await expect(page.getByTestId('greeting')).toContainText(company);
    await expect(page.getByTestId('due-date')).toBeVisible();
    await expect(page.getByTestId('menu-section-administration')).toHaveCount(1);
    await expect(page.getByTestId('menu-/companies')).toHaveCount(0);
    await expect(page.getByTestId('menu-/announcements')).toHaveCount(0);
  });
});

test.describe('account', () => {
  test('the profile dialog shows the own data and logout ends the session', async ({ page }) => {
    await loginUI(page, admin.email, admin.password);
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-profile').click();
    const dialog = page.getByTestId('profile-dialog');
    await expect(dialog).toContainText(admin.email);
    await expect(dialog).toContainText('Super usuário');
    await dialog.getByRole('button', { name: 'Fechar' }).click();
    await expect(dialog).toBeHidden();

    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-logout').click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a login elsewhere logs out the older session', async ({ browser, request }) => {
    const email = uniqueEmail('twice');
    const password = 'twice-pass-123';
    const token = await apiToken(request, admin.email, admin.password);
    const res = await request.post(`${E2E_API_URL}/users`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'Twice', email, password, profile: 'user' },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);

    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const older = await first.newPage();
      await loginUI(older, email, password);
      // Past the window in which a socket ignores the event of its own login.
      await older.waitForTimeout(3000);
      // The toast shows for 1 s before the reload: start watching before the other login.
      const warned = older.getByTestId('toast').filter({ hasText: 'Sua conta foi acessada em outro computador.' }).waitFor({ timeout: 20_000 });
      const newer = await second.newPage();
      await loginUI(newer, email, password);
      await warned;
      await expect(older).toHaveURL(/\/login$/, { timeout: 15_000 });
      // The new session is not affected by its own login event.
      await newer.waitForTimeout(3000);
      await expect(newer.getByTestId('side-menu')).toBeVisible();
      await expect(newer).not.toHaveURL(/\/login$/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

test.describe('shell behaviours', () => {
  test('/tickets/undefined goes to /tickets', async ({ page }) => {
    await loginUI(page, admin.email, admin.password);
    await page.goto('/tickets/undefined');
    await expect(page).toHaveURL(/\/tickets$/);
  });

  test('a stored version that differs from the server shows the new-version button, which updates and reloads', async ({ page, request }) => {
    const serverVersion = ((await (await request.get(`${E2E_API_URL}/version`)).json()) as { version: string }).version;
    await loginUI(page, admin.email, admin.password);
    await expect(page.getByTestId('new-version')).toHaveCount(0);

    await page.evaluate(() => localStorage.setItem('version', '0.0.1-old'));
    await page.reload();
    const button = page.getByTestId('new-version');
    await expect(button).toHaveText('Nova versão disponível!');
    await button.click();
    await page.waitForEvent('load');
    await expect(page.getByTestId('side-menu')).toBeVisible();
    await expect(page.getByTestId('new-version')).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('version'))).toBe(serverVersion);
  });
});

test.describe('subscription at login', () => {
  async function companyDueIn(request: import('@playwright/test').APIRequestContext, days: number) {
    const token = await apiToken(request, admin.email, admin.password);
    const due = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const email = uniqueEmail(`due${days}`);
    const res = await request.post(`${E2E_API_URL}/companies`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: `Vence ${days} ${Date.now()}`, email, password: 'due-pass-123', planId: 1, dueDate: due },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return { email, password: 'due-pass-123', due };
  }

  test('an expired company logs in and lands on /financeiro-aberto with the expiry message', async ({ page, request }) => {
    const { email, password, due } = await companyDueIn(request, -3);
    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/financeiro-aberto$/);
    const [y, m, d] = due.split('-');
    await expect(page.getByTestId('subscription-expired')).toContainText(`Opss! Sua assinatura venceu em ${d}/${m}/${y}.`);
  });

  test('a company due in fewer than 5 days logs in with the warning', async ({ page, request }) => {
    const { email, password } = await companyDueIn(request, 3);
    await loginUI(page, email, password);
    await expect(page.getByTestId('toast')).toContainText(/Sua assinatura vence em [2-4] dias\./);
  });
});
