import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectAccessible, watchConsole } from './axe';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { admin, loginUI, uniqueEmail } from './helpers';
import { BLANK_PNG } from './remote-pictures';

/**
 * Issue 12: the first hour of a new company, on the product with a Meta app (the inbox instance,
 * matched by its file name): the super user creates the company with its admin; the admin logs in,
 * creates a queue and an attendant and adds a Facebook Page with that queue (fake Graph); a customer
 * writes and the attendant answers. Nobody meets the 403 page or a console error on the way.
 */


async function freshPage(browser: Browser): Promise<{ page: Page; console: ReturnType<typeof watchConsole> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  // No internet here: outside hosts are answered at the network boundary — an empty script for Meta's SDK
  // (so the token dialog is used) and a blank image for the customers' profile pictures.
  await context.route(
    (url) => !['localhost', '127.0.0.1'].includes(url.hostname),
    (route) =>
      route.request().resourceType() === 'script'
        ? route.fulfill({ status: 200, contentType: 'text/javascript', body: '' })
        : route.fulfill({ status: 200, contentType: 'image/png', body: BLANK_PNG }),
  );
  return { page, console: watchConsole(page) };
}

async function goByMenu(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByTestId('side-menu')).toBeVisible();
  await expect(page.getByTestId('forbidden')).toHaveCount(0);
}

test('a new company goes from nothing to an answered customer in its first hour', async ({ browser }) => {
  test.setTimeout(240_000);
  const stamp = `${Date.now() % 1e6}`;
  const pageId = `31${stamp}`;
  const companyName = `Primeira Hora ${stamp}`;
  const adminEmail = uniqueEmail('first-admin');
  const adminPassword = 'first-admin-pass-1';
  const queueName = `Atendimento ${stamp}`;
  const attendant = { name: `Carla ${stamp}`, email: uniqueEmail('first-att'), password: 'first-att-pass-1' };

  // The super user creates the company with its admin.
  const superUser = await freshPage(browser);
  await loginUI(superUser.page, admin.email, admin.password);
  await goByMenu(superUser.page, '/companies');
  await superUser.page.getByTestId('companies-add').click();
  const companyDialog = superUser.page.getByTestId('company-dialog');
  await companyDialog.getByTestId('company-name').fill(companyName);
  await companyDialog.getByTestId('company-email').fill(adminEmail);
  await companyDialog.getByTestId('company-password').fill(adminPassword);
  await companyDialog.getByTestId('company-planId').click();
  await superUser.page.getByRole('option').first().click();
  await companyDialog.getByTestId('company-submit').click();
  await expect(companyDialog).toBeHidden();
  superUser.console.expectNone();

  // The admin lands on the inbox, not on an empty dashboard.
  const owner = await freshPage(browser);
  await loginUI(owner.page, adminEmail, adminPassword);
  await expect(owner.page).toHaveURL(/\/tickets$/);
  await expect(owner.page.getByTestId('forbidden')).toHaveCount(0);
  await expectAccessible(owner.page, '/tickets (admin)');

  // A queue.
  await goByMenu(owner.page, '/queues');
  await owner.page.getByTestId('queues-add').click();
  const queueDialog = owner.page.getByTestId('queue-dialog');
  await queueDialog.getByTestId('queue-name').fill(queueName);
  await queueDialog.getByTestId('queue-color').fill('#0A7E4A');
  await queueDialog.getByTestId('queue-submit').click();
  await expect(queueDialog).toBeHidden();
  await expect(owner.page.getByTestId('queues-table')).toContainText(queueName);
  await expectAccessible(owner.page, '/queues');

  // An attendant in that queue.
  await goByMenu(owner.page, '/users');
  await owner.page.getByTestId('users-add').click();
  const userDialog = owner.page.getByTestId('user-dialog');
  await userDialog.getByTestId('user-name').fill(attendant.name);
  await userDialog.getByTestId('user-email').fill(attendant.email);
  await userDialog.getByTestId('user-password').fill(attendant.password);
  await userDialog.getByTestId('user-queues').click();
  await owner.page.getByRole('option', { name: queueName }).click();
  await owner.page.keyboard.press('Escape');
  await userDialog.getByTestId('user-submit').click();
  await expect(userDialog).toBeHidden();
  await expectAccessible(owner.page, '/users');

  // A Facebook Page, with that queue chosen before the login.
  await goByMenu(owner.page, '/connections');
  await owner.page.getByTestId('connections-add').click();
  await owner.page.getByTestId('connections-add-facebook').click();
  const meta = owner.page.getByTestId('meta-token-dialog');
  await expect(meta.getByTestId('no-queue-warning')).toBeVisible();
  await meta.getByTestId('meta-submit').click();
  await expect(meta).toContainText('Obrigatório');
  await meta.getByTestId('meta-queues').click();
  await owner.page.getByRole('option', { name: queueName }).click();
  await owner.page.keyboard.press('Escape');
  await expect(meta.getByTestId('no-queue-warning')).toHaveCount(0);
  await expectAccessible(owner.page, 'the add-Page dialog');
  await meta.getByTestId('meta-user-token').fill(`e2e-page-${pageId}-user-token`);
  await meta.getByTestId('meta-submit').click();
  await expect(meta).toBeHidden();
  const row = owner.page.locator('[data-testid^="connection-row-"]').filter({ hasText: `Página ${pageId}` });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('connection-no-queue')).toHaveCount(0);
  await expectAccessible(owner.page, '/connections');
  owner.console.expectNone();

  // A customer writes; the attendant, on their own inbox, sees the ticket waiting in their queue and answers.
  const customer = new Customer(pageId);
  const question = `Olá, vocês abrem sábado? ${customer.tag}`;
  await customer.says(question);

  const desk = await freshPage(browser);
  await loginUI(desk.page, attendant.email, attendant.password);
  await expect(desk.page).toHaveURL(/\/tickets$/);
  await expect(desk.page.getByTestId('forbidden')).toHaveCount(0);
  const tabs = desk.page.getByRole('tablist', { name: 'Status dos atendimentos' });
  await tabs.getByRole('tab', { name: /^Aguardando/ }).click();
  const waiting = desk.page.getByRole('listitem').filter({ hasText: customer.tag });
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText(queueName);
  await expectAccessible(desk.page, '/tickets (attendant, waiting)');
  await waiting.getByRole('button', { name: /^Aceitar/ }).click();
  await expect(desk.page).toHaveURL(/\/tickets\/[0-9a-f-]+$/);

  const answer = `Abrimos sim, das 9h às 13h ${customer.tag}`;
  const input = desk.page.getByTestId('composer').getByRole('textbox', { name: 'Mensagem' });
  await input.fill(answer);
  await input.press('Enter');
  await expect(desk.page.getByRole('log').getByTestId('message').filter({ hasText: answer })).toBeVisible();
  await expect.poll(async () => (await textsSentTo(customer.psid)).some((text) => text.endsWith(answer)), 'the answer reached the customer').toBe(true);
  await expectAccessible(desk.page, 'the conversation');

  // At 1366 px with the menu and the contact drawer open, the conversation keeps a usable width.
  await expect(desk.page.getByTestId('drawer')).toHaveAttribute('data-open', 'true');
  await desk.page.getByTestId('ticket-contact-name').click();
  await expect(desk.page.getByTestId('contact-drawer')).toBeVisible();
  expect((await desk.page.getByTestId('composer-input').boundingBox())?.width ?? 0, 'the composer').toBeGreaterThan(300);
  expect((await desk.page.getByTestId('ticket-contact-name').boundingBox())?.width ?? 0, 'the contact name').toBeGreaterThan(100);
  await expectAccessible(desk.page, 'the conversation with the contact drawer');

  // The collapsed menu keeps the brand in its corner.
  await desk.page.keyboard.press('Escape');
  await desk.page.getByTestId('menu-toggle').click();
  await expect(desk.page.getByTestId('drawer')).toHaveAttribute('data-open', 'false');
  await expect(desk.page.getByTestId('drawer').getByTestId('logo-mark')).toBeVisible();
  desk.console.expectNone();
});
