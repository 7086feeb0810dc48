import { describe, expect, it } from 'vitest';
import { createContactBody, listContactsQuery, maskContactNumber, maskNumber, normalizeNumber } from './contacts.js';

describe('maskNumber', () => {
  it('hides the middle digits of a phone number', () => {
    expect(maskNumber('5511987654321')).toBe('5511*****4321');
    expect(maskNumber('551187654321')).toBe('5511****4321');
  });

  it('keeps at least a third hidden on short numbers', () => {
    expect(maskNumber('12345678')).toBe('12****78');
    expect(maskNumber('1234')).toBe('1**4');
    expect(maskNumber('123')).toBe('1*3');
    expect(maskNumber('12')).toBe('**');
    expect(maskNumber('')).toBe('');
  });

  it('masks a contact, its number-only name too, but never a group', () => {
    expect(maskContactNumber({ number: '5511987654321', name: 'Maria', isGroup: false })).toEqual({ number: '5511*****4321', name: 'Maria', isGroup: false });
    expect(maskContactNumber({ number: '5511987654321', name: '5511987654321', isGroup: false }).name).toBe('5511*****4321');
    const group = { number: '120363041234567890', name: 'Clientes', isGroup: true };
    expect(maskContactNumber(group)).toBe(group);
  });
});

describe('contact requests', () => {
  it('normalizes typed numbers to digits and refuses letters', () => {
    expect(normalizeNumber('+55 (11) 98765-4321')).toBe('5511987654321');
    expect(normalizeNumber('5511*****4321')).toBeUndefined();
    expect(normalizeNumber('abc12345678')).toBeUndefined();
  });

  it('validates name, number and email with the form messages', () => {
    const res = createContactBody.safeParse({ name: 'A', number: '1234', email: 'nope' });
    expect(res.success).toBe(false);
    const issues = res.error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(issues).toEqual(expect.arrayContaining([['name', 'Too Short!'], ['number', 'Too Short!'], ['email', 'Invalid email']]));
    expect(createContactBody.parse({ name: 'Ana', number: '5511987654321', email: '' })).toMatchObject({ email: '' });
  });

  it('reads contactTag as a JSON list of ids and refuses anything else', () => {
    expect(listContactsQuery.parse({ contactTag: '[1,2]', isGroup: 'false' })).toMatchObject({ contactTag: [1, 2], isGroup: false, pageNumber: 1 });
    expect(listContactsQuery.safeParse({ contactTag: '[1,' }).success).toBe(false);
    expect(listContactsQuery.safeParse({ contactTag: '["x"]' }).success).toBe(false);
  });
});
