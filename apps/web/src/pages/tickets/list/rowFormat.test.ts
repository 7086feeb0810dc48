import { describe, expect, it } from 'vitest';
import { CONTACT_NAME_MAX, LAST_MESSAGE_MAX, QUEUE_CHIPS_SHOWN, ROW_TAGS_SHOWN, firstWithRest, lastMessagePreview, oneLine, readableTextColor, rowTime, truncate } from './rowFormat';

describe('truncate (spec 2 §2 "Ticket row")', () => {
  it('cuts contact names at 60 and last messages at 40 characters, with an ellipsis', () => {
    const name = 'n'.repeat(61);
    expect(truncate(name, CONTACT_NAME_MAX)).toBe(`${'n'.repeat(60)}…`);
    expect(truncate('n'.repeat(60), CONTACT_NAME_MAX)).toBe('n'.repeat(60));
    expect(truncate('m'.repeat(41), LAST_MESSAGE_MAX)).toBe(`${'m'.repeat(40)}…`);
    expect(truncate('m'.repeat(40), LAST_MESSAGE_MAX)).toBe('m'.repeat(40));
  });

  it('never splits an emoji and copes with no text', () => {
    expect(truncate('😀😀😀', 2)).toBe('😀😀…');
    expect(truncate(null, 10)).toBe('');
  });

  it('puts a multi-line message on one line', () => {
    expect(oneLine('Olá\n\n  tudo bem?\n')).toBe('Olá tudo bem?');
  });
});

describe('firstWithRest (+N chips)', () => {
  it('shows the first 2 tags then +N', () => {
    expect(firstWithRest(['a', 'b', 'c', 'd'], ROW_TAGS_SHOWN)).toEqual({ shown: ['a', 'b'], rest: 2 });
    expect(firstWithRest(['a', 'b'], ROW_TAGS_SHOWN)).toEqual({ shown: ['a', 'b'], rest: 0 });
    expect(firstWithRest([], ROW_TAGS_SHOWN)).toEqual({ shown: [], rest: 0 });
  });

  it('shows at most 2 queue chips, the rest as +N Filas', () => {
    expect(firstWithRest([1, 2, 3], QUEUE_CHIPS_SHOWN)).toEqual({ shown: [1, 2], rest: 1 });
  });
});

describe('rowTime', () => {
  const now = new Date(2026, 10, 22, 15, 30);
  it('says now, minutes, the clock today, yesterday, else the date', () => {
    expect(rowTime(new Date(2026, 10, 22, 15, 29, 40).toISOString(), now)).toEqual({ kind: 'now' });
    expect(rowTime(new Date(2026, 10, 22, 15, 5).toISOString(), now)).toEqual({ kind: 'minutes', n: 25 });
    expect(rowTime(new Date(2026, 10, 22, 9, 7).toISOString(), now)).toEqual({ kind: 'hours', n: 6, clock: '09:07' });
    expect(rowTime(new Date(2026, 10, 21, 23, 50).toISOString(), now)).toEqual({ kind: 'yesterday', clock: '23:50' });
    expect(rowTime(new Date(2026, 10, 2, 8, 0).toISOString(), now)).toEqual({ kind: 'date', date: '02/11/2026' });
  });

  it('is null for an unreadable date', () => {
    expect(rowTime('not a date', now)).toBeNull();
  });
});

describe('readableTextColor', () => {
  it('writes black on light colours and white on dark ones', () => {
    expect(readableTextColor('#ffeb3b')).toBe('#000000');
    expect(readableTextColor('#1a237e')).toBe('#ffffff');
    expect(readableTextColor('red')).toBe('#ffffff');
  });
});

describe('lastMessagePreview', () => {
  it('shows a contact card by its name and other text on one line', () => {
    expect(lastMessagePreview('BEGIN:VCARD\nVERSION:3.0\nN:Silva;Maria;;;\nFN:Maria Silva\nTEL:+5511\nEND:VCARD')).toEqual({ text: 'Maria Silva', contactCard: true });
    expect(lastMessagePreview('linha 1\nlinha 2')).toEqual({ text: 'linha 1 linha 2', contactCard: false });
    expect(lastMessagePreview(null)).toEqual({ text: '', contactCard: false });
  });

  it('shows the words of a signed, marked-up message, not its asterisks (issue 12)', () => {
    expect(lastMessagePreview('*Ana:*\nPreço _especial_ hoje')).toEqual({ text: 'Ana: Preço especial hoje', contactCard: false });
  });
});
