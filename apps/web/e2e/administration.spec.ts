import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, openDrawer, uniqueEmail } from './helpers';

/** YYYY-MM-DD of today + `days`, in the browser's (and this process's) local time. */
function isoInDays(days: number): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();
}

async function logout(page: Page): Promise<void> {
  await page.getByTestId('account-menu').click();
  await page.getByTestId('account-logout').click();
  await expect(page).toHaveURL(/\/login$/);
}

async function setGlobalSetting(request: APIRequestContext, token: string, key: string, value: string): Promise<void> {
  const res = await request.put(`${E2E_API_URL}/settings/${key}`, { headers: { Authorization: `Bearer ${token}` }, data: { value } });
  expect(res.status(), await res.text()).toBe(200);
}

// These tests walk whole flows (several logins, dialogs with submit delays): more than the default minute.
test.describe.configure({ timeout: 150_000 });

test.describe('plans and companies', () => {
  test('the super user creates a plan and a company with it; its admin sees the menu the plan allows', async ({ page }, testInfo) => {
    const stamp = Date.now();
    const planName = `Plano E2E ${stamp}`;
    const companyName = `Empresa Plano ${stamp}`;
    const companyEmail = uniqueEmail('company');
    const companyPassword = 'company-pass-1';
    const adminName = `Dona ${stamp}`;

    await loginUI(page, admin.email, admin.password);
    await page.goto('/settings?tab=plans');
    await expect(page.getByTestId('settings-tab-plans')).toHaveAttribute('aria-selected', 'true');
    await page.getByTestId('plans-add').click();
    const planDialog = page.getByTestId('plan-dialog');

    // The contracts' validation, on the field.
    await planDialog.getByTestId('plan-name').fill('');
    await planDialog.getByTestId('plan-submit').click();
    await expect(planDialog).toContainText('Required');
    await planDialog.getByTestId('plan-name').fill('P');
    await planDialog.getByTestId('plan-submit').click();
    await expect(planDialog).toContainText('Too Short!');

    await planDialog.getByTestId('plan-name').fill(planName);
    await planDialog.getByTestId('plan-users').fill('5');
    await planDialog.getByTestId('plan-connections').fill('2');
    await planDialog.getByTestId('plan-queues').fill('4');
    await planDialog.getByTestId('plan-amount').fill('149,90');
    // A private plan: it must not show on the public signup list.
    await planDialog.getByTestId('plan-isPublic').uncheck();
    for (const flag of ['useKanban', 'useCampaigns', 'useExternalApi', 'useOpenAi', 'useIntegrations', 'useFacebook', 'useInstagram']) {
      await planDialog.getByTestId(`plan-${flag}`).uncheck();
    }
    await expect(planDialog.getByTestId('plan-useSchedules')).toBeChecked();
    await expect(planDialog.getByTestId('plan-useInternalChat')).toBeChecked();
    await page.screenshot({ path: testInfo.outputPath('plan-dialog.png') });
    await planDialog.getByTestId('plan-submit').click();
    await expectToast(page, 'Operação realizada com sucesso');
    await expect(planDialog).toBeHidden();
    const planRow = page.locator('[data-testid^="plan-row-"]').filter({ hasText: planName });
    await expect(planRow).toContainText('R$ 149,90');
    await expect(planRow).toContainText('Não');
    await page.screenshot({ path: testInfo.outputPath('settings-plans.png') });

    // The company, on the companies page.
    await page.goto('/companies');
    await expect(page.getByTestId('page-title')).toHaveText('Empresas');
    await page.getByTestId('companies-add').click();
    const companyDialog = page.getByTestId('company-dialog');
    await companyDialog.getByTestId('company-submit').click();
    await expect(companyDialog.getByTestId('company-name')).toHaveAttribute('aria-invalid', 'true');
    await expect(companyDialog).toContainText('Required');
    await companyDialog.getByTestId('company-email').fill('not-an-email');
    await companyDialog.getByTestId('company-submit').click();
    await expect(companyDialog).toContainText('Invalid email');

    await companyDialog.getByTestId('company-name').fill(companyName);
    await companyDialog.getByTestId('company-email').fill(companyEmail);
    await companyDialog.getByTestId('company-adminName').fill(adminName);
    await companyDialog.getByTestId('company-password').fill(companyPassword);
    await companyDialog.getByTestId('company-document').fill('12.345.678/0001-90');
    await companyDialog.getByTestId('company-planId').click();
    await page.getByRole('option', { name: new RegExp(planName) }).click();
    await companyDialog.getByTestId('company-dueDate').fill(isoInDays(3));
    await companyDialog.getByTestId('company-street').fill('Rua das Flores, 10');
    await companyDialog.getByTestId('company-submit').click();
    await expectToast(page, 'Empresa salva com sucesso!');
    await expect(companyDialog).toBeHidden();

    await page.getByTestId('companies-search').fill(companyName.toUpperCase());
    await expect(page.getByTestId('companies-search')).toHaveValue(companyName.toLowerCase());
    const companyRow = page.locator('[data-testid^="company-row-"]').filter({ hasText: companyName });
    await expect(companyRow).toHaveCount(1);
    await expect(companyRow).toContainText(planName);
    // Due in 3 days: yellow. Renewing adds one month (MENSAL): no colour any more.
    await expect(companyRow).toHaveAttribute('data-due', 'yellow');
    await page.screenshot({ path: testInfo.outputPath('companies-due-yellow.png') });
    await companyRow.locator('[data-testid^="company-renew-"]').click();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, /Vencimento renovado até/);
    await expect(companyRow).toHaveAttribute('data-due', 'none');

    // The company's admin sees only what the plan allows.
    await logout(page);
    await loginUI(page, companyEmail, companyPassword);
    await expect(page.getByTestId('greeting')).toContainText(companyName);
    // Greeted by the name given on the company form, not the company's.
    await expect(page.getByTestId('greeting')).toContainText(`Olá ${adminName}`);
    await openDrawer(page);
    for (const id of ['menu-/schedules', 'menu-/chats', 'menu-/users', 'menu-/queues', 'menu-/settings', 'menu-/connections']) {
      await expect(page.getByTestId(id), id).toHaveCount(1);
    }
    for (const id of ['menu-/Kanban', 'menu-group-campaigns', 'menu-/messages-api', 'menu-/prompts', 'menu-/queue-integration', 'menu-/companies', 'menu-/announcements']) {
      await expect(page.getByTestId(id), id).toHaveCount(0);
    }
    await page.screenshot({ path: testInfo.outputPath('company-admin-menu.png') });

    // A page the plan lacks: the denial toast, then / after 1 s.
    await page.goto('/Kanban');
    await expectToast(page, 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.');
    await expect(page).toHaveURL(/\/$/, { timeout: 5000 });

    // Its settings: no super-user tabs.
    await page.goto('/settings');
    await expect(page.getByTestId('settings-tab-options')).toBeVisible();
    for (const tab of ['companies', 'plans', 'helps', 'whitelabel']) await expect(page.getByTestId(`settings-tab-${tab}`)).toHaveCount(0);
  });
});

test.describe('users', () => {
  test('an admin creates a user with permissions, and that user sees exactly what they grant', async ({ page, request }, testInfo) => {
    const email = uniqueEmail('perm');
    const password = 'perm-user-pass';
    const name = `Atendente ${Date.now()}`;
    // An API login of the same user before the UI one: a later login would log the page out.
    const token = await apiToken(request, admin.email, admin.password);

    await loginUI(page, admin.email, admin.password);
    await page.goto('/users');
    await expect(page.getByTestId('page-title')).toHaveText('Usuários');
    await expect(page.locator('[data-testid^="user-row-"]').first()).toBeVisible();
    // company-{id}-user: a user created elsewhere appears without a reload.
    const liveEmail = uniqueEmail('live');
    const created = await request.post(`${E2E_API_URL}/users`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'Aaa Ao Vivo', email: liveEmail, password: 'live-pass-1', profile: 'user' },
    });
    expect(created.status(), await created.text()).toBe(200);
    await expect(page.locator('[data-testid^="user-row-"]').filter({ hasText: liveEmail })).toHaveCount(1);

    await page.getByTestId('users-add').click();
    const dialog = page.getByTestId('user-dialog');

    // Validation from the contracts, shown on the fields.
    await dialog.getByTestId('user-submit').click();
    await expect(dialog).toContainText('Required');
    await dialog.getByTestId('user-name').fill('A');
    await dialog.getByTestId('user-email').fill('bad-email');
    await dialog.getByTestId('user-password').fill('123');
    await dialog.getByTestId('user-submit').click();
    await expect(dialog).toContainText('Too Short!');
    await expect(dialog).toContainText('Invalid email');

    await dialog.getByTestId('user-name').fill(name);
    await dialog.getByTestId('user-email').fill(email.toUpperCase());
    await expect(dialog.getByTestId('user-email')).toHaveValue(email);
    await dialog.getByTestId('user-password').fill(password);
    await expect(dialog.getByTestId('user-startWork')).toHaveValue('00:00');
    await expect(dialog.getByTestId('user-endWork')).toHaveValue('23:59');
    await expect(dialog.getByTestId('user-startWork')).toHaveAttribute('step', '600');
    // Capacity (issue 16): empty is unlimited; 0–999.
    await expect(dialog.getByTestId('user-maxOpenTickets')).toHaveValue('');
    await dialog.getByTestId('user-maxOpenTickets').fill('1000');
    await dialog.getByTestId('user-tab-permissions').click();
    await dialog.getByTestId('perm-showDashboard').check();
    await dialog.getByTestId('perm-allowConnections').check();
    await expect(dialog.getByTestId('perm-allowRealTime')).not.toBeChecked();
    await page.screenshot({ path: testInfo.outputPath('user-dialog-permissions.png') });
    await dialog.getByTestId('user-submit').click();
    // The error takes the dialog back to the General tab, on the field.
    await expect(dialog.getByTestId('user-maxOpenTickets')).toBeVisible();
    await expect(dialog).toContainText('Too Long!');
    await dialog.getByTestId('user-maxOpenTickets').fill('4');
    await dialog.getByTestId('user-submit').click();
    await expectToast(page, 'Usuário salvo com sucesso!');
    await expect(dialog).toBeHidden();

    // The new row arrives by the company-{id}-user event; search is lowercased and debounced.
    await page.getByTestId('users-search').fill(name.toUpperCase());
    await expect(page.getByTestId('users-search')).toHaveValue(name.toLowerCase());
    // After the 500 ms debounce the server's search leaves this one user.
    await expect(page.locator('[data-testid^="user-row-"]')).toHaveCount(1);
    const row = page.locator('[data-testid^="user-row-"]').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Usuário');
    await expect(row).toContainText('00:00 – 23:59');
    await page.screenshot({ path: testInfo.outputPath('users-page.png') });
    // Reopened, the dialog shows the capacity saved.
    await row.locator('[data-testid^="user-edit-"]').click();
    await expect(dialog.getByTestId('user-maxOpenTickets')).toHaveValue('4');
    await dialog.getByTestId('user-dialog-close').click();
    await expect(dialog).toBeHidden();

    await logout(page);
    await loginUI(page, email, password);
    await openDrawer(page);
    // showDashboard: the management group; allowConnections: the administration block.
    for (const id of ['menu-group-management', 'menu-/', 'menu-section-administration', 'menu-/connections', 'menu-/users']) {
      await expect(page.getByTestId(id), id).toHaveCount(1);
    }
    for (const id of ['menu-/companies', 'menu-/announcements', 'menu-/allConnections']) {
      await expect(page.getByTestId(id), id).toHaveCount(0);
    }
    await expect(page.getByTestId('forbidden')).toHaveCount(0);
    // Still a plain user: the admin-only pages show the no-permission view.
    await page.goto('/users');
    await expect(page.getByTestId('no-permission')).toBeVisible();
    await page.goto('/settings');
    await expect(page.getByTestId('no-permission')).toBeVisible();

    // Profile: their own dialog, without the admin-only fields.
    await page.getByTestId('account-menu').click();
    await page.getByTestId('account-profile').click();
    const profile = page.getByTestId('profile-dialog');
    await expect(profile).toContainText(email);
    await expect(profile.getByTestId('user-tab-permissions')).toHaveCount(0);
    await expect(profile.getByTestId('user-profile')).toHaveCount(0);
    await expect(profile.getByTestId('user-startWork')).toHaveCount(0);
    await profile.getByTestId('user-name').fill(`${name} Editado`);
    // One's own avatar: a 480×320 picture, scaled in the browser and sent as JPEG.
    const png = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 480;
      canvas.height = 320;
      const ctx = canvas.getContext('2d');
      if (ctx) {
        ctx.fillStyle = '#AA3300';
        ctx.fillRect(0, 0, 480, 320);
      }
      return canvas.toDataURL('image/png').split(',')[1] ?? '';
    });
    await profile.getByTestId('user-avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
    const preview = profile.getByTestId('user-avatar-preview').locator('img');
    await expect(preview).toHaveAttribute('src', /^blob:/);
    // The picture that will be sent: longest side 240 px, JPEG.
    const scaled = await preview.evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const blob = await (await fetch(img.src)).blob();
      return { width: img.naturalWidth, height: img.naturalHeight, type: blob.type };
    });
    expect(scaled).toEqual({ width: 240, height: 160, type: 'image/jpeg' });
    await profile.getByTestId('user-submit').click();
    await expectToast(page, 'Usuário salvo com sucesso!');
    // Editing yourself reloads the page.
    await page.waitForEvent('load');
    await expect(page.getByTestId('greeting')).toContainText(`${name} Editado`);
    const topAvatar = page.getByTestId('account-menu').locator('img');
    await expect(topAvatar).toHaveAttribute('src', /\/public\/company\d+\/avatar-[0-9a-f]+\.jpg$/);
    const stored = await request.get((await topAvatar.getAttribute('src')) ?? '');
    expect(stored.headers()['content-type']).toContain('image/jpeg');
  });
});

test.describe('queues', () => {
  test('an admin adds, edits and deletes queues; a colour already in use is refused', async ({ page, request }, testInfo) => {
    const stamp = Date.now();
    const colour = `#${(stamp % 0xffffff).toString(16).padStart(6, '0').toUpperCase()}`;
    // An API login of the same user before the UI one: a later login would log the page out.
    const token = await apiToken(request, admin.email, admin.password);
    await loginUI(page, admin.email, admin.password);
    await page.goto('/queues');
    await expect(page.getByTestId('page-title')).toHaveText('Filas & Chatbot');

    await page.getByTestId('queues-add').click();
    let dialog = page.getByTestId('queue-dialog');
    await expect(dialog.getByTestId('queue-color')).toHaveValue('#7C7C7C');
    await dialog.getByTestId('queue-name').fill('F');
    await dialog.getByTestId('queue-color').fill('#1');
    await dialog.getByTestId('queue-submit').click();
    await expect(dialog).toContainText('Too Short!');
    await dialog.getByTestId('queue-name').fill(`Fila E2E ${stamp}`);
    await dialog.getByTestId('queue-color').fill(colour);
    await dialog.getByTestId('queue-orderQueue').fill('1');
    await dialog.getByTestId('queue-greetingMessage').fill('Olá! Escolha uma opção.');
    await dialog.getByTestId('queue-submit').click();
    await expectToast(page, 'Fila salva com sucesso!');
    const row = page.locator('[data-testid^="queue-row-"]').filter({ hasText: `Fila E2E ${stamp}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('queue-color-swatch')).toHaveAttribute('data-color', colour);

    // Same colour on another queue: the server's ERR_QUEUE_COLOR_ALREADY_EXISTS, translated.
    await page.getByTestId('queues-add').click();
    dialog = page.getByTestId('queue-dialog');
    await dialog.getByTestId('queue-name').fill(`Outra fila ${stamp}`);
    await dialog.getByTestId('queue-color').fill(colour);
    await dialog.getByTestId('queue-submit').click();
    await expectToast(page, 'Esta cor já está em uso, escolha outra.');
    await expect(dialog).toContainText('Esta cor já está em uso, escolha outra.');
    await page.screenshot({ path: testInfo.outputPath('queue-colour-taken.png') });
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(page.locator('[data-testid^="queue-row-"]').filter({ hasText: `Outra fila ${stamp}` })).toHaveCount(0);

    // company-{id}-queue events: a queue created and deleted elsewhere shows here without a reload.
    const headers = { Authorization: `Bearer ${token}` };
    const created = await request.post(`${E2E_API_URL}/queue`, { headers, data: { name: `Fila ao vivo ${stamp}`, color: '#0A0B0C' } });
    expect(created.status(), await created.text()).toBe(200);
    const live = (await created.json()) as { id: number };
    await expect(page.getByTestId(`queue-row-${live.id}`)).toContainText(`Fila ao vivo ${stamp}`);
    await request.delete(`${E2E_API_URL}/queue/${live.id}`, { headers });
    await expect(page.getByTestId(`queue-row-${live.id}`)).toHaveCount(0);

    // Delete needs a confirmation.
    await row.locator('[data-testid^="queue-delete-"]').click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, 'Fila excluída com sucesso!');
    await expect(row).toHaveCount(0);
  });
});

test.describe('branding', () => {
  test('whitelabel app name and colour show on the login page after reload', async ({ page, browser, request }, testInfo) => {
    const token = await apiToken(request, admin.email, admin.password);
    const appName = `Balcão Marca ${Date.now() % 100000}`;
    try {
      // A visitor already on the login page.
      const visitor = await browser.newContext({ colorScheme: 'light' });
      const login = await visitor.newPage();
      await login.goto('/login');
      await expect(login.getByTestId('app-name')).toBeVisible();

      await loginUI(page, admin.email, admin.password);
      await page.goto('/settings?tab=whitelabel');
      await expect(page.getByTestId('settings-whitelabel')).toBeVisible();
      await page.getByTestId('whitelabel-appName').fill(appName);
      await page.getByTestId('whitelabel-primaryColorLight').fill('#AA3300');
      await page.getByTestId('whitelabel-submit').click();
      await expectToast(page, 'Configurações salvas');
      // At once, in this tab: the tab title.
      await expect(page).toHaveTitle(appName);

      // The login background image: uploaded here, shown on the visitor's login page.
      const png = await page.evaluate(() => {
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 64;
        const ctx = canvas.getContext('2d');
        if (ctx) {
          ctx.fillStyle = '#0A7A3B';
          ctx.fillRect(0, 0, 64, 64);
        }
        return canvas.toDataURL('image/png').split(',')[1] ?? '';
      });
      await page
        .getByTestId('whitelabel-upload-loginEnterImage')
        .setInputFiles({ name: 'fundo.png', mimeType: 'image/png', buffer: Buffer.from(png, 'base64') });
      await expectToast(page, 'Imagem atualizada');
      await expect(page.getByTestId('whitelabel-image-loginEnterImage').locator('img')).toHaveAttribute('src', /\/public\/brand-[0-9a-f]+\.png$/);
      await page.screenshot({ path: testInfo.outputPath('whitelabel.png'), fullPage: true });

      try {
        // The visitor's login page opens no socket (issue 12 point 5): it shows the new branding once reloaded.
        await login.reload();
        await expect(login.getByTestId('app-name')).toHaveText(appName);
        await expect(login.getByTestId('app-name')).toHaveCSS('color', 'rgb(170, 51, 0)');
        await expect(login).toHaveTitle(appName);
        await expect
          .poll(() =>
            login.evaluate(() => [...document.querySelectorAll('div')].some((d) => getComputedStyle(d).backgroundImage.includes('/public/brand-'))),
          )
          .toBe(true);
        await login.screenshot({ path: testInfo.outputPath('login-branded.png') });
      } finally {
        await visitor.close();
      }
    } finally {
      await setGlobalSetting(request, token, 'appName', 'Balcão');
      await setGlobalSetting(request, token, 'primaryColorLight', '#065183');
      await setGlobalSetting(request, token, 'loginEnterImage', '');
    }
  });
});

test.describe('helps', () => {
  test('a help video plays in the modal and Escape closes it', async ({ page, request }, testInfo) => {
    const token = await apiToken(request, admin.email, admin.password);
    const title = `Como atender ${Date.now()}`;
    await loginUI(page, admin.email, admin.password);
    await page.goto('/settings?tab=helps');
    await page.getByTestId('helps-add').click();
    const dialog = page.getByTestId('help-dialog');
    await dialog.getByTestId('help-title').fill(title);
    await dialog.getByTestId('help-video').fill('dQw4w9WgXcQ');
    await dialog.getByTestId('help-description').fill('Um vídeo curto sobre o atendimento.');
    await dialog.getByTestId('help-submit').click();
    await expectToast(page, 'Operação realizada com sucesso');
    const row = page.locator('[data-testid^="help-row-"]').filter({ hasText: title });
    await expect(row).toHaveCount(1);
    const id = Number((await row.getAttribute('data-testid'))?.replace('help-row-', ''));

    try {
      // The menu lists /helps as soon as a help exists.
      await openDrawer(page);
      await expect(page.getByTestId('menu-/helps')).toHaveCount(1);
      await page.getByTestId('menu-/helps').click();
      await expect(page.getByTestId('page-title')).toHaveText('Ajuda');
      await page.getByTestId(`help-card-${id}`).click();
      const modal = page.getByTestId('help-video-modal');
      await expect(modal).toBeVisible();
      await expect(modal).toContainText(title);
      await expect(modal.getByTestId('help-video-iframe')).toHaveAttribute('src', /youtube\.com\/embed\/dQw4w9WgXcQ/);
      await page.screenshot({ path: testInfo.outputPath('help-modal.png') });
      await page.keyboard.press('Escape');
      await expect(modal).toBeHidden();
      await expect(page.getByTestId('help-video-iframe')).toHaveCount(0);
    } finally {
      // Leave no help behind: a fresh install lists no /helps (foundation suite).
      await request.delete(`${E2E_API_URL}/helps/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    }
    await page.goto('/');
    await openDrawer(page);
    await expect(page.getByTestId('menu-/helps')).toHaveCount(0);
  });
});
