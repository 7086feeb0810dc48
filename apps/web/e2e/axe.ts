import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Fails on serious or critical axe-core violations of the page as it is now (labels, roles, contrast, focus order). */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  // Soft: the walk goes on, so one run lists the problems of every screen it passes.
  expect.soft(serious, `axe on ${where}`).toEqual([]);
}

/** Collects console errors and uncaught page errors; `expectNone` fails listing them. */
export function watchConsole(page: Page): { errors: string[]; expectNone: () => void } {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return { errors, expectNone: () => expect.soft(errors, 'console errors').toEqual([]) };
}
