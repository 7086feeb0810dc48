import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, liftPlanLimits, loginUI, uniqueEmail } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();
const COUNT = 25;
const nn = (i: number) => String(i).padStart(2, '0');

/** Scrolls the open options to their end until `option` is there: each scroll near the end loads the next page. */
async function scrollTo(page: Page, option: Locator): Promise<void> {
  const listbox = page.getByRole('listbox');
  await expect(async () => {
    await listbox.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(option).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

/**
 * Issue 16: the queue dialog's Integration and File list selects, and a chatbot option's file and
 * integration targets, reach every record of the company (here more than one page of 20: by scrolling
 * and by searching), and a chosen record outside the first page still shows its name after a reload.
 */
test('the queue dialog picks an integration and a file list beyond the first page, for the queue and for bot options', async ({ page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now() % 1_000_000;
  const token = await apiToken(request, admin.email, admin.password);
  const api = async <T,>(method: 'POST' | 'PUT' | 'DELETE', path: string, data?: unknown): Promise<T> => {
    const res = await request.fetch(`${E2E_API_URL}${path}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  };
  await liftPlanLimits(request, token, { queues: 10_000, users: 10_000 });
  // Named to sort after every other record of the shared company: the last ones are not on the first page.
  const integrations: { id: number; name: string }[] = [];
  const fileLists: { id: number; name: string }[] = [];
  for (let i = 1; i <= COUNT; i += 1) {
    integrations.push(await api('POST', '/queueIntegration', { type: 'webhook', name: `Zz integ ${stamp} ${nn(i)}`, urlN8N: 'https://hooks.example.com/in' }));
    fileLists.push(await api('POST', '/files', { name: `Zz lista ${stamp} ${nn(i)}`, message: 'Seguem os arquivos', options: [] }));
  }
  const color = `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0')}`;
  const queue = await api<{ id: number }>('POST', '/queue', { name: `Fila seleção ${stamp}`, color });
  const attendantName = `Zz Atendente ${stamp}`;
  const attendant = await api<{ id: number }>('POST', '/users', { name: attendantName, email: uniqueEmail('select'), password: 'attendant-pass-1', profile: 'user', queueIds: [] });
  const [lastIntegration, secondIntegration] = [integrations[COUNT - 1]!, integrations[COUNT - 2]!];
  const [lastList, secondList] = [fileLists[COUNT - 1]!, fileLists[COUNT - 2]!];
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  try {
    await loginUI(page, admin.email, admin.password);
    await page.goto('/queues');
    await page.getByTestId(`queue-edit-${queue.id}`).click();
    const dialog = page.getByTestId('queue-dialog');

    // The queue's integration: the last one is not on the first page; scrolling brings it.
    await dialog.getByTestId('queue-integrationId').click();
    await expect(page.getByRole('option').first()).toBeVisible();
    await expect(page.getByTestId(`queue-integrationId-${lastIntegration.id}`)).toHaveCount(0);
    await expectAccessible(page, 'queue dialog: integration options open');
    await scrollTo(page, page.getByTestId(`queue-integrationId-${lastIntegration.id}`));
    await page.getByTestId(`queue-integrationId-${lastIntegration.id}`).click();
    await expect(dialog.getByTestId('queue-integrationId')).toHaveValue(lastIntegration.name);

    // The queue's file list: found by typing (searchParam), then chosen with the keyboard.
    const fileInput = dialog.getByTestId('queue-fileListId');
    await fileInput.fill(lastList.name);
    await expect(page.getByRole('option')).toHaveCount(1);
    await expect(page.getByTestId(`queue-fileListId-${lastList.id}`)).toBeVisible();
    await fileInput.press('ArrowDown');
    await fileInput.press('Enter');
    await expect(fileInput).toHaveValue(lastList.name);

    // Two bot options: one sends a file list, the other hands over to an integration.
    const bot = dialog.getByTestId('bot-editor');
    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('Catálogo de arquivos');
    await bot.getByTestId('bot-option-message').fill('Segue o catálogo');
    await bot.getByTestId('bot-option-type').click();
    await page.getByTestId('bot-option-type-file').click();
    await bot.getByTestId('bot-option-file').click();
    await scrollTo(page, page.getByTestId(`bot-option-file-${secondList.id}`));
    await page.getByTestId(`bot-option-file-${secondList.id}`).click();
    await expect(bot.getByTestId('bot-option-file')).toHaveValue(secondList.name);

    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('Falar com o robô');
    await bot.getByTestId('bot-option-message').fill('Conectando ao robô');
    await bot.getByTestId('bot-option-type').click();
    await page.getByTestId('bot-option-type-integration').click();
    await bot.getByTestId('bot-option-integration').fill(secondIntegration.name);
    await page.getByTestId(`bot-option-integration-${secondIntegration.id}`).click();
    await expect(bot.getByTestId('bot-option-integration')).toHaveValue(secondIntegration.name);

    // An attendant option: users are asked for from the third letter.
    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('Falar com a atendente');
    await bot.getByTestId('bot-option-message').fill('Chamando a atendente');
    await bot.getByTestId('bot-option-type').click();
    await page.getByTestId('bot-option-type-attendent').click();
    await bot.getByTestId('bot-option-user').fill('Zz');
    await expect(page.locator('.MuiAutocomplete-noOptions')).toHaveText('Digite ao menos 3 letras');
    await bot.getByTestId('bot-option-user').fill(attendantName);
    await page.getByTestId(`bot-option-user-${attendant.id}`).click();
    await expect(bot.getByTestId('bot-option-user')).toHaveValue(attendantName);
    await expectAccessible(page, 'queue dialog: bot option targets');
    await dialog.getByTestId('queue-submit').click();
    await expectToast(page, 'Bot saved successfully');
    await expect(dialog).toBeHidden();

    // A fresh page: nothing cached, the chosen records (outside the first page) are named from the server.
    await page.reload();
    await page.getByTestId(`queue-edit-${queue.id}`).click();
    await expect(dialog.getByTestId('queue-integrationId')).toHaveValue(lastIntegration.name);
    await expect(dialog.getByTestId('queue-fileListId')).toHaveValue(lastList.name);
    await dialog.getByTestId('bot-option-1').click();
    await expect(dialog.getByTestId('bot-option-file')).toHaveValue(secondList.name);
    await dialog.getByTestId('bot-option-2').click();
    await expect(dialog.getByTestId('bot-option-integration')).toHaveValue(secondIntegration.name);
    await dialog.getByTestId('bot-option-3').click();
    await expect(dialog.getByTestId('bot-option-user')).toHaveValue(attendantName);

    // Renamed elsewhere while the dialog is open: the live event renames it here, and breaks nothing.
    const renamed = `${lastIntegration.name} novo`;
    await api('PUT', `/queueIntegration/${lastIntegration.id}`, { type: 'webhook', name: renamed, urlN8N: 'https://hooks.example.com/in' });
    await expect(dialog.getByTestId('queue-integrationId')).toHaveValue(renamed);
    expect(pageErrors).toEqual([]);
  } finally {
    await api('DELETE', `/queue/${queue.id}`).catch(() => undefined);
    await api('DELETE', `/users/${attendant.id}`).catch(() => undefined);
    for (const i of integrations) await api('DELETE', `/queueIntegration/${i.id}`).catch(() => undefined);
    for (const f of fileLists) await api('DELETE', `/files/${f.id}`).catch(() => undefined);
  }
});
