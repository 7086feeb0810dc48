import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI } from './helpers';

/** The admin's API headers and a way to put one company setting back as it was. */
async function settingsApi(request: APIRequestContext) {
  const headers = { Authorization: `Bearer ${await apiToken(request, admin.email, admin.password)}` };
  const read = async (column: string) => {
    const res = await request.get(`${E2E_API_URL}/companySettingOne?column=${column}`, { headers });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as Record<string, string>)[column]!;
  };
  const write = async (column: string, data: string) => {
    const res = await request.put(`${E2E_API_URL}/companySettings`, { headers, data: { column, data } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  return { headers, read, write };
}

test.describe('/settings', () => {
  test("the options tab saves the bot's language and shows it after a reload", async ({ page, request }) => {
    const api = await settingsApi(request);
    const previous = await api.read('botLanguage');
    await api.write('botLanguage', 'pt-BR');
    try {
      await loginUI(page, admin.email, admin.password);
      await page.goto('/settings');
      const field = page.getByTestId('setting-botLanguage');
      await expect(field).toContainText('Português (Brasil)');
      await field.click();
      await page.getByTestId('setting-botLanguage-en').click();
      await page.getByTestId('settings-options-submit').click();
      await expect(page.getByTestId('toast').first()).toBeVisible();
      await expect.poll(() => api.read('botLanguage')).toBe('en');
      await page.reload();
      await expect(page.getByTestId('setting-botLanguage')).toContainText('English');
    } finally {
      await api.write('botLanguage', previous);
    }
  });

  test('with scheduleType company, the schedules tab saves a weekday and shows it after a reload', async ({ page, request }) => {
    const api = await settingsApi(request);
    const previousType = await api.read('scheduleType');
    const me = (await (await request.get(`${E2E_API_URL}/auth/me`, { headers: api.headers })).json()) as { companyId: number };
    const companyUrl = `${E2E_API_URL}/companies/${me.companyId}`;
    const before = (await (await request.get(companyUrl, { headers: api.headers })).json()) as { schedules: unknown };
    await api.write('scheduleType', 'company');
    try {
      await loginUI(page, admin.email, admin.password);
      await page.goto('/settings');
      await page.getByTestId('settings-tab-schedules').click();
      await expect(page.getByTestId('hours-editor')).toBeVisible();
      await page.getByTestId('hours-tuesday-startTimeA').fill('07:15');
      await page.getByTestId('hours-tuesday-endTimeB').fill('19:45');
      await page.getByTestId('hours-submit').click();
      await expect(page.getByTestId('toast').filter({ hasText: 'Horários atualizados com sucesso.' })).toBeVisible();
      await page.reload();
      await expect(page.getByTestId('hours-tuesday-startTimeA')).toHaveValue('07:15');
      await expect(page.getByTestId('hours-tuesday-endTimeB')).toHaveValue('19:45');
      const saved = (await (await request.get(companyUrl, { headers: api.headers })).json()) as { schedules: { weekdayEn: string; startTimeA: string; endTimeB: string }[] };
      expect(saved.schedules.find((d) => d.weekdayEn === 'tuesday')).toMatchObject({ startTimeA: '07:15', endTimeB: '19:45' });
    } finally {
      await request.put(`${companyUrl}/schedules`, { headers: api.headers, data: { schedules: before.schedules } });
      await api.write('scheduleType', previousType);
    }
  });
});
