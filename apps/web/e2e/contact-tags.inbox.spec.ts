import { expect, test } from '@playwright/test';
import { Customer } from './customer';
import { loginUI } from './helpers';
import { setUpInbox, type ApiTicket, type InboxApi } from './inbox-setup';

/** Issue 12 point 10: what the contact drawer changes shows on the inbox row without a reload. */
test('a tag added in the contact drawer appears on the ticket row at once', async ({ page }) => {
  test.setTimeout(120_000);
  const world = await setUpInbox();
  try {
    const customer = new Customer();
    const text = `Quero um orçamento ${customer.tag}`;
    await customer.says(text);
    let ticket: ApiTicket | undefined;
    const api: InboxApi = world.api;
    await expect.poll(async () => (ticket = await api.ticketByLastMessage('pending', text)) !== undefined).toBe(true);

    await loginUI(page, world.attendant1.email, world.attendant1.password);
    await page.getByTestId('side-menu').getByRole('link', { name: 'Atendimentos' }).click();
    await page.getByRole('tablist', { name: 'Status dos atendimentos' }).getByRole('tab', { name: /^Aguardando/ }).click();
    const row = page.locator(`[role="listitem"][data-ticket-id="${ticket!.id}"]`);
    await row.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/tickets/${ticket!.uuid}$`));

    await page.getByTestId('ticket-header').locator('[aria-description]').click();
    const tagName = `Orçamento ${customer.tag}`;
    await expect(row).not.toContainText(tagName);
    await page.getByTestId('contact-tags-input').fill(tagName);
    await page.getByRole('option', { name: `Criar tag "${tagName}"` }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Tags do contato atualizadas' })).toBeVisible();
    await expect(row).toContainText(tagName);
  } finally {
    await world.api.dispose();
  }
});
