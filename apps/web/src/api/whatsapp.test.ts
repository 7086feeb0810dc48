import { describe, expect, it } from 'vitest';
import type { Whatsapp } from '@balcao/contracts';
import { applySessionEvent, applyWhatsappEvent } from './whatsapp';

const base = (id: number, patch: Partial<Whatsapp> = {}): Whatsapp =>
  ({ id, name: `c${id}`, status: 'OPENING', qrcode: '', retries: 0, number: '', token: `tok${id}`, isDefault: false, ...patch }) as Whatsapp;

describe('connection cache updates', () => {
  it('merges a whatsapp update, keeping the cached token the event leaves out', () => {
    const list = [base(1), base(2)];
    const { token: _t, ...withoutToken } = base(2, { name: 'renamed' });
    const next = applyWhatsappEvent(list, { action: 'update', whatsapp: withoutToken as Whatsapp });
    expect(next?.[1]).toMatchObject({ id: 2, name: 'renamed', token: 'tok2' });
    expect(next?.[0]).toBe(list[0]);
  });

  it('appends an unknown connection and drops a deleted one', () => {
    const list = [base(1)];
    expect(applyWhatsappEvent(list, { action: 'update', whatsapp: base(3) })?.map((c) => c.id)).toEqual([1, 3]);
    expect(applyWhatsappEvent(list, { action: 'delete', whatsappId: 1 })).toEqual([]);
    expect(applyWhatsappEvent(undefined, { action: 'delete', whatsappId: 1 })).toBeUndefined();
  });

  it('applies a session update to its connection only', () => {
    const list = [base(1), base(2)];
    const next = applySessionEvent(list, {
      action: 'update',
      session: { id: 2, status: 'qrcode', qrcode: 'https://wa.me/settings/linked_devices#abc', retries: 1, number: '' },
    });
    expect(next?.[1]).toMatchObject({ status: 'qrcode', qrcode: 'https://wa.me/settings/linked_devices#abc', retries: 1 });
    expect(next?.[0]).toBe(list[0]);
    const connected = applySessionEvent(next, { action: 'update', session: { id: 2, status: 'CONNECTED', qrcode: '', retries: 0, number: '5511912345678' } });
    expect(connected?.[1]).toMatchObject({ status: 'CONNECTED', qrcode: '', number: '5511912345678' });
  });
});
