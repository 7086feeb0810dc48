import { describe, expect, it } from 'vitest';
import { formatForChannel, stripWhatsappMarkup } from './channel-format.js';

describe('formatForChannel', () => {
  it('keeps WhatsApp markup for WhatsApp', () => {
    expect(formatForChannel('whatsapp', '*Ana:*\nOlá _cliente_')).toBe('*Ana:*\nOlá _cliente_');
  });

  it('sends the signature and marks as plain text to Messenger and Instagram', () => {
    for (const channel of ['facebook', 'instagram'] as const) {
      expect(formatForChannel(channel, '*Ana:*\nOlá, tudo bem?')).toBe('Ana:\nOlá, tudo bem?');
      expect(formatForChannel(channel, 'Preço *promocional* só _hoje_, ~amanhã~ não.')).toBe('Preço promocional só hoje, amanhã não.');
      expect(formatForChannel(channel, 'Código: ```ABC-123```')).toBe('Código: ABC-123');
    }
  });

  it('strips nested marks and leaves lone or inner characters alone', () => {
    expect(stripWhatsappMarkup('*_muito importante_*')).toBe('muito importante');
    expect(stripWhatsappMarkup('2*3*4 = 24')).toBe('2*3*4 = 24');
    expect(stripWhatsappMarkup('arquivo_final_v2.pdf')).toBe('arquivo_final_v2.pdf');
    expect(stripWhatsappMarkup('nota: 5 * 3')).toBe('nota: 5 * 3');
    expect(stripWhatsappMarkup('* item\n* item')).toBe('* item\n* item');
  });
});
