import { describe, expect, it } from 'vitest';
import { richText } from './richText';

describe('richText', () => {
  it('keeps plain text as one run', () => {
    expect(richText('olá mundo')).toEqual([{ text: 'olá mundo' }]);
  });
  it('reads WhatsApp marks', () => {
    expect(richText('*Maria:*\noi _tudo_ ~não~')).toEqual([
      { text: 'Maria:', bold: true },
      { text: '\noi ' },
      { text: 'tudo', italic: true },
      { text: ' ' },
      { text: 'não', strike: true },
    ]);
  });
  it('leaves snake_case words alone', () => {
    expect(richText('a ticket_id_here b')).toEqual([{ text: 'a ticket_id_here b' }]);
  });
  it('turns URLs into links without trailing punctuation', () => {
    expect(richText('veja https://ex.com/a?b=1.')).toEqual([{ text: 'veja ' }, { text: 'https://ex.com/a?b=1', href: 'https://ex.com/a?b=1' }, { text: '.' }]);
  });
});
