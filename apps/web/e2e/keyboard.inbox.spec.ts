import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { textsSentTo } from './graph';
import { loginUI } from './helpers';
import { setUpInbox, type InboxWorld } from './inbox-setup';

/**
 * Issue 12 "Also": the inbox and the conversation with the keyboard alone. After the login,
 * every step is a key press: Tab to reach a control, arrows to move through the tickets and
 * menus, Enter to act. Runs on the Meta-enabled instance (file name), as the customer's side.
 */

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement));

/** Presses Tab until `target` has the focus (as a keyboard user would), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, max = 60): Promise<void> {
  for (let i = 0; i < max; i += 1) {
    if ((await target.count()) === 1 && (await isFocused(target))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The focused element shows it: an outline or a changed background (MUI's focus-visible state). */
async function expectVisibleFocus(page: Page): Promise<void> {
  const shown = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return false;
    const style = getComputedStyle(el);
    return el.matches(':focus-visible') && (style.outlineStyle !== 'none' || el.classList.contains('Mui-focusVisible') || style.boxShadow !== 'none');
  });
  expect(shown, 'the focused element is visibly marked').toBe(true);
}

const row = (page: Page, text: string) => page.locator('[role="listitem"]').filter({ hasText: text }).getByRole('link');

let world: InboxWorld;
test.beforeAll(async () => {
  world = await setUpInbox();
});
test.afterAll(async () => {
  await world.api.dispose();
});

test('an attendant moves through the waiting tickets, opens, accepts, replies and resolves with the keyboard only', async ({ page }) => {
  test.setTimeout(180_000);
  const first = new Customer();
  const second = new Customer();
  const firstText = `Primeiro cliente ${first.tag}`;
  const secondText = `Segundo cliente ${second.tag}`;
  // Each ticket settled (its queue set by the connection's behaviours, which touch the ticket) before
  // the next customer writes: the second ticket stays the newest, so the list's order is known.
  const settled = (text: string) => async () => (await world.api.ticketByLastMessage('pending', text))?.queueId;
  await first.says(firstText);
  await expect.poll(settled(firstText)).toBe(world.queueA.id);
  await second.says(secondText);
  await expect.poll(settled(secondText)).toBe(world.queueA.id);

  await loginUI(page, world.attendant1.email, world.attendant1.password);
  await expect(page).toHaveURL(/\/tickets$/);

  // The status tabs: Tab reaches the selected one, the arrows move, Enter selects.
  const tabs = page.getByRole('tablist', { name: 'Status dos atendimentos' });
  await tabTo(page, tabs.getByRole('tab', { selected: true }));
  await expectVisibleFocus(page);
  const waiting = tabs.getByRole('tab', { name: /^Aguardando/ });
  for (let i = 0; i < 4 && !(await isFocused(waiting)); i += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await expect(waiting).toHaveAttribute('aria-selected', 'true');

  // The rows: Tab enters the list, ArrowDown / ArrowUp move from ticket to ticket (newest first).
  const newest = row(page, secondText);
  const older = row(page, firstText);
  await expect(newest).toBeVisible();
  await expect(older).toBeVisible();
  await tabTo(page, newest);
  await expectVisibleFocus(page);
  await page.keyboard.press('ArrowDown');
  await expect(older).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(newest).toBeFocused();
  await page.keyboard.press('ArrowDown');

  // Enter opens the older ticket; the header's Accept takes it.
  await page.keyboard.press('Enter');
  const ticket = (await world.api.ticketByLastMessage('pending', firstText))!;
  await expect(page).toHaveURL(new RegExp(`/tickets/${ticket.uuid}$`));
  await tabTo(page, page.getByRole('button', { name: /^Aceitar$/ }));
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await world.api.ticket(ticket.id)).status).toBe('open');

  // Reply: Tab to the composer, type, Enter sends.
  const answer = `Claro, vamos ver ${first.tag}`;
  const composer = page.getByTestId('composer').getByRole('textbox', { name: 'Mensagem' });
  await tabTo(page, composer);
  await page.keyboard.type(answer);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('log').getByTestId('message').filter({ hasText: answer })).toBeVisible();
  await expectAccessible(page, 'the conversation, by keyboard');

  // Resolve: Enter opens the menu, the arrows reach "with farewell", Enter resolves.
  await tabTo(page, page.getByRole('button', { name: /^Resolver$/ }));
  await expectVisibleFocus(page);
  await page.keyboard.press('Enter');
  const withFarewell = page.getByRole('menuitem', { name: /^Resolver com mensagem de despedida/ });
  await expect(withFarewell).toBeVisible();
  for (let i = 0; i < 3 && !(await isFocused(withFarewell)); i += 1) await page.keyboard.press('ArrowDown');
  await expect(withFarewell).toBeFocused();
  await expectAccessible(page, 'the resolve menu');
  await page.keyboard.press('Enter');
  await expect.poll(async () => (await world.api.ticket(ticket.id)).status).toBe('closed');
  await expect.poll(async () => (await textsSentTo(first.psid)).at(-1), 'the farewell reached the customer').toBe(world.farewell);
  expect((await textsSentTo(first.psid)).some((text) => text.endsWith(answer))).toBe(true);
});
