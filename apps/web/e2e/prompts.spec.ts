import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

test.describe('AI prompts', () => {
  test('an admin creates a prompt on /prompts with the defaults, a voice and a queue, edits it and deletes it with the server message', async ({ page, request }) => {
    test.setTimeout(120_000);
    const stamp = Date.now() % 1_000_000;
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const queue = await request.post(`${E2E_API_URL}/queue`, { headers, data: { name: `Vendas IA ${stamp}`, color: '#1E88E5' } });
    expect(queue.status(), await queue.text()).toBe(200);
    const queueName = ((await queue.json()) as { name: string }).name;

    await loginUI(page, admin.email, admin.password);
    await page.goto('/prompts');
    await expect(page.getByTestId('page-title')).toHaveText('Prompts');

    await page.getByTestId('prompts-add').click();
    const dialog = page.getByTestId('prompt-dialog');
    await expect(dialog.getByTestId('prompt-maxTokens-input')).toHaveValue('100');
    await expect(dialog.getByTestId('prompt-temperature')).toHaveValue('1');
    await expect(dialog.getByTestId('prompt-maxMessages')).toHaveValue('10');
    await expect(dialog.getByTestId('prompt-voice')).toContainText('Texto');
    await dialog.getByTestId('prompt-name-input').fill(`Assistente ${stamp}`);
    await dialog.getByTestId('prompt-apiKey').fill('sk-e2e-secret-7788');
    await dialog.getByTestId('prompt-prompt').fill('Você é o assistente da loja. Responda em português, com frases curtas.');
    await dialog.getByTestId('prompt-submit').click();
    await expect(dialog).toContainText('Informe o setor');

    await dialog.getByTestId('prompt-voice').click();
    await expect(page.getByRole('option')).toHaveCount(16);
    await page.getByRole('option', { name: 'Francisca' }).click();
    await dialog.getByTestId('prompt-voiceKey').fill('azure-e2e-4455');
    await dialog.getByTestId('prompt-voiceRegion').fill('brazilsouth');
    await dialog.getByTestId('prompt-maxTokens-input').fill('250');
    await dialog.getByTestId('prompt-queueId').click();
    await page.getByRole('option', { name: queueName }).click();
    await expectAccessible(page, '/prompts dialog');
    await dialog.getByTestId('prompt-submit').click();
    await expectToast(page, 'Prompt salvo com sucesso!');

    const row = page.locator('[data-testid^="prompt-row-"]').filter({ hasText: `Assistente ${stamp}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('prompt-queue')).toHaveText(queueName);
    await expect(row.getByTestId('prompt-maxTokens')).toHaveText('250');
    await expectAccessible(page, '/prompts');

    // The key comes back masked; saving it unchanged keeps the stored key.
    await row.locator('[data-testid^="prompt-edit-"]').click();
    await expect(dialog.getByTestId('prompt-apiKey')).toHaveValue('••••••••7788');
    await expect(dialog.getByTestId('prompt-voice')).toContainText('Francisca');
    await dialog.getByTestId('prompt-maxTokens-input').fill('300');
    await dialog.getByTestId('prompt-submit').click();
    await expectToast(page, 'Prompt salvo com sucesso!');
    await expect(row.getByTestId('prompt-maxTokens')).toHaveText('300');
    const id = Number((await row.getAttribute('data-testid'))!.replace('prompt-row-', ''));
    const stored = await request.get(`${E2E_API_URL}/prompt/${id}`, { headers });
    expect(await stored.json()).toMatchObject({ apiKey: '••••••••7788', voiceKey: '••••••••4455', maxTokens: 300 });

    await row.getByTestId(`prompt-delete-${id}`).click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, 'Prompt deleted');
    await expect(page.getByTestId(`prompt-row-${id}`)).toHaveCount(0);
  });
});
