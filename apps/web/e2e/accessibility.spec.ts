import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe';
import { admin, loginUI } from './helpers';

/**
 * Issue 12: every screen passes axe-core with no serious or critical violation, in the light and the
 * dark theme. All routes are visited before asserting, so one run lists every problem at once.
 */
const PRIVATE_ROUTES = [
  '/',
  '/tickets',
  '/reports',
  '/moments',
  '/quick-messages',
  '/todolist',
  '/schedules',
  '/tags',
  '/contacts',
  '/contacts/import',
  '/helps',
  '/users',
  '/messages-api',
  '/settings',
  '/webhooks',
  '/queues',
  '/queue-integration',
  '/announcements',
  '/chats',
  '/files',
  '/Kanban',
  '/TagsKanban',
  '/prompts',
  '/connections',
  '/allConnections',
  '/financeiro',
  '/companies',
];

for (const colorScheme of ['light', 'dark'] as const) {
  test(`every screen passes axe in the ${colorScheme} theme`, async ({ page }) => {
    // About 30 screens, each scanned whole, on a shared machine.
    test.setTimeout(600_000);
    await page.emulateMedia({ colorScheme });
    const found: string[] = [];
    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      found.push(...(await seriousViolations(page, path)));
    }
    await loginUI(page, admin.email, admin.password);
    for (const path of PRIVATE_ROUTES) {
      await page.goto(path);
      await expect(page.getByTestId('side-menu')).toBeVisible();
      // The screen has rendered its title (or the inbox its tabs) before the scan.
      await expect(page.getByTestId('page-title').or(page.getByRole('tablist')).first()).toBeVisible();
      found.push(...(await seriousViolations(page, path)));
    }
    expect(found).toEqual([]);
  });
}
