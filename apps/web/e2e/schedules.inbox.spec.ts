import { expect, test } from '@playwright/test';
import { expectAccessible, watchConsole } from './axe';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { loginUI } from './helpers';
import { answerRemotePictures } from './remote-pictures';
import { setUpInbox, type ApiTicket } from './inbox-setup';

const two = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value with seconds, in the browser's (and this runner's) time zone. */
const localInput = (d: Date) =>
  `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

/**
 * Issue 14: an attendant schedules a message for a Messenger contact from the /schedules
 * calendar; at its time the fake Graph API receives it, and the calendar marks it sent
 * without a reload (the `company{id}-schedule` event).
 */
test('a schedule made on the calendar reaches the customer at its time and shows as sent', async ({ page }) => {
  test.setTimeout(150_000);
  const world = await setUpInbox();
  try {
    const customer = new Customer();
    await customer.says(`Oi, sou o cliente ${customer.tag}`);
    let contact: { id: number; name: string } | undefined;
    await expect
      .poll(async () => {
        const { contacts } = await world.api.call<{ contacts: { id: number; name: string; number: string }[] }>('GET', `/contacts?searchParam=${customer.psid}`);
        contact = contacts.find((c) => c.number === customer.psid);
        return contact !== undefined;
      })
      .toBe(true);

    await answerRemotePictures(page.context());
    await loginUI(page, world.attendant1.email, world.attendant1.password);
    const console = watchConsole(page);
    await page.goto('/schedules');
    await expect(page.getByTestId('schedules-page')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mês' })).toBeVisible();
    await expectAccessible(page, '/schedules');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expectAccessible(page, '/schedules (dark)');
    await page.emulateMedia({ colorScheme: 'light' });

    // `?contactId=` opens the add dialog for that contact.
    await page.goto(`/schedules?contactId=${contact!.id}`);
    const fromQuery = page.getByTestId('schedule-dialog');
    await expect(fromQuery.getByTestId('schedule-contact')).toHaveValue(contact!.name);
    await fromQuery.getByRole('button', { name: 'Fechar' }).click();
    await expect(fromQuery).toBeHidden();

    // From the calendar: add, choose the contact, a message, a time a few seconds ahead.
    await page.getByTestId('schedule-add').click();
    const dialog = page.getByTestId('schedule-dialog');
    await expect(dialog.getByRole('tab', { name: 'Mensagem' })).toBeVisible();
    await expect(dialog.getByRole('tab', { name: 'Configurações' })).toBeVisible();
    // Too short a message is refused with the spec's words.
    await dialog.getByTestId('schedule-body').fill('Oi');
    await dialog.getByTestId('schedule-submit').click();
    await expect(dialog).toContainText('Mensagem muito curta');
    await expect(dialog).toContainText('Obrigatório');

    // Other tests' customers share the name: the option shows the number too.
    await dialog.getByTestId('schedule-contact').fill(contact!.name);
    await page.getByRole('option', { name: `${contact!.name} ${customer.psid}` }).click();
    const text = `Seu boleto vence amanhã ${customer.tag}`;
    await dialog.getByTestId('schedule-body').fill(text);
    await dialog.getByTestId('schedule-tab-settings').click();
    await expect(dialog.getByTestId('schedule-openTicket')).toBeChecked();
    await expectAccessible(page, '/schedules dialog');
    await dialog.getByTestId('schedule-tab-message').click();
    // Half a minute ahead, to the second.
    const sendAt = new Date(Date.now() + 30_000);
    await dialog.getByTestId('schedule-sendAt').fill(localInput(sendAt));
    await dialog.getByTestId('schedule-submit').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Agendamento salvo com sucesso!' })).toBeVisible();
    await expect(dialog).toBeHidden();

    const event = page.locator('[data-testid^="schedule-event-"]').filter({ hasText: contact!.name });
    await expect(event).toHaveAttribute('data-status', 'PENDENTE');
    expect(await textsSentTo(customer.psid)).not.toContain(text);

    // At its time the customer receives it, and the calendar marks it sent.
    await expect.poll(() => textsSentTo(customer.psid), { timeout: 60_000 }).toContain(text);
    await expect(event).toHaveAttribute('data-status', 'ENVIADA', { timeout: 20_000 });
    await expect(event).toContainText('Enviada');

    // It went out on the customer's conversation, whose menu schedules another for the same contact.
    let ticket: ApiTicket | undefined;
    await expect.poll(async () => (ticket = await world.api.ticketByLastMessage('pending', text)) !== undefined).toBe(true);
    await page.goto(`/tickets/${ticket!.uuid}`);
    await page.getByRole('button', { name: 'Mais opções' }).click();
    await page.getByRole('menuitem', { name: 'Agendar mensagem' }).click();
    await expect(page.getByTestId('schedule-dialog').getByTestId('schedule-contact')).toHaveValue(contact!.name);
    console.expectNone();
  } finally {
    await world.api.dispose();
  }
});
