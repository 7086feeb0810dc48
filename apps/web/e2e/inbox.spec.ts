import { test as base, expect, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { loginUI } from './helpers';
import { InboxApi, setUpInbox, type ApiTicket, type Attendant, type InboxWorld } from './inbox-setup';

/**
 * The inbox against the real product with a Meta app (see playwright.config.ts):
 * a customer writes through signed Messenger webhooks, attendants work in the
 * browser, and what the server sends the customer is read back from the fake
 * Graph API. Each test has its own queues, attendants and customer, so earlier
 * tickets stay out of its attendants' lists.
 */
const test = base.extend<{
  world: InboxWorld;
  /** An attendant's own browser session on /tickets (a separate context: their own storage and socket). */
  openInbox: (who: Attendant) => Promise<Page>;
}>({
  // eslint-disable-next-line no-empty-pattern
  world: async ({}, use) => {
    const world = await setUpInbox();
    try {
      await use(world);
    } finally {
      await world.api.dispose();
    }
  },
  openInbox: async ({ browser }, use) => {
    const contexts: BrowserContext[] = [];
    await use(async (who) => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      await loginUI(page, who.email, who.password);
      // Through the menu: the app stays loaded (a page.goto would boot it again).
      await page.getByTestId('side-menu').getByRole('link', { name: 'Atendimentos' }).click();
      await expect(page).toHaveURL(/\/tickets$/);
      await expect(page.getByRole('tablist', { name: 'Status dos atendimentos' })).toBeVisible();
      return page;
    });
    await Promise.all(contexts.map((c) => c.close()));
  },
});

/** Waits until the admin sees a ticket with that status whose last message is `text`. */
async function waitForTicket(api: InboxApi, status: string, text: string): Promise<ApiTicket> {
  await expect.poll(async () => (await api.ticketByLastMessage(status, text)) !== undefined, `a ${status} ticket whose last message is "${text}"`).toBe(true);
  return (await api.ticketByLastMessage(status, text))!;
}

const statusTab = (page: Page, name: 'Atendendo' | 'Aguardando') =>
  page.getByRole('tablist', { name: 'Status dos atendimentos' }).getByRole('tab', { name: new RegExp(`^${name}`) });

/** The row of one ticket in the attendant's list. */
const ticketRow = (page: Page, id: number): Locator => page.locator(`[role="listitem"][data-ticket-id="${id}"]`);

const conversationLog = (page: Page): Locator => page.getByRole('log');

/** A message bubble of the open conversation. */
const bubble = (page: Page, text: string): Locator => conversationLog(page).getByTestId('message').filter({ hasText: text });

async function send(page: Page, text: string): Promise<void> {
  const input = page.getByTestId('composer').getByRole('textbox', { name: 'Mensagem' });
  await input.fill(text);
  await input.press('Enter');
  await expect(input).toHaveValue('');
}

/** Takes a pending ticket from the Aguardando tab of an open inbox: the conversation opens in Atendendo. */
async function acceptFromPending(page: Page, ticket: ApiTicket): Promise<void> {
  await statusTab(page, 'Aguardando').click();
  await ticketRow(page, ticket.id).getByRole('button', { name: /^Aceitar/ }).click();
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await expect(statusTab(page, 'Atendendo')).toHaveAttribute('aria-selected', 'true');
}

/** Writes a private note (the composer's private mode on, then off again: the mode is remembered). */
async function writePrivateNote(page: Page, note: string): Promise<void> {
  const privateToggle = page.getByTestId('composer').getByRole('button', { name: 'Mensagem privada' });
  await privateToggle.click();
  await expect(privateToggle).toHaveAttribute('aria-pressed', 'true');
  await send(page, note);
  const noteBubble = bubble(page, note);
  await expect(noteBubble).toBeVisible();
  await expect(noteBubble).toHaveAttribute('data-private', 'true');
  await expect(noteBubble).toContainText('Mensagem privada');
  await privateToggle.click();
  await expect(privateToggle).toHaveAttribute('aria-pressed', 'false');
}

/** The header's Transferir dialog: a queue, and a user found by the 3-character search when given. */
async function transfer(page: Page, queueName: string, userName?: string): Promise<void> {
  await page.getByTestId('ticket-header').getByRole('button', { name: 'Transferir' }).click();
  const dialog = page.getByRole('dialog', { name: 'Transferir ticket' });
  if (userName) {
    await dialog.getByRole('combobox', { name: 'Usuário' }).fill(userName.slice(0, 5));
    const option = page.getByRole('option', { name: userName });
    await expect(option, `the user search offers ${userName}`).toBeVisible();
    await option.click();
  }
  await dialog.getByRole('combobox', { name: 'Fila' }).click();
  await page.getByRole('option', { name: queueName }).click();
  await dialog.getByRole('button', { name: 'Transferir' }).click();
  await expect(dialog).toBeHidden();
  // Spec 2 §4: afterwards the page goes back to /tickets/.
  await expect(page).toHaveURL(/\/tickets\/?$/);
}

async function resolveWithFarewell(page: Page): Promise<void> {
  await page.getByTestId('ticket-header').getByRole('button', { name: 'Resolver' }).click();
  await page.getByRole('menuitem', { name: 'Resolver com mensagem de despedida' }).click();
}

/**
 * Replies with the attendant's signature: the company signs messages (sendSignMessage) and the composer's toggle starts on.
 * Answers the stored body (WhatsApp markup, shown bold in our view) and what Messenger gets: plain text (issue 12).
 */
async function replySigned(page: Page, who: Attendant, text: string): Promise<{ stored: string; sent: string }> {
  await expect(page.getByTestId('composer').getByRole('button', { name: 'Assinar mensagens' })).toHaveAttribute('aria-pressed', 'true');
  await send(page, text);
  return { stored: `*${who.name}:*\n${text}`, sent: `${who.name}:\n${text}` };
}

test('a customer message becomes a pending ticket in the connection’s queue', async ({ world }) => {
  const customer = new Customer();
  const text = `Oi, preciso de ajuda ${customer.tag}`;
  await customer.says(text);
  const ticket = await waitForTicket(world.api, 'pending', text);
  expect(ticket).toMatchObject({ status: 'pending', queueId: world.queueA.id, userId: null, unreadMessages: 1 });
});

test('from pending to resolved: accept, reply, private note, transfer to attendant 2, resolve with farewell', async ({ world, openInbox }) => {
  test.setTimeout(180_000);
  const { attendant1, attendant2 } = world;
  const customer = new Customer();
  const first = `Oi, quero ajuda ${customer.tag}`;
  const note = `Nota interna ${customer.tag}`;

  // Both attendants already have their inbox open when the customer writes.
  const page1 = await openInbox(attendant1);
  const page2 = await openInbox(attendant2);
  await statusTab(page1, 'Aguardando').click();

  await customer.says(first);
  const ticket = await waitForTicket(world.api, 'pending', first);
  const row = ticketRow(page1, ticket.id);
  await expect(row).toBeVisible();
  await expect(row).toContainText(first);
  await expect(row).toContainText(world.queueA.name);

  // Accept (the ticket already has queue A, the connection's only one: no queue to choose).
  await acceptFromPending(page1, ticket);
  expect(await world.api.ticket(ticket.id)).toMatchObject({ status: 'open', userId: attendant1.id, queueId: world.queueA.id });
  await expect(bubble(page1, first)).toBeVisible();

  // The reply reaches the customer through the Graph API…
  const signed = await replySigned(page1, attendant1, 'Olá, posso ajudar?');
  await expect.poll(() => textsSentTo(customer.psid), 'the reply at the fake Graph API').toEqual([signed.sent]);
  await expect
    .poll(async () => {
      const { messages } = await world.api.call<{ messages: { body: string; ack: number }[] }>('GET', `/messages/${ticket.id}`);
      return messages.find((m) => m.body === signed.stored)?.ack;
    }, 'the reply’s ack on the server')
    .toBe(1);
  // …and its tick in the open conversation turns to "sent" (the send's HTTP answer, read at
  // ack 0, may arrive after the socket's ack update: the tick must not go back).
  const sent = bubble(page1, 'Olá, posso ajudar?');
  await expect(sent).toBeVisible();
  await expect(sent.getByRole('img', { name: 'Enviada' }), 'the reply’s tick shows "sent"').toBeVisible();

  await writePrivateNote(page1, note);

  // To queue B and attendant 2: the ticket leaves attendant 1's list…
  await transfer(page1, world.queueB.name, attendant2.name);
  await expect(ticketRow(page1, ticket.id)).toHaveCount(0);
  expect(await world.api.ticket(ticket.id)).toMatchObject({ status: 'open', userId: attendant2.id, queueId: world.queueB.id });

  // …and shows up, open, in attendant 2's Atendendo tab, which never reloaded.
  await expect(statusTab(page2, 'Atendendo')).toHaveAttribute('aria-selected', 'true');
  const row2 = ticketRow(page2, ticket.id);
  await expect(row2).toBeVisible();
  await expect(row2).toContainText(world.queueB.name);
  await row2.getByRole('link').click();
  await expect(page2).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await expect(bubble(page2, 'Olá, posso ajudar?')).toBeVisible();
  await expect(bubble(page2, note)).toHaveAttribute('data-private', 'true');

  // Resolved with the farewell: the ticket leaves the open list and the customer gets the connection's farewell.
  await resolveWithFarewell(page2);
  await expect(ticketRow(page2, ticket.id)).toHaveCount(0);
  await expect.poll(() => textsSentTo(customer.psid), 'the farewell at the fake Graph API').toEqual([signed.sent, world.farewell]);
  expect(await world.api.ticket(ticket.id)).toMatchObject({ status: 'closed', userId: attendant2.id });
  // The private note never went out (the farewell, sent after it, has arrived).
  expect((await textsSentTo(customer.psid)).filter((t) => t.includes(note))).toEqual([]);
});

test('a transfer to a queue alone puts the ticket back in waiting for that queue’s attendant, who resolves it', async ({ world, openInbox }) => {
  test.setTimeout(180_000);
  const { attendant1, attendant2 } = world;
  const customer = new Customer();
  const first = `Preciso trocar ${customer.tag}`;
  const note = `Passando para a fila B ${customer.tag}`;
  await customer.says(first);
  const ticket = await waitForTicket(world.api, 'pending', first);

  const page1 = await openInbox(attendant1);
  const page2 = await openInbox(attendant2);
  await statusTab(page2, 'Aguardando').click();
  await expect(statusTab(page2, 'Aguardando')).toHaveAttribute('aria-selected', 'true');
  // Queue A's ticket is not attendant 2's to see.
  await expect(page2.getByText('Nada aqui!')).toBeVisible();
  await expect(ticketRow(page2, ticket.id)).toHaveCount(0);

  await acceptFromPending(page1, ticket);
  const signed = await replySigned(page1, attendant1, 'Vou transferir você.');
  await expect.poll(() => textsSentTo(customer.psid), 'the reply at the fake Graph API').toEqual([signed.sent]);
  await writePrivateNote(page1, note);

  // Without a user the ticket waits in queue B (spec 2 §4) and appears live in attendant 2's Aguardando tab.
  await transfer(page1, world.queueB.name);
  await expect(ticketRow(page1, ticket.id)).toHaveCount(0);
  const row2 = ticketRow(page2, ticket.id);
  await expect(row2).toBeVisible();
  await expect(row2).toContainText(world.queueB.name);
  expect(await world.api.ticket(ticket.id)).toMatchObject({ status: 'pending', userId: null, queueId: world.queueB.id });

  await acceptFromPending(page2, ticket);
  await expect(bubble(page2, note)).toHaveAttribute('data-private', 'true');
  await resolveWithFarewell(page2);
  await expect(ticketRow(page2, ticket.id)).toHaveCount(0);
  await expect.poll(() => textsSentTo(customer.psid), 'the farewell at the fake Graph API').toEqual([signed.sent, world.farewell]);
  expect(await world.api.ticket(ticket.id)).toMatchObject({ status: 'closed', userId: attendant2.id });
  expect((await textsSentTo(customer.psid)).filter((t) => t.includes(note))).toEqual([]);
});

test('the customer’s next message arrives live in the open conversation', async ({ world, openInbox }) => {
  const customer = new Customer();
  const first = `Bom dia ${customer.tag}`;
  const second = `Ainda aí? ${customer.tag}`;
  await customer.says(first);
  const ticket = await waitForTicket(world.api, 'pending', first);

  const page = await openInbox(world.attendant1);
  await acceptFromPending(page, ticket);
  await expect(bubble(page, first)).toBeVisible();

  await customer.says(second);
  await expect(bubble(page, second)).toBeVisible();
  // Oldest first: the new message comes after the first one.
  await expect(conversationLog(page).getByTestId('message').last()).toContainText(second);
  await expect(ticketRow(page, ticket.id)).toContainText(second);
});

test('the tab title counts the unread messages of the inbox', async ({ world, openInbox }) => {
  const page = await openInbox(world.attendant1);
  // Fresh queues: nothing unread yet, the title is the app name alone.
  const appName = await page.title();
  expect(appName).not.toMatch(/^[①-⑳(]/);

  const customer = new Customer();
  await customer.says(`Olá ${customer.tag}`);
  await expect(page).toHaveTitle(`① ${appName}`);
  await customer.says(`Tem alguém? ${customer.tag}`);
  await expect(page).toHaveTitle(`② ${appName}`);

  const other = new Customer();
  await other.says(`Oi ${other.tag}`);
  await expect(page).toHaveTitle(`③ ${appName}`);
});

test('a plain user cannot open another user’s ticket by its URL', async ({ world, openInbox }) => {
  const customer = new Customer();
  const text = `Particular ${customer.tag}`;
  await customer.says(text);
  const pending = await waitForTicket(world.api, 'pending', text);

  // Attendant 1 takes it (through the API: this attendant has no page open in this test).
  const attendant1 = await InboxApi.login(world.attendant1);
  try {
    await attendant1.call('PUT', `/tickets/${pending.id}`, { status: 'open', userId: world.attendant1.id, queueId: world.queueA.id });
  } finally {
    await attendant1.dispose();
  }

  // The server refuses it to attendant 2 (queue B)…
  const attendant2 = await InboxApi.login(world.attendant2);
  try {
    const res = await attendant2.raw('GET', `/tickets/u/${pending.uuid}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ error: 'ERR_NO_PERMISSION' });
  } finally {
    await attendant2.dispose();
  }

  // …and the page sends them back to /tickets without showing the conversation.
  const page = await openInbox(world.attendant2);
  const answer = page.waitForResponse((r) => r.url().endsWith(`/tickets/u/${pending.uuid}`));
  await page.goto(`/tickets/${pending.uuid}`);
  expect((await answer).status()).toBe(403);
  await expect(page).toHaveURL(/\/tickets\/?$/);
  await expect(page.getByText('Selecione um atendimento')).toBeVisible();
  await expect(page.getByText(text)).toHaveCount(0);
  await expect(page.getByRole('log')).toHaveCount(0);
});
