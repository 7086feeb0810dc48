import { expect, test } from '@playwright/test';
import { expectAccessible, watchConsole } from './axe';
import { textsSentTo } from './graph';
import { admin, loginUI } from './helpers';
import { setUpInbox } from './inbox-setup';
import { answerRemotePictures } from './remote-pictures';

/**
 * Issue 17: an admin reads the /messages-api page and sends a text from its test form with
 * the token of the Facebook connection; the fake Graph API receives it and the inbox shows
 * the new conversation waiting.
 */
test('a message sent from the /messages-api test form reaches the customer and shows in the inbox', async ({ page }) => {
  test.setTimeout(120_000);
  const world = await setUpInbox();
  const connections = await world.api.call<{ facebookPageId: string | null; token?: string }[]>('GET', '/whatsapp');
  const token = connections.find((c) => c.facebookPageId === '1000001')?.token;
  expect(token).toBeTruthy();
  await world.api.dispose();
  const psid = `39${Date.now() % 1e9}`;
  const text = `Seu pedido saiu para entrega ${psid}`;

  await answerRemotePictures(page.context());
  await loginUI(page, admin.email, admin.password);
  const console = watchConsole(page);
  await page.goto('/messages-api');
  await expect(page.getByTestId('page-title')).toHaveText('API de Mensagens');
  await expect(page.getByTestId('example-json')).toContainText("-H 'Authorization: Bearer SEU_TOKEN'");
  await expect(page.getByTestId('example-media')).toContainText("-F 'medias=@");
  await expectAccessible(page, '/messages-api');

  console.expectNone();
  // An unknown token is refused with a toast, and nothing is sent.
  const form = page.getByTestId('messages-api-test');
  await form.getByTestId('api-token').fill('not-a-connection-token');
  await form.getByTestId('api-number').fill(psid);
  await form.getByTestId('api-body').fill(text);
  await form.getByTestId('api-send').click();
  await expect(page.getByTestId('toast').filter({ hasText: /sess|ERR_SESSION_EXPIRED/i })).toBeVisible();

  await form.getByTestId('api-token').fill(token!);
  await form.getByTestId('api-send').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Mensagem enviada com sucesso' })).toBeVisible();
  await expect.poll(() => textsSentTo(psid), { timeout: 30_000 }).toContain(text);
  expect(await textsSentTo(psid)).toHaveLength(1);

  await page.goto('/tickets');
  const tabs = page.getByRole('tablist', { name: 'Status dos atendimentos' });
  await tabs.getByRole('tab', { name: /^Aguardando/ }).click();
  await expect(page.getByRole('listitem').filter({ hasText: psid })).toHaveCount(1);
  // The browser logs the refused call; nothing else went wrong.
  expect(console.errors).toEqual(['Failed to load resource: the server responded with a status of 403 (Forbidden)']);
});
