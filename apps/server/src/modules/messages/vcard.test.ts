import { describe, expect, it } from 'vitest';
import { buildVcard, parseVcard } from './vcard.js';

describe('vCard', () => {
  it('builds the card WhatsApp shows and reads it back', () => {
    const vcard = buildVcard({ name: 'João da Silva', number: '+55 (11) 98888-7777' });
    expect(vcard).toBe('BEGIN:VCARD\nVERSION:3.0\nN:da Silva;João;;;\nFN:João da Silva\nTEL;type=CELL;waid=5511988887777:+5511988887777\nEND:VCARD');
    expect(parseVcard(vcard)).toEqual({ name: 'João da Silva', number: '5511988887777' });
  });

  it('reads a received card without waid', () => {
    expect(parseVcard('BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Loja\r\nitem1.TEL:+1 555-0100\r\nEND:VCARD')).toEqual({ name: 'Loja', number: '+15550100' });
  });

  it('keeps a name on one line', () => {
    expect(buildVcard({ name: 'A\nB', number: '1' })).toContain('FN:A B\n');
  });
});
