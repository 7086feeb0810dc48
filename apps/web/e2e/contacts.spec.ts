import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible, watchConsole } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

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
  test('adds a contact with the form\'s validation messages, edits it, and deletes it after confirming', async ({ page }) => {
    const stamp = String(Date.now()).slice(-8);
    const console = watchConsole(page);
    await loginUI(page, admin.email, admin.password);
    await page.goto('/contacts');
    await page.getByTestId('contacts-add').click();
    const dialog = page.getByTestId('contact-edit-dialog');
    await expect(dialog).toContainText('Adicionar contato');
    await dialog.getByTestId('contact-submit').click();
    await expect(dialog.getByText('Required').first()).toBeVisible();
    await dialog.getByTestId('contact-form-name').fill('A');
    await dialog.getByTestId('contact-form-number').fill('1234');
    await dialog.getByTestId('contact-form-email').fill('nao-e-email');
    await dialog.getByTestId('contact-submit').click();
    await expect(dialog.getByText('Too Short!')).toHaveCount(2);
    await expect(dialog.getByText('Invalid email')).toBeVisible();
    await dialog.getByTestId('contact-form-name').fill('N'.repeat(51));
    await dialog.getByTestId('contact-submit').click();
    await expect(dialog.getByText('Too Long!')).toBeVisible();
    await expectAccessible(page, 'contacts add dialog with errors');

    const name = `Novo Contato ${stamp}`;
    await dialog.getByTestId('contact-form-name').fill(name);
    await dialog.getByTestId('contact-form-number').fill(`55 48 9${stamp}`);
    await dialog.getByTestId('contact-form-email').fill(`novo${stamp}@exemplo.com`);
    await dialog.getByTestId('contact-extra-add').click();
    await dialog.getByLabel('Nome do campo').fill('Cidade');
    await dialog.getByLabel('Valor').fill('Florianópolis');
    await dialog.getByTestId('contact-submit').click();
    await expectToast(page, 'Contato salvo com sucesso.');
    await expect(dialog).toBeHidden();

    await page.getByTestId('contacts-search').fill(stamp);
    const row = page.locator('[data-testid^="contact-row-"]').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('contact-number')).toHaveText(`+55 (48) 9${stamp.slice(0, 4)}-${stamp.slice(4)}`);
    const id = Number((await row.getAttribute('data-testid'))!.replace('contact-row-', ''));

    // Edit: the dialog opens with what was saved, extra info included.
    await row.getByTestId(`contact-edit-${id}`).click();
    await expect(dialog).toContainText('Editar contato');
    await expect(dialog.getByTestId('contact-form-name')).toHaveValue(name);
    await expect(dialog.getByLabel('Valor')).toHaveValue('Florianópolis');
    await dialog.getByTestId('contact-form-name').fill(`${name} Editado`);
    await dialog.getByTestId('contact-submit').click();
    await expectToast(page, 'Contato salvo com sucesso.');
    await expect(page.getByTestId(`contact-row-${id}`)).toContainText(`${name} Editado`);

    // Delete asks first; cancelling keeps the row.
    await page.getByTestId(`contact-delete-${id}`).click();
    const confirm = page.getByTestId('confirm-dialog');
    await expect(confirm).toContainText(`Excluir ${name} Editado?`);
    await expect(confirm).toContainText('Tem certeza? Todos os atendimentos relacionados serão perdidos.');
    await expectAccessible(page, 'contacts delete confirmation');
    await confirm.getByTestId('confirm-cancel').click();
    await expect(page.getByTestId(`contact-row-${id}`)).toBeVisible();
    await page.getByTestId(`contact-delete-${id}`).click();
    await confirm.getByTestId('confirm-ok').click();
    await expectToast(page, 'Contato excluído com sucesso!');
    await expect(page.getByTestId(`contact-row-${id}`)).toHaveCount(0);
    console.expectNone();
  });

  test('a plain user has no delete button; the tag filter narrows the list; contacts created elsewhere appear live', async ({ page, request }) => {
    const stamp = String(Date.now()).slice(-7);
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const tag = await request.post(`${E2E_API_URL}/tags`, { headers, data: { name: `Filtro ${stamp}`, color: '#1565C0', kanban: 0 } });
    expect(tag.status(), await tag.text()).toBe(200);
    const tagId = ((await tag.json()) as { id: number }).id;
    const make = async (name: string, n: number) => {
      const res = await request.post(`${E2E_API_URL}/contacts`, { headers, data: { name, number: `55479${stamp}${n}` } });
      expect(res.status(), await res.text()).toBe(200);
      return ((await res.json()) as { id: number }).id;
    };
    const tagged = await make(`Marcado ${stamp}`, 1);
    const plain = await make(`Sem Tag ${stamp}`, 2);
    const synced = await request.post(`${E2E_API_URL}/tags/sync`, { headers, data: { contactId: tagged, tags: [{ id: tagId, name: `Filtro ${stamp}` }] } });
    expect(synced.status(), await synced.text()).toBe(200);
    const user = { email: uniqueEmail('contacts-user'), password: 'contacts-pass-1' };
    const created = await request.post(`${E2E_API_URL}/users`, { headers, data: { name: `Atendente ${stamp}`, ...user, profile: 'user' } });
    expect(created.status(), await created.text()).toBe(200);

    await loginUI(page, user.email, user.password);
    await page.goto('/contacts');
    await page.getByTestId('contacts-search').fill(stamp);
    await expect(page.getByTestId(`contact-row-${tagged}`)).toBeVisible();
    await expect(page.getByTestId(`contact-row-${plain}`)).toBeVisible();
    // contacts-page:deleteContact is not a plain user's: no delete button, and no export either.
    await expect(page.getByTestId(`contact-edit-${tagged}`)).toBeVisible();
    await expect(page.locator('[data-testid^="contact-delete-"]')).toHaveCount(0);
    await page.getByTestId('contacts-import-export').click();
    await expect(page.getByTestId('contacts-export')).toHaveCount(0);
    await page.keyboard.press('Escape');

    await page.getByTestId('contacts-tag-filter').click();
    await page.getByRole('option', { name: `Filtro ${stamp}` }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(`contact-row-${plain}`)).toHaveCount(0);
    await expect(page.getByTestId(`contact-row-${tagged}`)).toBeVisible();
    await expect(page.getByTestId(`contact-row-${tagged}`)).toContainText(`Filtro ${stamp}`);
    await expectAccessible(page, 'contacts filtered by tag');

    // company-{id}-contact: created through the API by someone else, the row appears without a reload.
    await page.goto('/contacts');
    await page.getByTestId('contacts-search').fill(`Ao Vivo ${stamp}`);
    await expect(page.getByTestId('contacts-table')).not.toContainText(`Ao Vivo ${stamp}`);
    const live = await make(`Ao Vivo ${stamp}`, 3);
    await expect(page.getByTestId(`contact-row-${live}`)).toBeVisible();
    const renamed = await request.put(`${E2E_API_URL}/contacts/${live}`, { headers, data: { name: `Ao Vivo ${stamp} Renomeado` } });
    expect(renamed.status(), await renamed.text()).toBe(200);
    await expect(page.getByTestId(`contact-row-${live}`)).toContainText(`Ao Vivo ${stamp} Renomeado`);
    const removed = await request.delete(`${E2E_API_URL}/contacts/${live}`, { headers });
    expect(removed.status(), await removed.text()).toBe(200);
    await expect(page.getByTestId(`contact-row-${live}`)).toHaveCount(0);
  });

  test('the import menu imports the phone\'s chats through POST /contacts/import/chats and reports the outcome', async ({ page }) => {
    await loginUI(page, admin.email, admin.password);
    await page.goto('/contacts');
    await page.getByTestId('contacts-import-export').click();
    await expectAccessible(page, 'contacts import menu');
    const call = page.waitForRequest((req) => req.method() === 'POST' && new URL(req.url()).pathname === '/contacts/import/chats');
    await page.getByTestId('contacts-import-chats').click();
    await call;
    // No WhatsApp phone is connected on this server: the server's answer is the toast.
    await expectToast(page, 'Nenhuma conexão padrão encontrada. Verifique a página de conexões.');
  });
});
