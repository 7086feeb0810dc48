import { expect, test } from '@playwright/test';
import { seriousViolations } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

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
  '/campaigns',
  '/contact-lists',
  '/campaigns-config',
];

/** The screens of one record: a contact list's items and a campaign's report (made here, removed after). */
const records: { contactListId?: number; campaignId?: number } = {};

test.beforeAll(async ({ request }) => {
  const headers = { Authorization: `Bearer ${await apiToken(request, admin.email, admin.password)}` };
  const stamp = Date.now() % 1_000_000;
  const list = await request.post(`${E2E_API_URL}/contact-lists`, { headers, data: { name: `Acessível ${stamp}` } });
  expect(list.status(), await list.text()).toBe(200);
  records.contactListId = ((await list.json()) as { id: number }).id;
  const campaign = await request.post(`${E2E_API_URL}/campaigns`, { headers, data: { name: `Acessível ${stamp}`, contactListId: records.contactListId, message1: 'Olá {nome}' } });
  expect(campaign.status(), await campaign.text()).toBe(200);
  records.campaignId = ((await campaign.json()) as { id: number }).id;
});

test.afterAll(async ({ request }) => {
  const headers = { Authorization: `Bearer ${await apiToken(request, admin.email, admin.password)}` };
  if (records.campaignId) await request.delete(`${E2E_API_URL}/campaigns/${records.campaignId}`, { headers });
  if (records.contactListId) await request.delete(`${E2E_API_URL}/contact-lists/${records.contactListId}`, { headers });
});

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
    // The campaign screens exist only with the cshow browser flag (spec 1 §2).
    await page.addInitScript(() => window.localStorage.setItem('cshow', '1'));
    await loginUI(page, admin.email, admin.password);
    const recordRoutes = [`/contact-lists/${records.contactListId}/contacts`, `/campaign/${records.campaignId}/report`];
    for (const path of [...PRIVATE_ROUTES, ...recordRoutes]) {
      await page.goto(path);
      await expect(page.getByTestId('side-menu')).toBeVisible();
      // The screen has rendered its title (or the inbox its tabs) before the scan.
      await expect(page.getByTestId('page-title').or(page.getByRole('tablist')).first()).toBeVisible();
      found.push(...(await seriousViolations(page, path)));
    }
    expect(found).toEqual([]);
  });
}
