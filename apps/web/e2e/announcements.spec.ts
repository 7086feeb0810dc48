import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

test.describe('announcements', () => {
  test('the super user publishes one with an image; a plain user sees the bell count, opens it, and is kept off /announcements', async ({ page, browser, request }) => {
    test.setTimeout(120_000);
    const stamp = Date.now() % 1_000_000;
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };

    await loginUI(page, admin.email, admin.password);
    await page.goto('/announcements');
    await expect(page.getByTestId('page-title')).toHaveText('Informativos');
    await page.getByTestId('announcements-add').click();
    const dialog = page.getByTestId('announcement-dialog');
    await dialog.getByTestId('announcement-submit').click();
    await expect(dialog.getByText('Obrigatório')).toHaveCount(2);
    await dialog.getByTestId('announcement-title').fill(`Manutenção ${stamp}`);
    await dialog.getByTestId('announcement-text').fill('O sistema para sábado às 22h.');
    await dialog.getByTestId('announcement-priority').click();
    await page.getByTestId('announcement-priority-1').click();
    await dialog.getByTestId('announcement-file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog).toContainText('banner.png');
    await expectAccessible(page, '/announcements dialog');
    await dialog.getByTestId('announcement-submit').click();
    await expectToast(page, 'Informativo salvo com sucesso!');
    const row = page.locator('[data-testid^="announcement-row-"]').filter({ hasText: `Manutenção ${stamp}` });
    await expect(row).toContainText('Alta');
    await expect(row).toContainText('banner.png');
    await expect(row).toContainText('Ativo');
    await page.getByTestId('announcements-search').fill(String(stamp));
    await expect(page.locator('[data-testid^="announcement-row-"]')).toHaveCount(1);
    await expectAccessible(page, '/announcements');

    // A plain user of the super user's company.
    const email = uniqueEmail('bell');
    const password = 'quiet-harbour-bells-4';
    const created = await request.post(`${E2E_API_URL}/users`, { headers, data: { name: `Leitor ${stamp}`, email, password, profile: 'user' } });
    expect(created.status(), await created.text()).toBe(200);
    const active = (await (await request.get(`${E2E_API_URL}/announcements/list`, { headers })).json()) as { id: number; title: string }[];
    const mine = active.find((a) => a.title === `Manutenção ${stamp}`)!;

    const context = await browser.newContext();
    const reader = await context.newPage();
    // This page's copy of the image fails to load: the viewer shows the placeholder instead.
    await reader.route(/\/public\/announcement-[0-9a-f]+\.png$/, (route) => route.fulfill({ status: 404, body: '' }));
    await loginUI(reader, email, password);
    const bell = reader.getByTestId('announcements-bell');
    await expect(bell.getByTestId('announcements-count')).toContainText(String(active.length));

    // Live: one more published now raises the count without a reload.
    const second = await request.post(`${E2E_API_URL}/announcements`, { headers, data: { title: `Novidade ${stamp}`, text: 'Nova tela de relatórios', priority: 2 } });
    expect(second.status(), await second.text()).toBe(200);
    await expect(bell.getByTestId('announcements-count')).toContainText(String(active.length + 1));

    await bell.click();
    await expect(reader.getByTestId(`announcement-item-${mine.id}`)).toHaveAttribute('data-priority', '1');
    await expectAccessible(reader, 'announcements bell');
    await reader.getByTestId(`announcement-item-${mine.id}`).click();
    const viewer = reader.getByTestId('announcement-viewer');
    await expect(viewer).toContainText(`Manutenção ${stamp}`);
    await expect(viewer.getByTestId('announcement-viewer-text')).toHaveText('O sistema para sábado às 22h.');
    await expect(viewer.getByTestId('announcement-viewer-image')).toHaveAttribute('data-broken', 'true');
    await expect(viewer.getByTestId('announcement-viewer-image')).toHaveAttribute('src', /noimage\.png$/);
    await expectAccessible(reader, 'announcement viewer');
    await viewer.getByRole('button', { name: 'Fechar' }).click();

    await reader.goto('/announcements');
    await expectToast(reader, 'Esta empresa não possui permissão para acessar essa página!');
    await expect(reader).not.toHaveURL(/\/announcements$/);
    await expect(reader.getByTestId('announcements-page')).toHaveCount(0);
    await context.close();

    await request.delete(`${E2E_API_URL}/announcements/${((await second.json()) as { id: number }).id}`, { headers });
    await request.delete(`${E2E_API_URL}/announcements/${mine.id}`, { headers });
  });
});
