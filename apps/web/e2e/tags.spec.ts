import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

test.describe('tags', () => {
  test('a user creates a tag with a random colour, edits and deletes it on /tags; counts and live changes show', async ({ page, request }) => {
    test.setTimeout(120_000);
    const stamp = Date.now() % 1_000_000;
    const token = await apiToken(request, admin.email, admin.password);
    await loginUI(page, admin.email, admin.password);
    await page.goto('/tags');
    await expect(page.getByTestId('page-title')).toHaveText('Tags');

    await page.getByTestId('tags-add').click();
    const dialog = page.getByTestId('tag-dialog');
    await expect(dialog.getByTestId('tag-color')).toHaveValue(/^#[0-9A-F]{6}$/);
    await expect(dialog.getByTestId('tag-timeLane')).toHaveCount(0);
    await dialog.getByTestId('tag-submit').click();
    await expect(dialog).toContainText('Obrigatório');
    await dialog.getByTestId('tag-name').fill('ab');
    await dialog.getByTestId('tag-submit').click();
    await expect(dialog).toContainText('Mensagem muito curta');
    await dialog.getByTestId('tag-name').fill(`Cliente VIP ${stamp}`);
    await dialog.getByTestId('tag-color').fill('#1E88E5');
    await expectAccessible(page, '/tags dialog');
    await dialog.getByTestId('tag-submit').click();
    await expectToast(page, 'Tag salva com sucesso!');

    const row = page.locator('[data-testid^="tag-row-"]').filter({ hasText: `Cliente VIP ${stamp}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('tag-tickets')).toHaveText('0');
    await expect(row.getByTestId('tag-contacts')).toHaveText('0');
    await expectAccessible(page, '/tags');

    // The server's count of contacts carrying it, after a contact gets the tag.
    const headers = { Authorization: `Bearer ${token}` };
    const contact = await request.post(`${E2E_API_URL}/contacts`, { headers, data: { name: `Contato ${stamp}`, number: `5511988${String(stamp).padStart(6, '0')}` } });
    expect(contact.status(), await contact.text()).toBe(200);
    const tagId = Number((await row.getAttribute('data-testid'))!.replace('tag-row-', ''));
    const synced = await request.post(`${E2E_API_URL}/tags/sync`, { headers, data: { contactId: ((await contact.json()) as { id: number }).id, tags: [{ id: tagId, name: `Cliente VIP ${stamp}` }] } });
    expect(synced.status(), await synced.text()).toBe(200);
    await page.reload();
    await page.getByTestId('tags-search').fill(String(stamp));
    await expect(page.locator('[data-testid^="tag-row-"]')).toHaveCount(1);
    await expect(row.getByTestId('tag-contacts')).toHaveText('1');

    // Edit keeps the counts on the row.
    await row.getByTestId(`tag-edit-${tagId}`).click();
    await expect(dialog.getByTestId('tag-name')).toHaveValue(`Cliente VIP ${stamp}`);
    await dialog.getByTestId('tag-name').fill(`Cliente Ouro ${stamp}`);
    await dialog.getByTestId('tag-submit').click();
    await expectToast(page, 'Tag salva com sucesso!');
    await expect(page.getByTestId(`tag-row-${tagId}`)).toContainText(`Cliente Ouro ${stamp}`);
    await expect(page.getByTestId(`tag-row-${tagId}`).getByTestId('tag-contacts')).toHaveText('1');

    // company{id}-tag: a tag created elsewhere appears without a reload.
    await page.getByTestId('tags-search').fill('');
    const created = await request.post(`${E2E_API_URL}/tags`, { headers, data: { name: `Ao vivo ${stamp}`, color: '#0A0B0C', kanban: 0 } });
    const live = (await created.json()) as { id: number };
    await expect(page.getByTestId(`tag-row-${live.id}`)).toContainText(`Ao vivo ${stamp}`);
    await request.delete(`${E2E_API_URL}/tags/${live.id}`, { headers });
    await expect(page.getByTestId(`tag-row-${live.id}`)).toHaveCount(0);

    await page.getByTestId(`tag-delete-${tagId}`).click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, 'Tag excluída com sucesso!');
    await expect(page.getByTestId(`tag-row-${tagId}`)).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('tags-page')).toBeVisible();
    await expect(page.getByTestId(`tag-row-${tagId}`)).toHaveCount(0);
  });

  test('/TagsKanban adds a lane with its automation in the same dialog, goes back to the Kanban, and keeps plain tags apart', async ({ page }) => {
    test.setTimeout(120_000);
    const stamp = Date.now() % 1_000_000;
    await loginUI(page, admin.email, admin.password);
    await page.goto('/TagsKanban');
    await expect(page.getByTestId('page-title')).toHaveText('Tags do Kanban');
    await expect(page.getByTestId('tags-back-to-kanban')).toHaveText(/Voltar para o Kanban/);

    const dialog = page.getByTestId('tag-dialog');
    await page.getByTestId('tags-kanban-add').click();
    await expect(dialog.getByTestId('tag-kanban')).toBeChecked();
    await dialog.getByTestId('tag-name').fill(`Proposta ${stamp}`);
    await dialog.getByTestId('tag-submit').click();
    await expectToast(page, 'Tag salva com sucesso!');
    const next = page.locator('[data-testid^="tag-row-"]').filter({ hasText: `Proposta ${stamp}` });
    await expect(next).toHaveCount(1);

    await page.getByTestId('tags-kanban-add').click();
    await dialog.getByTestId('tag-name').fill(`Primeiro contato ${stamp}`);
    await dialog.getByTestId('tag-timeLane').fill('45');
    await dialog.getByTestId('tag-nextLaneId').click();
    await page.getByRole('option', { name: `Proposta ${stamp}` }).click();
    await dialog.getByTestId('tag-greetingMessageLane').fill('Ainda tem interesse na proposta?');
    await expectAccessible(page, '/TagsKanban dialog');
    await dialog.getByTestId('tag-submit').click();
    await expectToast(page, 'Tag salva com sucesso!');
    const lane = page.locator('[data-testid^="tag-row-"]').filter({ hasText: `Primeiro contato ${stamp}` });
    await expect(lane).toHaveCount(1);
    await expect(lane.getByTestId('tag-tickets')).toHaveText('0');
    await expectAccessible(page, '/TagsKanban');

    // The dialog reopens with what was saved.
    await lane.locator('[data-testid^="tag-edit-"]').click();
    await expect(dialog.getByTestId('tag-timeLane')).toHaveValue('45');
    await expect(dialog.getByTestId('tag-nextLaneId')).toContainText(`Proposta ${stamp}`);
    await expect(dialog.getByTestId('tag-greetingMessageLane')).toHaveValue('Ainda tem interesse na proposta?');
    // Unchecking the flag makes it a plain tag: it leaves this page and shows on /tags.
    await dialog.getByTestId('tag-kanban').uncheck();
    await dialog.getByTestId('tag-submit').click();
    await expectToast(page, 'Tag salva com sucesso!');
    await expect(lane).toHaveCount(0);
    await page.getByTestId('tags-back-to-kanban').click();
    await expect(page).toHaveURL(/\/Kanban$/);
    await page.goto('/tags');
    await page.getByTestId('tags-search').fill(`primeiro contato ${stamp}`);
    await expect(page.locator('[data-testid^="tag-row-"]').filter({ hasText: `Primeiro contato ${stamp}` })).toHaveCount(1);
  });
});
