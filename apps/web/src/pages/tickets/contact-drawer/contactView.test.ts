import { describe, expect, it } from 'vitest';
import { initials, shouldMaskNumber, visibleContact } from './contactView';

const viewer = (profile: 'admin' | 'user', lgpdHideNumber: string, isSuper = false) => ({
  profile,
  super: isSuper,
  company: { companieSettings: { lgpdHideNumber } },
});
const person = { name: 'Maria Souza', number: '5511987654321', isGroup: false };
const group = { name: 'Equipe', number: '120363025246125486', isGroup: true };

describe('LGPD number masking rule', () => {
  it('masks for a plain user when the company hides numbers', () => {
    expect(shouldMaskNumber(viewer('user', 'enabled'), person)).toBe(true);
    expect(visibleContact(viewer('user', 'enabled'), person)).toEqual({ ...person, number: '5511*****4321' });
  });
  it('never masks for admins or super users', () => {
    expect(shouldMaskNumber(viewer('admin', 'enabled'), person)).toBe(false);
    expect(shouldMaskNumber(viewer('user', 'enabled', true), person)).toBe(false);
    expect(visibleContact(viewer('admin', 'enabled'), person).number).toBe('5511987654321');
  });
  it('leaves groups as they are', () => {
    expect(shouldMaskNumber(viewer('user', 'enabled'), group)).toBe(false);
    expect(visibleContact(viewer('user', 'enabled'), group)).toBe(group);
  });
  it('does nothing while the setting is off', () => {
    expect(shouldMaskNumber(viewer('user', 'disabled'), person)).toBe(false);
    expect(shouldMaskNumber(viewer('user', ''), person)).toBe(false);
  });
  it('masks a name that is only the number too', () => {
    const unnamed = { ...person, name: person.number };
    expect(visibleContact(viewer('user', 'enabled'), unnamed).name).toBe('5511*****4321');
  });
  it('is stable on a number the server already masked', () => {
    const masked = { ...person, number: '5511*****4321' };
    expect(visibleContact(viewer('user', 'enabled'), masked).number).toBe('5511*****4321');
  });
});

describe('initials', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initials('maria da silva')).toBe('MS');
    expect(initials('  Ana  ')).toBe('A');
    expect(initials('Élise Ünal')).toBe('ÉÜ');
  });
  it('falls back to ? for an empty name', () => {
    expect(initials('   ')).toBe('?');
  });
});
