import { expect, test, type APIRequestContext, type Page, type WebSocketRoute } from '@playwright/test';
import { expectAccessible } from './axe';
import { E2E_API_URL } from './env';
import { admin, apiToken, loginUI, uniqueEmail } from './helpers';

/**
 * The connections screens against the real product. No phone can scan a QR code
 * here, so the session updates a paired phone would cause are played into the
 * browser's socket: the page's socket.io websocket goes through a route that
 * forwards everything both ways, can hold back the server's own connection
 * events (its Baileys session cannot reach WhatsApp from this machine), and
 * injects `company-{id}-whatsappSession` frames as the server would send them.
 */
class SocketTap {
  private route: WebSocketRoute | null = null;
  /** Resolves once the current company socket has upgraded to the websocket. */
  private ready: Promise<void> = new Promise(() => undefined);
  /** When false, the server's whatsapp/whatsappSession events are held back. */
  passConnectionEvents = true;

  async attach(page: Page): Promise<void> {
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      const server = ws.connectToServer();
      // The company socket carries the user in its query; the public namespace's does not.
      const company = new URL(ws.url()).searchParams.has('userId');
      let upgraded = () => undefined as void;
      if (company) {
        this.route = ws;
        this.ready = new Promise<void>((resolve) => (upgraded = resolve));
      }
      ws.onMessage((message) => {
        server.send(message);
        // engine.io "5" = upgrade done: frames may now be injected on this transport.
        if (message === '5') upgraded();
      });
      server.onMessage((message) => {
        if (!this.passConnectionEvents && typeof message === 'string' && /^42\/\d+,\["company-\d+-whatsapp(Session)?"/.test(message)) return;
        ws.send(message);
      });
    });
  }

  /** Sends one socket.io event to the page on the company namespace. */
  async emit(companyId: number, event: string, payload: unknown): Promise<void> {
    await this.ready;
    if (!this.route) throw new Error('socket not routed');
    this.route.send(`42/${companyId},${JSON.stringify([event, payload])}`);
  }

  session(companyId: number, session: { id: number; status: string; qrcode: string; retries?: number; number?: string }) {
    return this.emit(companyId, `company-${companyId}-whatsappSession`, {
      action: 'update',
      session: { retries: 0, number: '', ...session },
    });
  }
}

async function me(request: APIRequestContext, token: string): Promise<{ companyId: number; company: { name: string } }> {
  const res = await request.get(`${E2E_API_URL}/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as { companyId: number; company: { name: string } };
}

async function listConnections(request: APIRequestContext, token: string): Promise<{ id: number; name: string; isDefault: boolean }[]> {
  const res = await request.get(`${E2E_API_URL}/whatsapp/?session=0`, { headers: { Authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { id: number; name: string; isDefault: boolean }[];
}

async function removeAllConnections(request: APIRequestContext, token: string): Promise<void> {
  const list = await listConnections(request, token);
  // Non-default first: the default goes only when it is the last one.
  for (const c of [...list].sort((a, b) => Number(a.isDefault) - Number(b.isDefault))) {
    await request.delete(`${E2E_API_URL}/whatsapp/${c.id}`, { headers: { Authorization: `Bearer ${token}` } });
  }
}

async function openAddWhatsapp(page: Page): Promise<void> {
  await page.getByTestId('connections-add').click();
  await page.getByTestId('connections-add-whatsapp').click();
  await expect(page.getByTestId('connection-dialog')).toBeVisible();
}

/** The admin signed in on /connections, their socket routed through a tap that holds back the server's own session events. */
async function adminWithTap(page: Page, request: APIRequestContext): Promise<{ companyId: number; tap: SocketTap }> {
  const { companyId } = await me(request, await apiToken(request, admin.email, admin.password));
  const tap = new SocketTap();
  tap.passConnectionEvents = false;
  await tap.attach(page);
  await loginUI(page, admin.email, admin.password);
  await page.goto('/connections');
  return { companyId, tap };
}

const QR_A = 'https://wa.me/settings/linked_devices#2@e2eFirstQrCodeValue,AbCdEf0123456789==,GhIjKl==,MnOpQr==';
const QR_B = 'https://wa.me/settings/linked_devices#2@e2eSecondQrCodeValue,ZyXwVu9876543210==,TsRqPo==,NmLkJi==';

test.describe('connections', () => {
  test.describe.configure({ timeout: 120_000 });

  test.beforeEach(async ({ request }) => {
    await removeAllConnections(request, await apiToken(request, admin.email, admin.password));
  });

  test('a new WhatsApp connection shows its QR code from a session update and turns CONNECTED live', async ({ page, request }, testInfo) => {
    const { companyId, tap } = await adminWithTap(page, request);
    await expect(page.getByTestId('page-title')).toHaveText('Conexões (0)');
    await expect(page.getByTestId('list-empty')).toBeVisible();

    await openAddWhatsapp(page);
    await expect(page.getByTestId('cf-token')).toHaveValue(/^[A-Za-z0-9]{30}$/);
    await page.getByTestId('cf-name').fill('Linha principal');
    await page.getByTestId('connection-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Conexão salva com sucesso.' })).toBeVisible();
    await expect(page.getByTestId('connection-dialog')).toBeHidden();

    const row = page.locator('[data-testid^="connection-row-"][data-name="Linha principal"]');
    await expect(row).toBeVisible();
    await expect(page.getByTestId('page-title')).toHaveText('Conexões (1)');
    const id = Number((await row.getAttribute('data-testid'))?.replace('connection-row-', ''));
    expect(id).toBeGreaterThan(0);
    await expect(row.getByTestId('connection-default')).toBeVisible();

    // The phone's part: WhatsApp hands the session a QR code.
    await tap.session(companyId, { id, status: 'qrcode', qrcode: QR_A, retries: 1 });
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'qrcode');
    await row.getByTestId('connection-qr-button').click();
    const dialog = page.getByTestId('qrcode-dialog');
    await expect(dialog).toBeVisible();
    const image = dialog.getByTestId('qrcode-image');
    await expect(image).toHaveAttribute('data-value', QR_A);
    await expect(image.locator('svg path').first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('qrcode-dialog.png') });

    // A new QR code for the same session refreshes the dialog.
    await tap.session(companyId, { id, status: 'qrcode', qrcode: QR_B, retries: 2 });
    await expect(image).toHaveAttribute('data-value', QR_B);
    // An update for another session leaves it alone.
    await tap.session(companyId, { id: id + 1000, status: 'CONNECTED', qrcode: '' });
    await expect(image).toHaveAttribute('data-value', QR_B);

    // Scanned: the update arrives with an empty QR code, the dialog closes, the row is CONNECTED.
    await tap.session(companyId, { id, status: 'CONNECTED', qrcode: '', number: '5511912345678' });
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
    await expect(row.getByTestId('connection-number')).toHaveText('5511912345678');
    await expect(row.getByTestId('connection-disconnect')).toBeVisible();

    // History import progress arrives on importMessages-{companyId}.
    await tap.emit(companyId, `importMessages-${companyId}`, {
      action: 'update',
      status: { this: 5, all: 10, date: new Date().toISOString(), percent: 50 },
      whatsappId: id,
    });
    await expect(row.getByTestId('connection-import-progress')).toContainText('5 de 10 mensagens importadas');
    await page.screenshot({ path: testInfo.outputPath('connections-connected.png') });

    // Other statuses and their buttons.
    await tap.session(companyId, { id, status: 'OPENING', qrcode: '' });
    await expect(row.getByTestId('connection-connecting')).toBeDisabled();
    await tap.session(companyId, { id, status: 'TIMEOUT', qrcode: '' });
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'TIMEOUT');
    await expect(row.getByTestId('connection-disconnect')).toBeVisible();
    await tap.session(companyId, { id, status: 'CONNECTED', qrcode: '' });

    // Disconnect needs a confirmation; the server's own DISCONNECTED event now reaches the page.
    tap.passConnectionEvents = true;
    await row.getByTestId('connection-disconnect').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Você precisará ler o QR Code novamente.');
    await page.getByTestId('confirm-ok').click();
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'DISCONNECTED');
    await expect(row.getByTestId('connection-try-again')).toBeVisible();
    await expect(row.getByTestId('connection-new-qr')).toBeVisible();

    // Delete needs a confirmation too.
    await row.getByTestId('connection-delete').click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await page.getByTestId('confirm-cancel').click();
    await expect(row).toBeVisible();
    await row.getByTestId('connection-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Conexão excluída com sucesso!' })).toBeVisible();
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('page-title')).toHaveText('Conexões (0)');
  });

  test('the QR dialog offers a pairing code: the phone number goes to the session, the code shows instead of the QR', async ({ page, request }, testInfo) => {
    const { companyId, tap } = await adminWithTap(page, request);
    await openAddWhatsapp(page);
    await page.getByTestId('cf-name').fill('Linha por código');
    await page.getByTestId('connection-save').click();
    const row = page.locator('[data-testid^="connection-row-"][data-name="Linha por código"]');
    await expect(row).toBeVisible();
    const id = Number((await row.getAttribute('data-testid'))?.replace('connection-row-', ''));

    await tap.session(companyId, { id, status: 'qrcode', qrcode: QR_A, retries: 1 });
    await row.getByTestId('connection-qr-button').click();
    const dialog = page.getByTestId('qrcode-dialog');
    await expect(dialog.getByTestId('qrcode-image')).toHaveAttribute('data-value', QR_A);
    await expect(dialog.getByTestId('pairing-code')).toHaveCount(0);

    // The option: a phone number instead of the scan; too short a number cannot ask for a code.
    await dialog.getByTestId('pairing-use-phone').click();
    const phone = dialog.getByTestId('pairing-phone');
    await phone.fill('55 11');
    await expect(dialog.getByTestId('pairing-get-code')).toBeDisabled();
    await phone.fill('+55 (11) 98765-4321');
    const asked = page.waitForRequest((req) => req.method() === 'POST' && req.url().endsWith(`/whatsappsession/${id}`));
    await dialog.getByTestId('pairing-get-code').click();
    expect((await asked).postDataJSON()).toEqual({ phoneNumber: '+55 (11) 98765-4321' });

    // WhatsApp hands the session a pairing code (status PAIRING, the code in qrcode): it replaces the QR.
    await tap.session(companyId, { id, status: 'PAIRING', qrcode: 'ABCD1234' });
    await expect(dialog.getByTestId('pairing-code')).toHaveText('ABCD-1234');
    await expect(dialog.getByTestId('qrcode-image')).toHaveCount(0);
    await expect(dialog.getByTestId('pairing-use-phone')).toHaveCount(0);
    await expect(dialog).toContainText('Conectar com número de telefone, e digite este código.');
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'PAIRING');
    await expectAccessible(page, 'pairing code dialog');
    await page.screenshot({ path: testInfo.outputPath('pairing-code-dialog.png') });

    // Typed on the phone: the session connects and the dialog closes.
    await tap.session(companyId, { id, status: 'CONNECTED', qrcode: '', number: '5511987654321' });
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('connection-status')).toHaveAttribute('data-status', 'CONNECTED');
  });

  test('the connection dialog rejects the invalid combinations of the spec with its messages', async ({ page, request }, testInfo) => {
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const suffix = Date.now() % 100000;
    for (const [name, color] of [
      [`Vendas ${suffix}`, '#112233'],
      [`Suporte ${suffix}`, '#445566'],
    ]) {
      const res = await request.post(`${E2E_API_URL}/queue`, { headers, data: { name, color } });
      expect(res.status(), await res.text()).toBeLessThan(300);
    }

    await loginUI(page, admin.email, admin.password);
    await page.goto('/connections');
    await openAddWhatsapp(page);
    const dialog = page.getByTestId('connection-dialog');
    const save = page.getByTestId('connection-save');

    // name: 2 to 50 characters.
    await page.getByTestId('cf-name').fill('a');
    await save.click();
    await expect(dialog).toContainText('Too Short!');
    await page.getByTestId('cf-name').fill('x'.repeat(51));
    await save.click();
    await expect(dialog).toContainText('Too Long!');
    await page.getByTestId('cf-name').fill('Conexão inválida');

    // A rating message needs an NPS expiry other than 0: the dialog opens the assessments tab.
    await page.getByTestId('connection-tab-assessments').click();
    await page.getByTestId('cf-ratingMessage').fill('De 0 a 10, quanto você nos recomendaria?');
    await page.getByTestId('cf-expiresTicketNPS').fill('0');
    await page.getByTestId('connection-tab-general').click();
    await save.click();
    await expect(page.getByTestId('connection-panel-assessments')).toBeVisible();
    await expect(dialog).toContainText('Informe o tempo de expiração da avaliação (maior que 0) quando usar a mensagem de avaliação.');
    await expect(page.getByTestId('connection-tab-assessments')).toHaveAttribute('data-error', 'true');
    await page.getByTestId('cf-expiresTicketNPS').fill('30');

    // A redirection time needs a redirection queue.
    await page.getByTestId('connection-tab-chatbot').click();
    await page.getByTestId('cf-timeSendQueue').fill('5');
    await save.click();
    await expect(dialog).toContainText('Informe o tempo e a fila de redirecionamento: os dois campos devem ser preenchidos juntos.');
    await page.getByTestId('cf-timeSendQueue').fill('0');

    // Inactivity time needs an expiry time.
    await page.getByTestId('cf-timeInactiveMessage').fill('10');
    await save.click();
    await expect(page.getByTestId('cf-expiresTicket').locator('xpath=../..')).toContainText('Obrigatório');
    await page.getByTestId('cf-timeInactiveMessage').fill('0');

    // Vacation dates are required with a vacation message, and not before 10 days ago.
    await page.getByTestId('connection-tab-messages').click();
    await page.getByTestId('cf-collectiveVacationMessage').fill('Estamos em férias coletivas.');
    await save.click();
    await expect(page.getByTestId('connection-panel-messages')).toBeVisible();
    await expect(page.getByTestId('cf-collectiveVacationStart').locator('xpath=../..')).toContainText('Obrigatório');
    await page.getByTestId('cf-collectiveVacationStart').fill('2020-01-01');
    await save.click();
    await expect(dialog).toContainText('A data não pode ser anterior a 10 dias atrás');
    await page.getByTestId('cf-collectiveVacationMessage').fill('');
    await page.getByTestId('cf-collectiveVacationStart').fill('');

    // Import: the old date within two years, the recent one after it, and a queue.
    await page.getByTestId('connection-tab-general').click();
    await page.getByTestId('cf-enableImportMessage').check();
    const threeYearsAgo = new Date(Date.now() - 3 * 365 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await page.getByTestId('cf-importOldMessages').fill(threeYearsAgo);
    await save.click();
    await expect(dialog).toContainText('A data deve estar entre 2 anos atrás e hoje');
    await expect(page.getByTestId('cf-queueIdImportMessages').locator('xpath=../..')).toContainText('Obrigatório');
    await page.screenshot({ path: testInfo.outputPath('connection-dialog-errors.png') });
    await page.getByTestId('cf-enableImportMessage').uncheck();

    // Media: image or video only.
    await page.getByTestId('cf-media-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByTestId('cf-media-error')).toHaveText('Apenas imagem ou vídeo');

    // More than one queue needs a greeting message.
    await page.getByTestId('cf-queueIds').click();
    await page.getByRole('option', { name: `Vendas ${suffix}` }).click();
    await page.getByRole('option', { name: `Suporte ${suffix}` }).click();
    await page.keyboard.press('Escape');
    await save.click();
    await expect(page.getByTestId('connection-panel-messages')).toBeVisible();
    await expect(dialog).toContainText('A mensagem de saudação é obrigatória quando há mais de uma fila.');

    // Nothing was created by the rejected attempts.
    await page.getByTestId('connection-cancel').click();
    expect(await listConnections(request, token)).toHaveLength(0);
  });

  test('default connection rules, editing every tab, token regeneration', async ({ page, request }) => {
    // API logins log the UI session out (another login of the same user): take the token first.
    const token = await apiToken(request, admin.email, admin.password);
    await loginUI(page, admin.email, admin.password);
    await page.goto('/connections');
    for (const name of ['Primeira', 'Segunda']) {
      await openAddWhatsapp(page);
      await page.getByTestId('cf-name').fill(name);
      await page.getByTestId('connection-save').click();
      await expect(page.getByTestId('connection-dialog')).toBeHidden();
    }
    const first = page.locator('[data-testid^="connection-row-"][data-name="Primeira"]');
    const second = page.locator('[data-testid^="connection-row-"][data-name="Segunda"]');
    await expect(first.getByTestId('connection-default')).toBeVisible();
    await expect(second.getByTestId('connection-default')).toHaveCount(0);

    // The default cannot be deleted while another connection exists.
    await first.getByTestId('connection-delete').click();
    await page.getByTestId('confirm-ok').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Deve haver pelo menos uma conexão padrão.' })).toBeVisible();
    await expect(first).toBeVisible();

    // Nor unmarked: there must be one default.
    await expect(page.getByTestId('toast')).toHaveCount(0, { timeout: 6000 });
    await first.getByTestId('connection-edit').click();
    await expect(page.getByTestId('cf-name')).toHaveValue('Primeira');
    const oldToken = await page.getByTestId('cf-token').inputValue();
    await page.getByTestId('cf-isDefault').uncheck();
    await page.getByTestId('connection-save').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Deve haver pelo menos uma conexão padrão.' })).toBeVisible();
    await page.getByTestId('cf-isDefault').check();

    // Every tab saves: regenerate the token, set messages, chatbot and NPS values.
    await page.getByTestId('cf-token-regenerate').click();
    const newToken = await page.getByTestId('cf-token').inputValue();
    expect(newToken).toMatch(/^[A-Za-z0-9]{30}$/);
    expect(newToken).not.toBe(oldToken);
    await page.getByTestId('connection-tab-messages').click();
    await page.getByTestId('cf-greetingMessage').fill('Olá! Como podemos ajudar?');
    await page.getByTestId('cf-outOfHoursMessage').fill('Estamos fora do horário.');
    await page.getByTestId('connection-tab-chatbot').click();
    await page.getByTestId('cf-maxUseBotQueues').fill('4');
    await page.getByTestId('cf-expiresTicket').fill('120');
    await page.getByTestId('connection-tab-assessments').click();
    await page.getByTestId('cf-ratingMessage').fill('Avalie de 0 a 10');
    await page.getByTestId('cf-expiresTicketNPS').fill('15');
    await page.getByTestId('connection-save').click();
    await expect(page.getByTestId('connection-dialog')).toBeHidden();

    const id = Number((await first.getAttribute('data-testid'))?.replace('connection-row-', ''));
    const res = await request.get(`${E2E_API_URL}/whatsapp/${id}?session=0`, { headers: { Authorization: `Bearer ${token}` } });
    const saved = (await res.json()) as Record<string, unknown>;
    expect(saved).toMatchObject({
      token: newToken,
      isDefault: true,
      greetingMessage: 'Olá! Como podemos ajudar?',
      outOfHoursMessage: 'Estamos fora do horário.',
      maxUseBotQueues: 4,
      expiresTicket: 120,
      ratingMessage: 'Avalie de 0 a 10',
      expiresTicketNPS: 15,
    });

    // Making the second one default moves the mark.
    await second.getByTestId('connection-edit').click();
    await page.getByTestId('cf-isDefault').check();
    await page.getByTestId('connection-save').click();
    await expect(second.getByTestId('connection-default')).toBeVisible();
    await expect(first.getByTestId('connection-default')).toHaveCount(0);
  });

  test('with scheduleType "connection" the dialog has a schedules tab whose hours are saved with the connection', async ({ page, request }, testInfo) => {
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const before = await request.get(`${E2E_API_URL}/companySettingOne?column=scheduleType`, { headers });
    expect(before.ok(), await before.text()).toBe(true);
    const previous = ((await before.json()) as { scheduleType?: string }).scheduleType ?? 'disabled';
    const set = (data: string) => request.put(`${E2E_API_URL}/companySettings`, { headers, data: { column: 'scheduleType', data } });
    expect((await set('connection')).ok()).toBe(true);
    try {
      await loginUI(page, admin.email, admin.password);
      await page.goto('/connections');
      await openAddWhatsapp(page);
      await page.getByTestId('cf-name').fill('Com horários');
      await page.getByTestId('connection-tab-schedules').click();
      await expect(page.getByTestId('hours-editor')).toBeVisible();
      await page.getByTestId('hours-monday-startTimeA').fill('09:30');
      await page.getByTestId('hours-submit').click();
      await expect(page.getByTestId('toast').filter({ hasText: 'Clique em salvar para registrar as alterações.' })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath('connection-schedules.png') });
      await page.getByTestId('connection-save').click();
      await expect(page.getByTestId('connection-dialog')).toBeHidden();
      const list = (await (await request.get(`${E2E_API_URL}/whatsapp/?session=0`, { headers })).json()) as {
        name: string;
        schedules: { weekdayEn: string; startTimeA: string }[];
      }[];
      const saved = list.find((c) => c.name === 'Com horários');
      expect(saved?.schedules).toHaveLength(7);
      expect(saved?.schedules.find((d) => d.weekdayEn === 'monday')?.startTimeA).toBe('09:30');
    } finally {
      await set(previous);
    }
  });

  test('without a Meta app the Facebook and Instagram entries are disabled and say what is missing', async ({ page, request }) => {
    await loginUI(page, admin.email, admin.password);
    await page.goto('/connections');
    await page.getByTestId('connections-add').click();
    await expect(page.getByTestId('connections-add-whatsapp')).not.toHaveAttribute('aria-disabled', 'true');
    for (const channel of ['facebook', 'instagram']) {
      const entry = page.getByTestId(`connections-add-${channel}`);
      await expect(entry).toHaveAttribute('aria-disabled', 'true');
      await expect(entry).toContainText('FACEBOOK_APP_ID');
    }
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('meta-token-dialog')).toHaveCount(0);
    // A client that calls the API anyway gets the specific code, not the generic login failure.
    const token = await apiToken(request, admin.email, admin.password);
    const res = await request.post(`${E2E_API_URL}/facebook`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { facebookUserId: '1', facebookUserToken: 'EAAB-not-a-real-token-0123456789' },
    });
    expect(res.status()).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('ERR_FACEBOOK_NOT_CONFIGURED');
  });

  test('a plan without a channel disables its add entry; a user without allowConnections sees no permission', async ({ page, request, browser }) => {
    const token = await apiToken(request, admin.email, admin.password);
    const headers = { Authorization: `Bearer ${token}` };
    const plan = await request.post(`${E2E_API_URL}/plans`, {
      headers,
      data: { name: `Sem Instagram ${Date.now() % 100000}`, users: 5, connections: 5, queues: 5, amount: '10', useInstagram: false, useFacebook: false },
    });
    expect(plan.status(), await plan.text()).toBeLessThan(300);
    const planId = ((await plan.json()) as { id: number }).id;
    const email = uniqueEmail('conn-admin');
    const signup = await request.post(`${E2E_API_URL}/auth/signup`, {
      data: { companyName: `Loja ${Date.now() % 100000}`, name: 'Dona Loja', email, password: 'loja-pass-123', phone: '', planId },
    });
    expect(signup.status(), await signup.text()).toBeLessThan(300);
    const ownerToken = await apiToken(request, email, 'loja-pass-123');

    await loginUI(page, email, 'loja-pass-123');
    await page.goto('/connections');
    await page.getByTestId('connections-add').click();
    await expect(page.getByTestId('connections-add-whatsapp')).not.toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByTestId('connections-add-facebook')).toHaveAttribute('aria-disabled', 'true');
    await expect(page.getByTestId('connections-add-instagram')).toHaveAttribute('aria-disabled', 'true');
    await page.keyboard.press('Escape');

    // A plain user of that company without allowConnections.
    const plainEmail = uniqueEmail('conn-plain');
    const created = await request.post(`${E2E_API_URL}/users`, {
      headers: { Authorization: `Bearer ${ownerToken}` },
      data: { name: 'Atendente', email: plainEmail, password: 'plain-pass-1', profile: 'user' },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);
    const other = await browser.newPage();
    await loginUI(other, plainEmail, 'plain-pass-1');
    await other.goto('/connections');
    await expect(other.getByTestId('no-permission')).toBeVisible();
    await other.close();
  });

  test('the super user sees connections per company with totals and opens one company', async ({ page, request }, testInfo) => {
    const token = await apiToken(request, admin.email, admin.password);
    const { companyId, company } = await me(request, token);
    const created = await request.post(`${E2E_API_URL}/whatsapp`, {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'Visão geral' },
    });
    expect(created.status(), await created.text()).toBeLessThan(300);

    await loginUI(page, admin.email, admin.password);
    await page.goto('/allConnections');
    const table = page.getByTestId('all-connections-table');
    await expect(table).toContainText('Cliente');
    const row = page.getByTestId(`all-connections-row-${companyId}`);
    await expect(row).toContainText(company.name);
    // Not CONNECTED: counted as disconnected.
    await expect(row.getByTestId('count-connected')).toHaveText('0');
    await expect(row.getByTestId('count-disconnected')).toHaveText('1');
    await expect(row.getByTestId('count-total')).toHaveText('1');
    await expect(page.getByTestId('all-connections-totals')).toBeVisible();
    await row.getByTestId('all-connections-edit').click();
    const dialog = page.getByTestId('company-connections-dialog');
    await expect(dialog).toContainText(`Conexões de: ${company.name}`);
    await expect(dialog.locator('[data-name="Visão geral"]')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('all-connections.png') });
  });
});
