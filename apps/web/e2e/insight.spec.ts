import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

/**
 * Issue 15: a fresh company whose month is known in advance — three tickets an attendant
 * opened today, one of them finished — read on the dashboard, the attendance panel and the report.
 */
test.describe.configure({ timeout: 150_000 });

async function call<T>(request: APIRequestContext, token: string, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
  const res = await request.fetch(`${E2E_API_URL}${path}`, { method, data, headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

interface World {
  owner: { email: string; password: string; name: string };
  ticketIds: number[];
  /** Opens one more ticket of the owner (a new contact), as an attendant would. */
  openAnother: (name: string) => Promise<number>;
}

async function seed(request: APIRequestContext): Promise<World> {
  const stamp = Date.now() % 1e7;
  const root = await apiToken(request, admin.email, admin.password);
  const plans = await call<{ id: number; connections: number; useWhatsapp: boolean }[]>(request, root, 'GET', '/plans/all');
  const plan = plans.find((p) => p.useWhatsapp && p.connections > 0);
  if (!plan) throw new Error('no plan with WhatsApp connections');
  const owner = { email: uniqueEmail('insight'), password: 'insight-owner-pass-9', name: `Dona Insight ${stamp}` };
  await call(request, root, 'POST', '/companies', { name: `Insight ${stamp}`, email: owner.email, password: owner.password, planId: plan.id, adminName: owner.name });
  const token = await apiToken(request, owner.email, owner.password);
  const me = await call<{ id: number }>(request, token, 'GET', '/auth/me');
  const queue = await call<{ id: number }>(request, token, 'POST', '/queue', { name: 'Vendas', color: '#2E7D32' });
  const conn = await call<{ id: number }>(request, token, 'POST', '/whatsapp', { name: 'Loja', channel: 'whatsapp', isDefault: true, queueIds: [queue.id] });
  let n = 0;
  const openAnother = async (name: string) => {
    n += 1;
    const contact = await call<{ id: number }>(request, token, 'POST', '/contacts', { name, number: `5511${stamp}${n}` });
    const ticket = await call<{ id: number }>(request, token, 'POST', '/tickets', { contactId: contact.id, queueId: queue.id, whatsappId: conn.id, userId: me.id, status: 'open' });
    return ticket.id;
  };
  const ticketIds: number[] = [];
  for (const name of ['Carla Compradora', 'Diego Cliente', 'Eva Exigente']) ticketIds.push(await openAnother(name));
  await call(request, token, 'PUT', `/tickets/${ticketIds[2]}`, { status: 'closed', userId: me.id });
  return { owner, ticketIds, openAnother };
}

test('the dashboard shows the fixture’s numbers and both charts; the panel lists the open tickets; the export opens with its header row', async ({ page, request }, testInfo) => {
  const world = await seed(request);
  await loginUI(page, world.owner.email, world.owner.password);

  await page.goto('/');
  const value = (id: string) => page.getByTestId(`indicator-${id}-value`);
  // The first figures wait for the whole page (a busy shared machine); the rest are then there.
  await expect(value('happening')).toHaveText('2', { timeout: 30_000 });
  await expect(value('pending')).toHaveText('0');
  await expect(value('finished')).toHaveText('1');
  await expect(value('groups')).toHaveText('0');
  await expect(value('leads')).toHaveText('3');
  await expect(value('active')).toHaveText('3');
  await expect(value('passive')).toHaveText('0');
  await expect(value('wait-time')).toHaveText('0 min');
  await expect(value('users')).toHaveText(/^\d\/1$/);
  await expect(page.getByTestId('calls-total')).toContainText('3');
  await expect(page.getByTestId('calls-without')).toContainText('3');
  await expect(page.getByTestId('bar-rating-index-value')).toHaveText('0%');
  const ownerRow = page.getByTestId('attendants-table').getByRole('row').filter({ hasText: world.owner.name });
  await expect(ownerRow.getByRole('cell').nth(3)).toHaveText('3');

  // Both charts drew: one bar for the one attendant, the per-day chart with the total in its title.
  await expect(page.getByTestId('chart-users-canvas')).toHaveAttribute('data-points', '1');
  await expect(page.getByTestId('chart-days-title')).toHaveText(/\(3\)$/);
  for (const id of ['chart-users-canvas', 'chart-days-canvas']) {
    const canvas = page.getByTestId(id).locator('canvas');
    await expect(canvas).toBeVisible();
    expect((await canvas.boundingBox())?.height ?? 0).toBeGreaterThan(100);
  }
  // A single day: per hour, 'Das H:00 às H:59'.
  const today = await page.getByTestId('chart-days-filter-to').inputValue();
  await page.getByTestId('chart-days-filter-from').fill(today);
  await page.getByTestId('chart-days-filter-apply').click();
  await expect(page.getByTestId('chart-days-canvas')).toHaveAttribute('data-points', '24');
  await expect(page.getByTestId('chart-days-title')).toHaveText(/\(3\)$/);
  await expectAccessible(page, '/');

  // Without a range the dashboard asks for one.
  await page.getByTestId('dashboard-filter-from').fill('');
  await page.getByTestId('dashboard-filter-apply').click();
  await expect(page.getByTestId('dashboard-unset')).toHaveText('Parametrize o filtro');

  await page.goto('/moments');
  await expect(page.getByTestId('moments-open').getByTestId(/^moment-\d+$/)).toHaveCount(2, { timeout: 30_000 });
  await expect(page.getByTestId(`moment-open-${world.ticketIds[0]}`)).toBeVisible();
  await expectAccessible(page, '/moments');
  // Live: a ticket opened meanwhile shows without a reload.
  const later = await world.openAnother('Fábio Recente');
  await expect(page.getByTestId(`moment-${later}`)).toContainText('Fábio Recente');
  await expect(page.getByTestId('moments-open').getByTestId(/^moment-\d+$/)).toHaveCount(3);

  await page.goto('/reports');
  await expect(page.getByTestId('report-empty')).toHaveText('Aplique um filtro para gerar o relatório', { timeout: 30_000 });
  await page.getByTestId('report-apply').click();
  await expect(page.getByTestId('report-table').getByTestId(/^report-row-/)).toHaveCount(4);
  await expect(page.getByTestId(`report-row-${world.ticketIds[2]}`)).toContainText('Eva Exigente');
  await expectAccessible(page, '/reports');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
  expect(download.suggestedFilename()).toBe('relatorio-de-atendimentos.xlsx');
  const file = testInfo.outputPath('relatorio.xlsx');
  await download.saveAs(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await readFile(file)) as unknown as ArrayBuffer);
  const sheet = book.getWorksheet('RelatorioDeAtendimentos');
  expect(sheet).toBeDefined();
  expect((sheet!.getRow(1).values as unknown[]).slice(1)).toEqual([
    'Conexão',
    'Contato',
    'Usuário',
    'Fila',
    'Status',
    'Última Mensagem',
    'Data/Hora de Abertura',
    'Data/Hora de Fechamento',
    'Tempo de Atendimento',
    'NPS',
  ]);
  expect(sheet!.rowCount).toBe(5);
  expect((sheet!.getRow(2).values as unknown[])[2]).toBe('Fábio Recente');
  expect((sheet!.getRow(3).values as unknown[])[2]).toBe('Eva Exigente');
});
