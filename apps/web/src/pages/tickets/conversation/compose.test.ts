import { describe, expect, it } from 'vitest';
import { isBlank, quickReplyLabel, quickReplyMatches, QUICK_REPLY_LABEL_MAX, splitSignature, vCardOf, withSignature } from './compose';

describe('isBlank', () => {
  it('refuses empty and whitespace-only text', () => {
    expect(isBlank('')).toBe(true);
    expect(isBlank('  \n\t ')).toBe(true);
    expect(isBlank(null)).toBe(true);
    expect(isBlank(' ok ')).toBe(false);
  });
});

describe('withSignature', () => {
  it('prefixes the bold user name on its own line when on', () => {
    expect(withSignature('Olá', 'Maria', true)).toBe('*Maria:*\nOlá');
  });
  it('leaves the body alone when off', () => {
    expect(withSignature('Olá', 'Maria', false)).toBe('Olá');
  });
});

describe('splitSignature', () => {
  it('takes the own signature off for editing', () => {
    expect(splitSignature('*Maria:*\nOlá', 'Maria')).toEqual({ signed: true, text: 'Olá' });
    expect(splitSignature('Olá', 'Maria')).toEqual({ signed: false, text: 'Olá' });
    expect(splitSignature('*Ana:*\nOlá', 'Maria')).toEqual({ signed: false, text: '*Ana:*\nOlá' });
  });
});

describe('quick replies', () => {
  const list = [
    { id: 1, shortcode: 'oi', message: 'Olá, tudo bem?' },
    { id: 2, shortcode: 'preco', message: 'Nossos preços...' },
    { id: 3, shortcode: 'Oirgente', message: 'x' },
  ];
  it('is triggered only by a leading slash', () => {
    expect(quickReplyMatches(list, 'oi')).toBeNull();
    expect(quickReplyMatches(list, ' /oi')).toBeNull();
    expect(quickReplyMatches(list, '/')?.map((q) => q.id)).toEqual([1, 2, 3]);
  });
  it('filters by shortcode, case-insensitively', () => {
    expect(quickReplyMatches(list, '/OI')?.map((q) => q.id)).toEqual([1, 3]);
    expect(quickReplyMatches(list, '/pre')?.map((q) => q.id)).toEqual([2]);
  });
  it('stops suggesting once a space is typed', () => {
    expect(quickReplyMatches(list, '/oi tudo')).toBeNull();
  });
  it('cuts labels at 90 characters', () => {
    const long = { shortcode: 'a', message: 'x'.repeat(200) };
    const label = quickReplyLabel(long);
    expect(label.startsWith('a - xxx')).toBe(true);
    expect(label).toHaveLength(QUICK_REPLY_LABEL_MAX + 3);
    expect(label.endsWith('...')).toBe(true);
    expect(quickReplyLabel({ shortcode: 'oi', message: 'Olá' })).toBe('oi - Olá');
  });
});

describe('vCardOf', () => {
  it('sends the contact name and digits of the number', () => {
    expect(vCardOf({ id: 3, name: 'Ana', number: '+55 (11) 9999-8888' })).toEqual({ id: 3, name: 'Ana', number: '551199998888' });
  });
});
