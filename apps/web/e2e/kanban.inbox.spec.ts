import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { loginUI } from './helpers';
import { setUpInbox, type ApiTicket } from './inbox-setup';

/** Issue 15: the kanban board (drag with mouse and keyboard, the contact drawer's stage, the opportunity value). */

async function dragWithMouse(page: Page, handle: string, column: string) {
  const from = (await page.getByTestId(handle).boundingBox())!;
  const to = (await page.getByTestId(column).boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 20, from.y + 20, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 15 });
  await page.mouse.up();
}

test('cards move between lanes by mouse, keyboard and the contact drawer, and the value adds up in the column', async ({ page }) => {
  test.setTimeout(150_000);
  const world = await setUpInbox();
  try {
    const customer = new Customer();
    const proposal = await world.api.call<{ id: number; name: string }>('POST', '/tags', { name: `Proposta ${customer.tag}`, kanban: 1, color: '#1976d2' });
    const closing = await world.api.call<{ id: number; name: string }>('POST', '/tags', { name: `Fechamento ${customer.tag}`, kanban: 1, color: '#2e7d32' });
    const text = `Quero comprar ${customer.tag}`;
    await customer.says(text);
    let ticket: ApiTicket | undefined;
    await expect.poll(async () => (ticket = await world.api.ticketByLastMessage('pending', text)) !== undefined).toBe(true);
    const card = `kanban-card-${ticket!.id}`;

    await loginUI(page, world.attendant1.email, world.attendant1.password);
    await page.goto('/Kanban');
    await expect(page.getByTestId('kanban-column-default').getByTestId(card)).toBeVisible();
    await expect(page.getByTestId(`kanban-column-${proposal.id}`)).toContainText(proposal.name);
    await expectAccessible(page, '/Kanban');

    // Mouse: default column → Proposta.
    await dragWithMouse(page, `kanban-card-handle-${ticket!.id}`, `kanban-column-${proposal.id}`);
    await expect(page.getByTestId(`kanban-column-${proposal.id}`).getByTestId(card)).toBeVisible();
    await expect.poll(async () => (await world.api.call<{ tags: { id: number }[] }>('GET', `/tickets/u/${ticket!.uuid}`)).tags.map((t) => t.id)).toEqual([proposal.id]);

    // Keyboard: Proposta → Fechamento (the next column to the right).
    // The board re-renders on the previous move's live event: pick the card up again until the drag has started.
    const handle = page.getByTestId(`kanban-card-handle-${ticket!.id}`);
    await expect(async () => {
      await handle.focus();
      await page.keyboard.press('Space');
      await expect(handle).toHaveAttribute('aria-pressed', 'true', { timeout: 1_000 });
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space');
      await expect(page.getByTestId(`kanban-column-${closing.id}`).getByTestId(card)).toBeVisible({ timeout: 3_000 });
    }).toPass();
    await expect.poll(async () => (await world.api.call<{ tags: { id: number }[] }>('GET', `/tickets/u/${ticket!.uuid}`)).tags.map((t) => t.id)).toEqual([closing.id]);

    // Value: assigned in the dialog, shown on the card and in the column total.
    await page.getByTestId(`kanban-card-value-${ticket!.id}`).click();
    await expect(page.getByRole('dialog', { name: 'Atribuir Valor da Oportunidade' })).toBeVisible();
    await page.getByTestId('kanban-value-input').fill('abc');
    await page.getByTestId('kanban-value-save').click();
    await expect(page.getByRole('dialog')).toContainText('Informe um número');
    await page.getByTestId('kanban-value-input').fill('1234,5');
    await page.getByTestId('kanban-value-save').click();
    await expect(page.getByTestId(card)).toContainText('Valor: R$ 1.234,50');
    await expect(page.getByTestId(`kanban-column-total-${closing.id}`)).toHaveText('Total: R$ 1.234,50');
    await expect(page.getByTestId('kanban-column-total-default')).toHaveText('Total: R$ 0,00');

    // The contact drawer shows the same stage, and moving it there moves the card on the board.
    await page.getByTestId(`kanban-card-open-${ticket!.id}`).click();
    await expect(page).toHaveURL(new RegExp(`/tickets/${ticket!.uuid}$`));
    await page.getByTestId('ticket-header').locator('[aria-description]').click();
    const stage = page.getByTestId('contact-kanban-stage');
    await expect(stage).toHaveText(closing.name);
    await stage.click();
    await page.getByRole('option', { name: proposal.name }).click();
    await expect(stage).toHaveText(proposal.name);
    await page.goto('/Kanban');
    await expect(page.getByTestId(`kanban-column-${proposal.id}`).getByTestId(card)).toBeVisible();
    await expect(page.getByTestId(`kanban-column-total-${proposal.id}`)).toHaveText('Total: R$ 1.234,50');
    await expect(page.getByTestId(`kanban-column-total-${closing.id}`)).toHaveText('Total: R$ 0,00');
    // Leave the shared inbox as found: the next specs walk its waiting tickets.
    await world.api.call('PUT', `/tickets/${ticket!.id}`, { status: 'closed' });
  } finally {
    await world.api.dispose();
  }
});
