import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The serious and critical axe-core violations of the page as it is now (labels, roles, contrast, focus order), one line each. */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Colours are read as they settle: a dialog still fading in blends its buttons with the backdrop.
  await page.evaluate(() => {
    const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    return Promise.race([Promise.all(finite.map((a) => a.finished.catch(() => undefined))), new Promise((r) => setTimeout(r, 2000))]);
  });
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} (${v.impact}) ${v.nodes.slice(0, 3).map((n) => n.html.slice(0, 160)).join(' | ')}`);
}

/** Fails (softly: the walk goes on, so one run lists the problems of every screen it passes) on serious violations. */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect.soft(await seriousViolations(page, where)).toEqual([]);
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
