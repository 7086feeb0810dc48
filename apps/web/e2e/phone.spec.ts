import { expect, test } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, liftUserLimit, uniqueEmail } from './helpers';

/** The inbox on a phone: what a 360–390 px screen must still show in full. */
test.describe('inbox on a phone', () => {
  for (const width of [360, 390]) {
    test(`queue chips in the queue filter show whole names at ${width} px`, async ({ browser, request }, testInfo) => {
      const token = await apiToken(request, admin.email, admin.password);
      await liftUserLimit(request, token);
      const headers = { Authorization: `Bearer ${token}` };
      const stamp = Date.now() % 100000;
      const names = [`Atendimento ${stamp}`, `Financeiro ${stamp}`, `Suporte ${stamp}`];
      const queueIds: number[] = [];
      for (const [i, name] of names.entries()) {
        const color = `#${((stamp * 7 + i * 4099 + width) % 0xffffff).toString(16).padStart(6, '0')}`;
        const res = await request.post(`${E2E_API_URL}/queue`, { headers, data: { name, color } });
        expect(res.status(), await res.text()).toBe(200);
        queueIds.push(((await res.json()) as { id: number }).id);
      }
      // An admin in the three queues: the filter starts with all three chosen.
      const user = { email: uniqueEmail('phone'), password: 'phone-pass-Q7x' };
      const created = await request.post(`${E2E_API_URL}/users`, { headers, data: { name: `Fone ${stamp}`, ...user, profile: 'admin', queueIds } });
      expect(created.status(), await created.text()).toBe(200);

      const context = await browser.newContext({ viewport: { width, height: 780 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      // The side menu stays folded on a phone: signed in once the login form is gone.
      await page.goto('/login');
      await page.getByTestId('login-email').fill(user.email);
      await page.getByTestId('login-password').fill(user.password);
      await page.getByTestId('login-submit').click();
      await expect(page).toHaveURL(/\/tickets$/);
      const chips = page.locator('#tickets-queue-select-label + .MuiInputBase-root .MuiChip-label');
      await expect(chips.first()).toHaveText(names[0] ?? '');
      // Every chip shows its whole text: nothing cut by an ellipsis or the field's edge.
      const clipped = await chips.evaluateAll((labels) =>
        labels
          .filter((l) => {
            const field = l.closest('.MuiInputBase-root')?.getBoundingClientRect();
            const box = l.getBoundingClientRect();
            return l.scrollWidth > l.clientWidth + 1 || !field || box.right > field.right;
          })
          .map((l) => l.textContent),
      );
      expect(clipped).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`inbox-${width}.png`) });
      await context.close();
      for (const id of queueIds) await request.delete(`${E2E_API_URL}/queue/${id}`, { headers });
    });
  }
});
