import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { admin, loginUI } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

/** Issue 16: /queue-integration — add per type (with the spec's defaults), validation, search, edit and delete. */
test('an admin adds a webhook and a Typebot integration, finds, edits and deletes them on /queue-integration', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now() % 1_000_000;
  await loginUI(page, admin.email, admin.password);
  await page.goto('/queue-integration');
  await expect(page.getByTestId('page-title')).toHaveText(/^Integrações \(\d+\)$/);

  await page.getByTestId('queue-integrations-add').click();
  const dialog = page.getByTestId('queue-integration-dialog');
  // Dialogflow first: its fields and the Test button.
  await expect(dialog.getByTestId('integration-jsonContent')).toBeVisible();
  await expect(dialog.getByTestId('integration-test')).toBeVisible();
  await dialog.getByTestId('integration-name').fill('a');
  await dialog.getByTestId('integration-submit').click();
  await expect(dialog).toContainText('Too Short!');

  await dialog.getByTestId('integration-type').click();
  await page.getByRole('option', { name: 'Typebot' }).click();
  await expect(dialog.getByTestId('integration-jsonContent')).toHaveCount(0);
  await expect(dialog.getByTestId('integration-typebotDelayMessage')).toHaveValue('1000');
  await expect(dialog.getByTestId('integration-typebotExpires')).toHaveValue('1');
  await dialog.getByTestId('integration-name').fill(`Typebot ${stamp}`);
  await dialog.getByTestId('integration-urlN8N').fill('https://typebot.example.com');
  await dialog.getByTestId('integration-typebotSlug').fill('vendas');
  await expectAccessible(page, '/queue-integration dialog');
  await dialog.getByTestId('integration-submit').click();
  await expectToast(page, 'Integração adicionada com sucesso.');

  await page.getByTestId('queue-integrations-add').click();
  await dialog.getByTestId('integration-type').click();
  await page.getByRole('option', { name: 'Webhook' }).click();
  await dialog.getByTestId('integration-name').fill(`Webhook ${stamp}`);
  await dialog.getByTestId('integration-urlN8N').fill('https://hooks.example.com/in');
  await dialog.getByTestId('integration-submit').click();
  await expectToast(page, 'Integração adicionada com sucesso.');

  await page.getByTestId('queue-integrations-search').fill(String(stamp));
  const rows = page.locator('[data-testid^="queue-integration-row-"]');
  await expect(rows).toHaveCount(2);
  const webhookRow = rows.filter({ hasText: `Webhook ${stamp}` });
  await expect(webhookRow.getByTestId('integration-logo-webhook')).toBeVisible();
  await expect(rows.filter({ hasText: `Typebot ${stamp}` }).getByTestId('integration-logo-typebot')).toBeVisible();
  await expectAccessible(page, '/queue-integration');

  const id = Number((await webhookRow.getAttribute('data-testid'))!.replace('queue-integration-row-', ''));
  await webhookRow.getByTestId(`queue-integration-edit-${id}`).click();
  await expect(dialog.getByTestId('integration-urlN8N')).toHaveValue('https://hooks.example.com/in');
  await dialog.getByTestId('integration-name').fill(`Webhook novo ${stamp}`);
  await dialog.getByTestId('integration-submit').click();
  await expectToast(page, 'Integração editada com sucesso.');
  await expect(page.getByTestId(`queue-integration-row-${id}`)).toContainText(`Webhook novo ${stamp}`);

  await page.getByTestId(`queue-integration-delete-${id}`).click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await page.getByTestId('confirm-ok').click();
  await expectToast(page, 'Integração excluída com sucesso.');
  await expect(page.getByTestId(`queue-integration-row-${id}`)).toHaveCount(0);
});
