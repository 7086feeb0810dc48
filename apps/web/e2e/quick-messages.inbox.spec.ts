import { expect, test, type Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { Customer } from './customer';
import { graphSends, textsSentTo } from './graph';
import { loginUI } from './helpers';
import { setUpInbox } from './inbox-setup';

// A real 1×1 PNG: the server stores what it is given and the conversation shows it.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const expectToast = (page: Page, text: string) => expect(page.getByTestId('toast').filter({ hasText: text }).first()).toBeVisible();

/** Issue 14: the unread count in the tab title off the inbox; a quick reply with an image, made on /quick-messages, sent with '/' from a conversation; a file dropped on the composer; a camera still. */
test('an attendant adds a quick reply with an image and sends it with / in a conversation, then drops a file on the composer and takes a photo', async ({ page }) => {
  test.setTimeout(180_000);
  const world = await setUpInbox();
  try {
    const customer = new Customer();
    const shortcode = `cardapio${customer.tag}`;
    const caption = `Nosso cardápio de hoje ${customer.tag}`;
    const question = `Qual é o cardápio? ${customer.tag}`;
    await customer.says(question);
    await expect.poll(async () => (await world.api.ticketByLastMessage('pending', question)) !== undefined).toBe(true);

    // The machine has no camera: the device is faked where the browser hands it over, as a canvas stream.
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () => {
        const canvas = document.createElement('canvas');
        canvas.width = 64;
        canvas.height = 48;
        const ctx = canvas.getContext('2d');
        const draw = () => {
          if (!ctx) return;
          ctx.fillStyle = '#3366ff';
          ctx.fillRect(0, 0, 64, 48);
        };
        draw();
        setInterval(draw, 100);
        return Promise.resolve(canvas.captureStream(10));
      };
    });
    await loginUI(page, world.attendant1.email, world.attendant1.password);
    await page.goto('/quick-messages');
    await expect(page.getByTestId('page-title')).toHaveText('Respostas rápidas');
    // Off the inbox the tab title still counts the waiting customer's unread messages, live.
    await expect(page).toHaveTitle(/^① /);
    await customer.says(`E o horário? ${customer.tag}`);
    await expect(page).toHaveTitle(/^② /);
    await page.getByTestId('quick-messages-add').click();
    const dialog = page.getByTestId('quick-message-dialog');
    await dialog.getByTestId('quick-message-submit').click();
    await expect(dialog).toContainText('Obrigatório');
    await dialog.getByTestId('quick-message-shortcode').fill(shortcode);
    await dialog.getByTestId('quick-message-text').fill(caption);
    await dialog.getByTestId('quick-message-file').setInputFiles({ name: 'cardapio.png', mimeType: 'image/png', buffer: PNG });
    await expect(dialog.getByTestId('quick-message-attachment')).toHaveText('cardapio.png');
    await expectAccessible(page, '/quick-messages modal');
    await dialog.getByTestId('quick-message-submit').click();
    await expectToast(page, 'Resposta rápida salva com sucesso!');

    const row = page.locator('[data-testid^="quick-message-row-"]').filter({ hasText: `/${shortcode}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('quick-message-attachment-name')).toHaveText('cardapio.png');
    await expect(row.getByTestId('quick-message-general')).toHaveCount(0);
    await expectAccessible(page, '/quick-messages');

    // The conversation: '/' and part of the shortcode offer it; picking it opens the attachment preview with the text as caption.
    await page.goto('/tickets');
    await page.getByRole('tablist', { name: 'Status dos atendimentos' }).getByRole('tab', { name: /^Aguardando/ }).click();
    const waiting = page.getByRole('listitem').filter({ hasText: customer.tag });
    await waiting.getByRole('button', { name: /^Aceitar/ }).click();
    await expect(page).toHaveURL(/\/tickets\/[0-9a-f-]+$/);
    const input = page.getByTestId('composer').getByRole('textbox', { name: 'Mensagem' });
    await input.fill(`/cardapio${customer.tag.slice(0, 3)}`);
    const suggestion = page.getByRole('menuitem').filter({ hasText: shortcode });
    await expect(suggestion).toBeVisible();
    await suggestion.dispatchEvent('mousedown');
    const preview = page.getByRole('dialog', { name: 'Enviar arquivos' });
    await expect(preview).toBeVisible();
    await expect(preview.getByText('cardapio.png')).toBeVisible();
    await expect(preview.getByLabel('Legenda')).toHaveValue(caption);
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();

    await expect
      .poll(async () => (await graphSends()).some((s) => s.recipient?.id === customer.psid && JSON.stringify(s.message?.attachment ?? '').includes('"image"')), 'the image reached the customer')
      .toBe(true);
    await expect.poll(async () => (await textsSentTo(customer.psid)).some((text) => text.includes(caption)), 'its caption reached the customer').toBe(true);

    // A file dragged from the desktop onto the composer opens the same preview, and is sent from it.
    await expect(preview).toHaveCount(0);
    const dataTransfer = await page.evaluateHandle(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['%PDF-1.4 orçamento'], 'orcamento.pdf', { type: 'application/pdf' }));
      return dt;
    });
    const composer = page.getByTestId('composer');
    await composer.dispatchEvent('dragover', { dataTransfer });
    await expect(page.getByTestId('composer-drop-hint')).toBeVisible();
    await composer.dispatchEvent('drop', { dataTransfer });
    await expect(page.getByTestId('composer-drop-hint')).toHaveCount(0);
    await expect(preview).toBeVisible();
    await expect(preview.getByText('orcamento.pdf')).toBeVisible();
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    const attachments = async () => (await graphSends()).filter((s) => s.recipient?.id === customer.psid && s.message?.attachment !== undefined).length;
    await expect.poll(attachments, 'the dropped file reached the customer').toBe(2);

    // Camera capture: a still of the camera's picture goes through the same preview.
    await page.getByRole('button', { name: 'Tirar foto' }).click();
    const camera = page.getByTestId('camera-dialog');
    await expect(camera.getByLabel('Imagem da câmera')).toBeVisible();
    await expectAccessible(page, 'camera dialog');
    await camera.getByTestId('camera-capture').click();
    await expect(camera).toHaveCount(0);
    await expect(preview).toBeVisible();
    await expect(preview.getByText(/^foto-.*\.jpg$/)).toBeVisible();
    await preview.getByRole('button', { name: 'Enviar', exact: true }).click();
    await expect.poll(attachments, 'the photo reached the customer').toBe(3);
  } finally {
    await world.api.dispose();
  }
});
