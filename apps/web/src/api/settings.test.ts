import { describe, expect, it } from 'vitest';
import { COMPANY_SETTING_DEFAULTS, type CompanySettings } from '@balcao/contracts';
import { settingsWriteOrder } from './settings';

const base: CompanySettings = { ...COMPANY_SETTING_DEFAULTS };

describe('settingsWriteOrder', () => {
  it('writes nothing when nothing changed', () => {
    expect(settingsWriteOrder(base, { ...base })).toEqual([]);
  });
  it('writes a message before the toggle that requires it', () => {
    const after = { ...base, sendMsgTransfTicket: 'enabled', transferMessage: 'Transferido', userRating: 'enabled' };
    expect(settingsWriteOrder(base, after)).toEqual(['transferMessage', 'userRating', 'sendMsgTransfTicket']);
  });
  it('switches the toggle off before emptying its message', () => {
    const before = { ...base, sendMsgTransfTicket: 'enabled', transferMessage: 'Transferido' };
    const after = { ...before, sendMsgTransfTicket: 'disabled', transferMessage: '' };
    expect(settingsWriteOrder(before, after)).toEqual(['sendMsgTransfTicket', 'transferMessage']);
  });
});
