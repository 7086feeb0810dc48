import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

test.describe('internal chat', () => {
  const usersToRemove: number[] = [];
  test.afterEach(async ({ request }) => {
    const token = await apiToken(request, admin.email, admin.password);
    for (const id of usersToRemove.splice(0)) await request.delete(`${E2E_API_URL}/users/${id}`, { headers: { Authorization: `Bearer ${token}` } });
  });

  test('two users chat in /chats: the other sees the menu dot and the bell count, reads, replies live; only the owner edits', async ({ page, browser, request }) => {
    test.setTimeout(150_000);
    const stamp = Date.now() % 1_000_000;
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const email = uniqueEmail('chat');
    const password = 'quiet-harbour-chats-7';
    const userName = `Colega ${stamp}`;
    const created = await request.post(`${E2E_API_URL}/users`, { headers, data: { name: userName, email, password, profile: 'user' } });
    expect(created.status(), await created.text()).toBe(200);
    // The company's plan counts users: the colleague goes at the end, so the specs after this one can still add theirs.
    usersToRemove.push(((await created.json()) as { id: number }).id);

    // The colleague is logged in elsewhere before anything happens: what follows reaches it live.
    const context = await browser.newContext();
    const colleague = await context.newPage();
    await loginUI(colleague, email, password);
    await expect(colleague.getByTestId('chats-unread-dot')).toHaveCount(0);

    await loginUI(page, admin.email, admin.password);
    await page.goto('/chats');
    await expect(page.getByTestId('page-title')).toHaveText('Chat Interno');
    await page.getByTestId('chats-add').click();
    const dialog = page.getByTestId('chat-dialog');
    // Save stays disabled until a title and a user exist.
    await expect(dialog.getByTestId('chat-save')).toBeDisabled();
    await dialog.getByTestId('chat-title').fill(`Plantão ${stamp}`);
    await expect(dialog.getByTestId('chat-save')).toBeDisabled();
    await dialog.getByTestId('chat-users').fill(userName);
    await page.getByRole('option', { name: userName }).click();
    await expectAccessible(page, '/chats dialog');
    await dialog.getByTestId('chat-save').click();
    await expectToast(page, 'Conversa salva com sucesso!');
    await expect(page).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);

    // Enter sends a non-empty message; blanks send nothing.
    const input = page.getByTestId('chat-input');
    await input.fill('   ');
    await input.press('Enter');
    await expect(page.locator('[data-testid^="chat-message-"]')).toHaveCount(0);
    await input.fill(`Alguém cobre o turno? ${stamp}`);
    await input.press('Enter');
    await expect(page.locator('[data-testid^="chat-message-"][data-mine="true"]')).toContainText(`Alguém cobre o turno? ${stamp}`);
    await expect(input).toHaveValue('');
    await expectAccessible(page, '/chats');

    // The colleague: the dot in the menu and the count on the bell, live.
    await expect(colleague.getByTestId('chats-unread-dot')).toBeVisible();
    await expect(colleague.getByTestId('chats-bell-count')).toContainText('1');
    await colleague.getByTestId('chats-bell').click();
    await colleague.locator('[data-testid^="chats-bell-item-"]').filter({ hasText: `Plantão ${stamp}` }).click();
    await expect(colleague).toHaveURL(/\/chats\/[0-9a-f-]{36}$/);
    await expect(colleague.locator('[data-testid^="chat-message-"]').filter({ hasText: `Alguém cobre o turno? ${stamp}` })).toBeVisible();
    // Opening it reads it: the dot and the count go.
    await expect(colleague.getByTestId('chats-unread-dot')).toHaveCount(0);
    await expect(colleague.getByTestId('chats-bell')).toHaveAccessibleName('Chat Interno');
    // Not the owner: no edit or delete.
    const item = colleague.locator('[data-testid^="chat-item-"]').filter({ hasText: `Plantão ${stamp}` });
    await expect(item.locator('[data-testid^="chat-edit-"]')).toHaveCount(0);
    await expect(item.locator('[data-testid^="chat-delete-"]')).toHaveCount(0);
    await colleague.getByTestId('chat-input').fill('Eu cubro!');
    await colleague.getByTestId('chat-input').press('Enter');

    // The reply reaches the owner's open chat live, and it is read there at once.
    await expect(page.locator('[data-testid^="chat-message-"][data-mine="false"]')).toContainText('Eu cubro!');
    await expect(page.getByTestId('chats-unread-dot')).toHaveCount(0);

    // Attachments: beyond the limit the file is refused before it is uploaded; an image goes with its caption.
    await page.getByTestId('chat-file-input').setInputFiles({ name: 'enorme.pdf', mimeType: 'application/pdf', buffer: Buffer.alloc(10 * 1024 * 1024 + 1, 1) });
    await expectToast(page, 'O arquivo é grande demais (máximo 10 MB).');
    await expect(page.getByTestId('chat-file-chip')).toHaveCount(0);
    await page.getByTestId('chat-attach').focus();
    await page.getByTestId('chat-file-input').setInputFiles({ name: 'escala.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByTestId('chat-file-chip')).toContainText('escala.png');
    await input.fill(`Escala ${stamp}`);
    await input.press('Enter');
    const withImage = page.locator('[data-testid^="chat-message-"][data-mine="true"]').filter({ hasText: `Escala ${stamp}` });
    await expect(withImage.getByRole('img', { name: 'escala.png' })).toBeVisible();
    await expect(page.getByTestId('chat-file-chip')).toHaveCount(0);
    // The colleague gets it live and sees the picture (fetched with their own token); a document is a link.
    const theirs = colleague.locator('[data-testid^="chat-message-"][data-mine="false"]').filter({ hasText: `Escala ${stamp}` });
    await expect(theirs.getByRole('img', { name: 'escala.png' })).toBeVisible();
    expect(await theirs.getByRole('img', { name: 'escala.png' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(1);
    await colleague.getByTestId('chat-file-input').setInputFiles({ name: 'plantao.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 plantão') });
    await colleague.getByTestId('chat-send').click();
    await expect(page.locator('[data-testid^="chat-message-"][data-mine="false"]').getByRole('link', { name: 'Abrir plantao.pdf' })).toBeVisible();
    await expectAccessible(page, '/chats attachments');

    // The owner deletes it; the colleague's list drops it.
    const ownItem = page.locator('[data-testid^="chat-item-"]').filter({ hasText: `Plantão ${stamp}` });
    await ownItem.locator('[data-testid^="chat-delete-"]').click();
    await page.getByTestId('confirm-ok').click();
    await expectToast(page, 'Conversa excluída com sucesso!');
    await expect(colleague.locator('[data-testid^="chat-item-"]').filter({ hasText: `Plantão ${stamp}` })).toHaveCount(0);
    await context.close();
  });

  test('older messages load when the list is scrolled near its top; narrow screens get the two tabs', async ({ browser, request }) => {
    test.setTimeout(150_000);
    const stamp = Date.now() % 1_000_000;
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const email = uniqueEmail('chat-history');
    const password = 'quiet-harbour-scroll-9';
    const created = await request.post(`${E2E_API_URL}/users`, { headers, data: { name: `Leitora ${stamp}`, email, password, profile: 'user' } });
    expect(created.status(), await created.text()).toBe(200);
    const userId = ((await created.json()) as { id: number }).id;
    usersToRemove.push(userId);
    const chat = await request.post(`${E2E_API_URL}/chats`, { headers, data: { title: `Histórico ${stamp}`, users: [userId] } });
    expect(chat.status(), await chat.text()).toBe(200);
    const { id, uuid } = (await chat.json()) as { id: number; uuid: string };
    for (let i = 1; i <= 45; i += 1) {
      const sent = await request.post(`${E2E_API_URL}/chats/${id}/messages`, { headers, data: { message: `Linha ${i} de ${stamp}` } });
      expect(sent.status()).toBe(200);
    }

    const context = await browser.newContext();
    const reader = await context.newPage();
    await loginUI(reader, email, password);
    await expect(reader.getByTestId('chats-bell-count')).toContainText('45');
    // A phone's width (the side menu, which the login helper waits for, is a closed drawer there).
    await reader.setViewportSize({ width: 390, height: 780 });
    await reader.goto(`/chats/${uuid}`);
    // Narrow: the tabs, on Messages for a chat link.
    await expect(reader.getByTestId('chats-tab-messages')).toHaveAttribute('aria-selected', 'true');
    const list = reader.getByTestId('chat-messages-list');
    await expect(list.getByText(`Linha 45 de ${stamp}`)).toBeVisible();
    await expect(list.getByText(`Linha 25 de ${stamp}`, { exact: true })).toHaveCount(0);
    // Near the top, the page before loads, and the one before that.
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect(list.getByText(`Linha 25 de ${stamp}`, { exact: true })).toHaveCount(1);
    await list.evaluate((el) => (el.scrollTop = 0));
    await expect(list.getByText(`Linha 1 de ${stamp}`, { exact: true })).toHaveCount(1);
    await expect(reader.locator('[data-testid^="chat-message-"]')).toHaveCount(45);
    await reader.getByTestId('chats-tab-chats').click();
    await expect(reader.getByTestId(`chat-item-${id}`)).toContainText(`Linha 45 de ${stamp}`);
    await expectAccessible(reader, '/chats narrow');
    await context.close();
    await request.delete(`${E2E_API_URL}/chats/${id}`, { headers });
  });
});
