import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, loginUI } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();
const PDF = Buffer.from('%PDF-1.4\n%balcao e2e\n');

/** Issue 16: /files — a list with an option file (uploaded by POST /files/uploadList/{id}), edited, searched and deleted. */
test('an admin adds a file list with an option file on /files, edits and deletes it', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = Date.now() % 1_000_000;
  await loginUI(page, admin.email, admin.password);
  await page.goto('/files');
  await expect(page.getByTestId('page-title')).toHaveText('Listas de arquivos');

  await page.getByTestId('files-add').click();
  const dialog = page.getByTestId('file-list-dialog');
  await dialog.getByTestId('file-list-name').fill('ab');
  await dialog.getByTestId('file-list-submit').click();
  await expect(dialog).toContainText('nome muito curto');
  await expect(dialog).toContainText('Obrigatório');

  await dialog.getByTestId('file-list-name').fill(`Catálogo ${stamp}`);
  await dialog.getByTestId('file-list-message').fill('Seguem nossos arquivos');
  await dialog.getByTestId('file-list-add-option').click();
  await dialog.getByTestId('file-list-option-name-0').fill('Tabela de preços');
  await dialog.getByTestId('file-list-option-file-0').setInputFiles({ name: 'tabela.pdf', mimeType: 'application/pdf', buffer: PDF });
  await expect(dialog).toContainText('tabela.pdf');
  await expectAccessible(page, '/files dialog');
  await dialog.getByTestId('file-list-submit').click();
  await expectToast(page, 'Lista de arquivos salva com sucesso!');

  await page.getByTestId('files-search').fill(String(stamp));
  const row = page.locator('[data-testid^="file-list-row-"]').filter({ hasText: `Catálogo ${stamp}` });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('file-list-options')).toHaveText('1');
  await expectAccessible(page, '/files');

  // The option's file was stored and is served.
  const id = Number((await row.getAttribute('data-testid'))!.replace('file-list-row-', ''));
  await row.getByTestId(`file-list-edit-${id}`).click();
  const current = dialog.getByTestId('file-list-option-current-0');
  await expect(current).toBeVisible();
  const href = await current.getAttribute('href');
  expect(href).toContain(`${E2E_API_URL}/public/company`);
  const served = await page.request.get(href!);
  expect(served.status()).toBe(200);
  expect(Buffer.from(await served.body()).toString()).toContain('%PDF-1.4');

  await dialog.getByTestId('file-list-add-option').click();
  await dialog.getByTestId('file-list-option-name-1').fill('Segundo');
  await dialog.getByTestId('file-list-submit').click();
  await expectToast(page, 'Lista de arquivos salva com sucesso!');
  await expect(page.getByTestId(`file-list-row-${id}`).getByTestId('file-list-options')).toHaveText('2');

  await page.getByTestId(`file-list-delete-${id}`).click();
  await page.getByTestId('confirm-ok').click();
  await expectToast(page, 'Lista de arquivos excluída com sucesso!');
  await expect(page.getByTestId(`file-list-row-${id}`)).toHaveCount(0);
});
