import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { admin, loginUI } from './helpers';
import { setUpInbox } from './inbox-setup';

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

/**
 * Issue 16: an admin builds a two-level bot in the queue dialog; a customer (the simulator's
 * Messenger webhook) gets the queue menu, walks the bot by number and by text (an option's single
 * sub-option is chosen without asking), and the ticket lands in the option's queue, where its
 * attendant sees it with the bot's log.
 */
test('a two-level bot built in the queue dialog leads a customer into the right queue', async ({ page, browser }) => {
  test.setTimeout(240_000);
  const world = await setUpInbox();
  const { api, queueA, queueB } = world;
  let ticketId: number | undefined;
  // Page 1000001 is shared by the inbox specs: its greeting goes back as it was, or the next spec's customer would get this bot's menu.
  const pages = await api.call<{ id: number; name: string; facebookPageId: string | null; isDefault: boolean; greetingMessage: string }[]>('GET', '/whatsapp');
  const conn = pages.find((p) => p.facebookPageId === '1000001')!;
  try {
    // Page 1000001 offers both queues, so its greeting lists them.
    const greeting = `Olá! Escolha o setor ${queueA.id}:`;
    await api.call('PUT', `/whatsapp/${conn.id}`, { name: conn.name, channel: 'facebook', isDefault: conn.isDefault, greetingMessage: greeting, queueIds: [queueA.id, queueB.id] });

    await loginUI(page, admin.email, admin.password);
    await page.goto('/queues');
    await page.getByTestId(`queue-edit-${queueB.id}`).click();
    const dialog = page.getByTestId('queue-dialog');
    const bot = dialog.getByTestId('bot-editor');
    await dialog.getByTestId('queue-greetingMessage').fill('Setor B: como ajudamos?');
    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('abc');
    await dialog.getByTestId('queue-submit').click();
    await expect(bot).toContainText('Nome muito curto (mínimo 4 caracteres)');
    await bot.getByTestId('bot-option-name').fill('Planos de internet');
    await bot.getByTestId('bot-option-message').fill('Qual assunto dos planos?');
    await bot.getByTestId('bot-add-suboption').click();
    await bot.getByTestId('bot-option-name').fill('Falar com vendas');
    await bot.getByTestId('bot-option-message').fill('Vou te passar para vendas');
    await bot.getByTestId('bot-option-type').click();
    await page.getByTestId('bot-option-type-queue').click();
    await bot.getByTestId('bot-option-queue').click();
    await page.getByTestId(`bot-option-queue-${queueA.id}`).click();
    await expect(bot.getByTestId('bot-option-1.1')).toContainText('Falar com vendas');
    // A second top-level option, so queue B's top level is a menu.
    await bot.getByTestId('bot-add-option').click();
    await bot.getByTestId('bot-option-name').fill('Segunda via de boleto');
    await bot.getByTestId('bot-option-message').fill('A segunda via está no site');
    await expect(bot.getByTestId('bot-option-2')).toContainText('Segunda via de boleto');
    await expect(bot.getByTestId('bot-editor-hint')).toContainText('escolhida automaticamente');
    await dialog.getByTestId('queue-ativarRoteador').click();
    await expectAccessible(page, '/queues bot editor');
    await dialog.getByTestId('queue-submit').click();
    await expectToast(page, 'Bot saved successfully');
    await expect(dialog).toBeHidden();

    // Saved: the tree comes back in the dialog.
    await page.getByTestId(`queue-edit-${queueB.id}`).click();
    await expect(dialog.getByTestId('bot-option-1')).toContainText('Planos de internet');
    await dialog.getByTestId('bot-option-1.1').click();
    await expect(dialog.getByTestId('bot-option-name')).toHaveValue('Falar com vendas');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();

    // The customer walks the bot: queue B by number, the option by its text; its only sub-option is chosen at once.
    const customer = new Customer();
    const sent = async (n: number) => {
      await expect.poll(async () => (await textsSentTo(customer.psid)).length, { timeout: 20_000 }).toBeGreaterThanOrEqual(n);
      return (await textsSentTo(customer.psid))[n - 1]!;
    };
    await customer.says(`Oi ${customer.tag}`);
    // Messenger has no bold: the channel drops the WhatsApp asterisks around the numbers.
    expect(await sent(1)).toBe(`${greeting}\n\n1 - ${queueA.name}\n2 - ${queueB.name}`);
    await customer.says('2');
    expect(await sent(2)).toBe('Setor B: como ajudamos?\n\n1 - Planos de internet\n2 - Segunda via de boleto\n0 - Voltar\n# - Menu inicial');
    await customer.says('planos de internet');
    expect(await sent(3)).toBe('Qual assunto dos planos?');
    expect(await sent(4)).toBe('Vou te passar para vendas');

    // The ticket waits in queue A: its attendant sees it there, with the bot's steps in its log.
    const desk = await browser.newContext({ locale: 'pt-BR' });
    const deskPage = await desk.newPage();
    await loginUI(deskPage, world.attendant1.email, world.attendant1.password);
    await deskPage.getByRole('tablist', { name: 'Status dos atendimentos' }).getByRole('tab', { name: /^Aguardando/ }).click();
    const row = deskPage.getByRole('listitem').filter({ hasText: 'Vou te passar para vendas' });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(queueA.name);
    ticketId = Number(await row.getAttribute('data-ticket-id'));
    await row.getByRole('link').click();
    await deskPage.getByRole('button', { name: 'Mais opções' }).click();
    await deskPage.getByRole('menuitem', { name: 'Logs do ticket' }).click();
    const logs = deskPage.getByRole('dialog');
    await expect(logs).toContainText(`Ticket entrou na fila ${queueB.name}`);
    await expect(logs).toContainText('Atendimento iniciado pelo chatbot');
    await expect(logs).toContainText(`Ticket entrou na fila ${queueA.name}`);
    await expectAccessible(deskPage, 'the ticket log after the bot');
    await desk.close();
  } finally {
    if (ticketId) await api.raw('PUT', `/tickets/${ticketId}`, { status: 'closed' });
    await api.raw('PUT', `/whatsapp/${conn.id}`, { name: conn.name, channel: 'facebook', isDefault: conn.isDefault, greetingMessage: conn.greetingMessage, queueIds: [queueA.id] });
    await api.dispose();
  }
});
