import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { admin, loginUI } from './helpers';
import { setUpInbox } from './inbox-setup';

/**
 * Issue 17: an admin creates a contact list by importing a spreadsheet, runs a small
 * campaign on the Facebook connection against the fake Graph API, and watches the report
 * reach FINALIZADA with a full progress bar (live `company-{id}-campaign`).
 */
test('a list imported from a spreadsheet gets a campaign whose report reaches FINALIZADA', async ({ page }) => {
  test.setTimeout(150_000);
  const world = await setUpInbox();
  try {
    // Every hour and day open, no interval: the campaign goes out whenever the suite runs.
    await world.api.call('POST', '/campaign-settings', {
      settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, startHour: '00:00', endHour: '23:59', sabado: true, domingo: true },
    });
    const people = [new Customer(), new Customer()];
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Contatos');
    sheet.addRow(['nome', 'numero', 'email']);
    people.forEach((p, i) => sheet.addRow([`Pessoa ${i} ${p.tag}`, p.psid, '']));
    const file = Buffer.from(await book.xlsx.writeBuffer());

    // The campaign routes exist only with the cshow browser flag (spec 3 §2).
    await page.addInitScript(() => window.localStorage.setItem('cshow', '1'));
    await loginUI(page, admin.email, admin.password);
    await page.goto('/contact-lists');
    await expect(page.getByTestId('contact-lists-page')).toBeVisible();
    const listName = `Lista ${people[0]!.tag}`;
    await page.getByTestId('contact-lists-add').click();
    await page.getByTestId('contact-list-name').fill(listName);
    await page.getByTestId('contact-list-submit').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Lista salva com sucesso!' })).toBeVisible();
    const row = page.locator('[data-testid^="contact-list-row-"]').filter({ hasText: listName });
    await expect(row.getByTestId('contact-list-count')).toHaveText('0');
    await expectAccessible(page, '/contact-lists');
    await row.locator('[data-testid^="contact-list-open-"]').click();
    await expect(page.getByTestId('page-title')).toHaveText(listName);

    await page.getByTestId('contact-list-items-file').setInputFiles({ name: 'contatos.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: file });
    // The confirmation's button, once its dialog is up (the page's own 'Importar' opens the file chooser).
    await page.getByRole('dialog').getByRole('button', { name: 'Importar' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: '2 novos' })).toBeVisible();
    for (const p of people) await expect(page.getByTestId('contact-list-items-table')).toContainText(p.psid);
    await expectAccessible(page, '/contact-lists/{id}/contacts');

    await page.goto('/campaigns');
    await expect(page.getByTestId('campaigns-page')).toBeVisible();
    await page.getByTestId('campaigns-add').click();
    const dialog = page.getByTestId('campaign-dialog');
    const campaignName = `Campanha ${people[0]!.tag}`;
    await dialog.getByTestId('campaign-name').fill(campaignName);
    await dialog.getByTestId('campaign-contactListId').click();
    await page.getByRole('option', { name: listName }).click();
    const connections = await world.api.call<{ name: string; facebookPageId: string | null }[]>('GET', '/whatsapp/?session=0');
    const pageConnection = connections.find((c) => c.facebookPageId === '1000001')!;
    await dialog.getByTestId('campaign-whatsappId').click();
    await page.getByRole('option', { name: pageConnection.name, exact: true }).first().click();
    const text = `Oferta para {nome} ${people[0]!.tag}`;
    await dialog.getByTestId('campaign-message1').fill(text);
    const now = new Date();
    const two = (n: number) => String(n).padStart(2, '0');
    await dialog.getByTestId('campaign-scheduledAt').fill(`${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}T${two(now.getHours())}:${two(now.getMinutes())}`);
    await expectAccessible(page, '/campaigns dialog');
    await dialog.getByTestId('campaign-submit').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Campanha salva com sucesso.' })).toBeVisible();

    const campaignRow = page.locator('[data-testid^="campaign-row-"]').filter({ hasText: campaignName });
    await campaignRow.locator('[data-testid^="campaign-report-"]').click();
    await expect(page.getByTestId('campaign-report-status')).toHaveAttribute('data-status', 'FINALIZADA', { timeout: 60_000 });
    await expect(page.getByTestId('campaign-report-progress')).toHaveAttribute('data-value', '100');
    await expect(page.getByTestId('campaign-report-delivered')).toHaveText('2');
    await expectAccessible(page, '/campaign/{id}/report');
    for (const [i, p] of people.entries()) {
      await expect.poll(() => textsSentTo(p.psid)).toEqual([`Oferta para Pessoa ${i} ${p.tag} ${people[0]!.tag}`]);
    }
    await page.getByTestId('campaign-report-back').click();
    await expect(page.getByTestId('campaigns-page')).toBeVisible();
  } finally {
    await world.api.dispose();
  }
});
