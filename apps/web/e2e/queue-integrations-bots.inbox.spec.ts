import { expect, test, type Locator, type Page } from '@playwright/test';
import { FakeTypebot } from '../../server/test/fakes/typebot-server';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { fakeDialogflowKey, teachIntent } from './dialogflow';
import { textsSentTo } from './graph';
import { admin, loginUI } from './helpers';
import { setUpInbox, type ApiTicket, type InboxApi } from './inbox-setup';

/**
 * Issue 16, the bots of /queue-integration at run time, on the connection of Page 1000002 (no queues
 * and no integration between specs: every test puts it back so). Typebot is a local fake of its public
 * chat API started here (the integration's urlN8N); Dialogflow is the fake served beside the fake
 * Graph API (DIALOGFLOW_API_URL in playwright.config.ts). The customer is the simulator's webhook.
 */

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

/** The Page 1000002 connection's id. */
async function secondPage(api: InboxApi): Promise<number> {
  const connections = await api.call<{ id: number; facebookPageId: string | null }[]>('GET', '/whatsapp');
  const connection = connections.find((c) => c.facebookPageId === '1000002');
  expect(connection, 'the Page 1000002 connection').toBeDefined();
  return connection!.id;
}

/** The texts sent to the customer once there are at least `n`; answers the n-th. */
async function nthSent(customer: Customer, n: number): Promise<string> {
  await expect.poll(async () => (await textsSentTo(customer.psid)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(n);
  return (await textsSentTo(customer.psid))[n - 1]!;
}

/** Adds an integration in the /queue-integration dialog (already filled by `fill`) and answers its id. */
async function addIntegration(page: Page, api: InboxApi, name: string, fill: (dialog: Locator) => Promise<void>): Promise<number> {
  await page.goto('/queue-integration');
  await page.getByTestId('queue-integrations-add').click();
  const dialog = page.getByTestId('queue-integration-dialog');
  await dialog.getByTestId('integration-name').fill(name);
  await fill(dialog);
  await dialog.getByTestId('integration-submit').click();
  await expectToast(page, 'Integração adicionada com sucesso.');
  const { queueIntegrations } = await api.call<{ queueIntegrations: { id: number; name: string }[] }>('GET', `/queueIntegration/?searchParam=${encodeURIComponent(name)}&pageNumber=1`);
  const found = queueIntegrations.find((i) => i.name === name);
  expect(found, name).toBeDefined();
  return found!.id;
}

/** A Typebot integration on the fake's address (flow `vendas`), added in the dialog. */
function addTypebot(page: Page, api: InboxApi, name: string, typebot: FakeTypebot): Promise<number> {
  return addIntegration(page, api, name, async (dialog) => {
    await dialog.getByTestId('integration-type').click();
    await page.getByRole('option', { name: 'Typebot' }).click();
    await dialog.getByTestId('integration-urlN8N').fill(typebot.url);
    await dialog.getByTestId('integration-typebotSlug').fill('vendas');
    await dialog.getByTestId('integration-typebotDelayMessage').fill('100');
  });
}

/** What a test made on the shared inbox company, undone in its `finally`. */
interface Made {
  connectionId: number;
  queueId?: number;
  integrationId?: number;
  ticket?: ApiTicket;
}

async function undo(api: InboxApi, made: Made): Promise<void> {
  await api.raw('PUT', `/whatsapp/${made.connectionId}`, { queueIds: [], integrationId: null });
  if (made.ticket) await api.raw('PUT', `/tickets/${made.ticket.id}`, { status: 'closed' });
  if (made.queueId) await api.raw('DELETE', `/queue/${made.queueId}`);
  if (made.integrationId) await api.raw('DELETE', `/queueIntegration/${made.integrationId}`);
  await api.dispose();
}

/** Waits for the pending ticket whose last message is the bot's `reply` (kept in `made` for `undo`), opens it and sees both sides. */
async function openAnsweredTicket(page: Page, api: InboxApi, made: Made, said: string, reply: string): Promise<ApiTicket> {
  await expect.poll(async () => (made.ticket = await api.ticketByLastMessage('pending', reply)) !== undefined, { timeout: 30_000 }).toBe(true);
  await page.goto(`/tickets/${made.ticket!.uuid}`);
  await expect(page.getByText(said).first()).toBeVisible();
  await expect(page.getByText(reply).first()).toBeVisible();
  return made.ticket!;
}

test('a queue whose bot option hands over to a Typebot relays the customer to the bot and back', async ({ page }) => {
  test.setTimeout(240_000);
  const typebot = await FakeTypebot.start();
  const world = await setUpInbox();
  const { api } = world;
  const connectionId = await secondPage(api);
  const customer = new Customer('1000002');
  const color = `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0')}`;
  const queue = await api.call<{ id: number; name: string }>('POST', '/queue', { name: `Fila robô ${customer.tag}`, color, greetingMessage: 'Bem-vindo ao robô' });
  const made: Made = { connectionId, queueId: queue.id };
  try {
    await loginUI(page, admin.email, admin.password);
    const name = `Typebot ${customer.tag}`;
    made.integrationId = await addTypebot(page, api, name, typebot);

    // The queue's only option hands the conversation to the Typebot, found by its name.
    await page.goto('/queues');
    await page.getByTestId(`queue-edit-${queue.id}`).click();
    const dialog = page.getByTestId('queue-dialog');
    const bot = dialog.getByTestId('bot-editor');
    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('Falar com o robô');
    await bot.getByTestId('bot-option-message').fill('Conectando ao robô');
    await bot.getByTestId('bot-option-type').click();
    await page.getByTestId('bot-option-type-integration').click();
    await bot.getByTestId('bot-option-integration').fill(name);
    await page.getByTestId(`bot-option-integration-${made.integrationId}`).click();
    await dialog.getByTestId('queue-submit').click();
    await expectToast(page, 'Bot saved successfully');

    await api.call('PUT', `/whatsapp/${connectionId}`, { queueIds: [queue.id], integrationId: null });
    await customer.says(`Oi ${customer.tag}`);
    // The queue's only option is not asked (docs/chatbots.md): its message follows the greeting at once.
    expect(await nthSent(customer, 1)).toBe('Bem-vindo ao robô');
    expect(await nthSent(customer, 2)).toBe('Conectando ao robô');

    // From here the Typebot answers: its greeting, its picture, its choices; then the chosen reply.
    await customer.says('quero comprar');
    await expect.poll(() => textsSentTo(customer.psid), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Olá! Escolha:', '1 - Vendas\n2 - Suporte']));
    await customer.says('1');
    const reply = 'Você escolheu Vendas';
    await expect.poll(() => textsSentTo(customer.psid), { timeout: 30_000 }).toContain(reply);
    // (A relay retried on a slow machine may repeat a call: the order is what matters.)
    expect(typebot.calls[0]).toEqual({ kind: 'start', target: 'vendas', text: 'quero comprar' });
    expect(typebot.calls.at(-1)).toEqual(expect.objectContaining({ kind: 'continue', text: '1' }));

    const ticket = await openAnsweredTicket(page, api, made, 'quero comprar', reply);
    expect(ticket.queueId).toBe(queue.id);
  } finally {
    await undo(api, made);
    await typebot.close();
  }
});

test("a queue's own Integration (queue dialog) takes the connection's only queue: the customer's first message goes to the Typebot", async ({ page }) => {
  test.setTimeout(240_000);
  const typebot = await FakeTypebot.start();
  const world = await setUpInbox();
  const { api } = world;
  const connectionId = await secondPage(api);
  const customer = new Customer('1000002');
  const color = `#${Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0')}`;
  const queue = await api.call<{ id: number; name: string }>('POST', '/queue', { name: `Fila typebot ${customer.tag}`, color, greetingMessage: 'Fila com robô' });
  const made: Made = { connectionId, queueId: queue.id };
  try {
    await loginUI(page, admin.email, admin.password);
    const name = `Typebot da fila ${customer.tag}`;
    made.integrationId = await addTypebot(page, api, name, typebot);

    await page.goto('/queues');
    await page.getByTestId(`queue-edit-${queue.id}`).click();
    const dialog = page.getByTestId('queue-dialog');
    await dialog.getByTestId('queue-integrationId').fill(name);
    await page.getByTestId(`queue-integrationId-${made.integrationId}`).click();
    await expect(dialog.getByTestId('queue-integrationId')).toHaveValue(name);
    await dialog.getByTestId('queue-submit').click();
    await expect(dialog).toBeHidden();

    await api.call('PUT', `/whatsapp/${connectionId}`, { queueIds: [queue.id], integrationId: null });
    const first = `Oi ${customer.tag}`;
    await customer.says(first);
    expect(await nthSent(customer, 1)).toBe('Fila com robô');
    await expect.poll(() => textsSentTo(customer.psid), { timeout: 30_000 }).toEqual(expect.arrayContaining(['Olá! Escolha:', '1 - Vendas\n2 - Suporte']));
    expect(typebot.calls).toEqual([{ kind: 'start', target: 'vendas', text: first }]);
    await customer.says('1');
    const reply = 'Você escolheu Vendas';
    await expect.poll(() => textsSentTo(customer.psid), { timeout: 30_000 }).toContain(reply);

    const ticket = await openAnsweredTicket(page, api, made, first, reply);
    expect(ticket.queueId).toBe(queue.id);
  } finally {
    await undo(api, made);
    await typebot.close();
  }
});

test('a Dialogflow integration chosen in the connection dialog answers the customer', async ({ page }) => {
  test.setTimeout(240_000);
  const world = await setUpInbox();
  const { api } = world;
  const connectionId = await secondPage(api);
  const customer = new Customer('1000002');
  const question = `horario ${customer.tag}`;
  const answer = `Abrimos às 8h (${customer.tag})`;
  await teachIntent('olá', { displayName: 'Default Welcome Intent', replies: ['Olá! Sou o agente de testes.'] });
  await teachIntent(question, { displayName: 'Horário', replies: [answer] });
  const made: Made = { connectionId };
  try {
    await loginUI(page, admin.email, admin.password);
    const name = `Dialogflow ${customer.tag}`;
    const key = await fakeDialogflowKey();
    made.integrationId = await addIntegration(page, api, name, async (dialog) => {
      await dialog.getByTestId('integration-projectName').fill('balcao-test');
      await dialog.getByTestId('integration-jsonContent').fill(key);
      // The Test button asks the agent "Olá" with these settings.
      await dialog.getByTestId('integration-test').click();
      await expectToast(page, 'Teste realizado com sucesso: Olá! Sou o agente de testes.');
    });

    // The connection's integration, searched by name in the connection dialog.
    await page.goto('/connections');
    await page.getByTestId(`connection-row-${connectionId}`).getByTestId('connection-edit').click();
    const dialog = page.getByTestId('connection-dialog');
    await dialog.getByTestId('connection-tab-integrations').click();
    await dialog.getByTestId('cf-integrationId').fill(name);
    await page.getByTestId(`cf-integrationId-${made.integrationId}`).click();
    await expect(dialog.getByTestId('cf-integrationId')).toHaveValue(name);
    await expectAccessible(page, 'connection dialog: integration chosen');
    await dialog.getByTestId('connection-save').click();
    await expectToast(page, 'Conexão salva com sucesso.');
    await expect.poll(async () => (await api.call<{ integrationId: number | null }>('GET', `/whatsapp/${connectionId}`)).integrationId).toBe(made.integrationId);

    await customer.says(question);
    expect(await nthSent(customer, 1)).toBe(answer);
    await openAnsweredTicket(page, api, made, question, answer);
  } finally {
    await undo(api, made);
  }
});
