import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible, watchConsole } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

async function expectToast(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();
}

test.describe.configure({ timeout: 120_000 });

test.describe('contacts', () => {
  test('imports a real .xlsx whose name column is mapped by hand, and shows the created and ignored counts', async ({ page }, testInfo) => {
    const suffix = String(Date.now() % 10_000).padStart(4, '0');
    // 'Cliente' is no header the import knows: the name column must be mapped by hand.
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Clientes');
    sheet.addRows([
      ['Cliente', 'Telefone', 'Observação'],
      [`Importada Um ${suffix}`, `(11) 9${suffix}-0001`, 'ok'],
      [`Importada Dois ${suffix}`, `+55 21 9${suffix}-0002`, 'ok'],
      [`Importada Três ${suffix}`, Number(`55319${suffix}0003`), 'ok'],
      [`Número Ruim ${suffix}`, '12345', 'inválido'],
      ['', `11 9${suffix}-0005`, 'sem nome'],
    ]);
    const file = testInfo.outputPath('clientes.xlsx');
    await workbook.xlsx.writeFile(file);
    const console = watchConsole(page);

    await loginUI(page, admin.email, admin.password);
    await page.goto('/contacts');
    await expect(page.getByTestId('page-title')).toHaveText('Contatos');
    await page.getByTestId('contacts-import-export').click();
    await page.getByTestId('contacts-import-sheet').click();
    await expect(page).toHaveURL(/\/contacts\/import$/);

    await page.getByTestId('contacts-import-file').setInputFiles(file);
    await expect(page.getByTestId('contacts-import-selected')).toHaveText('5 de 5 linhas selecionadas');
    // The number column was recognised by its header; the name was not.
    await page.getByTestId('contacts-import-submit').click();
    await expect(page.getByTestId('contacts-import-problem')).toHaveText('Não foi selecionado o campo de nome do contato');
    await page.getByRole('combobox', { name: /Coluna 1: Cliente/ }).click();
    await page.getByRole('option', { name: 'Nome', exact: true }).click();
    await page.getByRole('combobox', { name: /Coluna 3: Observação/ }).click();
    await page.getByRole('option', { name: 'Nome', exact: true }).click();
    await page.getByTestId('contacts-import-submit').click();
    await expect(page.getByTestId('contacts-import-problem')).toHaveText('O campo Nome já foi selecionado.');
    await page.getByRole('combobox', { name: /Coluna 3: Observação/ }).click();
    await page.getByRole('option', { name: 'Não importar' }).click();
    await expectAccessible(page, 'contacts import mapping');

    await page.getByTestId('contacts-import-submit').click();
    const summary = page.getByTestId('contacts-import-summary');
    await expect(summary).toBeVisible();
    await expect(summary.getByTestId('contacts-import-created')).toHaveText('Contatos criados: 3');
    await expect(summary.getByTestId('contacts-import-ignored')).toHaveText('Contatos ignorados: 2');
    await expect(summary).toContainText('Número inválido: 1');
    await expect(summary).toContainText('Sem nome ou número: 1');
    await expectToast(page, 'Importação realizada com sucesso, mas houveram alguns erros');
    await expectAccessible(page, 'contacts import summary');
    await page.screenshot({ path: testInfo.outputPath('import-summary.png') });

    // The imported contacts are on the contacts page, numbers in the Brazilian mask.
    await page.goto('/contacts');
    await page.getByTestId('contacts-search').fill(`importada um ${suffix}`);
    const row = page.locator('[data-testid^="contact-row-"]').filter({ hasText: `Importada Um ${suffix}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('contact-number')).toHaveText(`+55 (11) 9${suffix}-0001`);
    console.expectNone();
  });

  test('blocking a contact disables its channel button; unblocking enables it again', async ({ page, request }) => {
    const token = await apiToken(request, admin.email, admin.password);
    const name = `Bloqueável ${Date.now()}`;
    const created = await request.post(`${E2E_API_URL}/contacts`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name, number: `55419${String(Date.now()).slice(-8)}` },
    });
    expect(created.status(), await created.text()).toBe(200);
    const { id } = (await created.json()) as { id: number };

    await loginUI(page, admin.email, admin.password);
    await page.goto('/contacts');
    await page.getByTestId('contacts-search').fill(name.toLowerCase());
    const row = page.getByTestId(`contact-row-${id}`);
    await expect(row).toBeVisible();
    const channel = row.getByTestId(`contact-channel-${id}`);
    await expect(channel).toBeEnabled();
    await expectAccessible(page, 'contacts page');

    await row.getByTestId(`contact-block-${id}`).click();
    await expectToast(page, 'Contato bloqueado');
    await expect(channel).toBeDisabled();
    await expect(row).toHaveAttribute('data-active', 'false');

    await row.getByTestId(`contact-block-${id}`).click();
    await expectToast(page, 'Contato desbloqueado');
    await expect(channel).toBeEnabled();

    // The channel button opens the new-ticket dialog with the contact chosen.
    await channel.click();
    await expect(page.getByRole('dialog').getByRole('combobox').first()).toHaveValue(name);
  });
});
