import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { E2E_ADMIN_EMAIL, E2E_ADMIN_PASSWORD, E2E_API_URL } from './env';

export const admin = { email: E2E_ADMIN_EMAIL, password: E2E_ADMIN_PASSWORD };

/** Logs in through the login page and waits for the shell. */
export async function loginUI(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('side-menu')).toBeVisible();
}

/** An access token straight from the API (for setting up data). */
export async function apiToken(request: APIRequestContext, email: string, password: string): Promise<string> {
  const res = await request.post(`${E2E_API_URL}/auth/login`, { data: { email, password } });
  expect(res.status(), await res.text()).toBe(200);
  const body = (await res.json()) as { token: string };
  return body.token;
}

/** The specs of this server share one company: lift its plan's user limit so each spec can add the users it needs. */
export function liftUserLimit(request: APIRequestContext, token: string): Promise<void> {
  return liftPlanLimits(request, token, { users: 10_000 });
}

/** Raises limits of the shared company's plan (users, queues…) for the records a spec adds. */
export async function liftPlanLimits(request: APIRequestContext, token: string, limits: Record<string, number>): Promise<void> {
  const headers = { Authorization: `Bearer ${token}` };
  const me = await request.get(`${E2E_API_URL}/auth/me`, { headers });
  const { company } = (await me.json()) as { company: { plan: { id: number } } };
  const lifted = await request.put(`${E2E_API_URL}/plans/${company.plan.id}`, { headers, data: limits });
  expect(lifted.status(), await lifted.text()).toBe(200);
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.test`;
}

/** Opens the drawer when the user's defaultMenu left it closed, so labels are visible. */
export async function openDrawer(page: Page): Promise<void> {
  const drawer = page.getByTestId('drawer');
  if ((await drawer.getAttribute('data-open')) === 'false') await page.getByTestId('menu-toggle').click();
  await expect(drawer).toHaveAttribute('data-open', 'true');
}
