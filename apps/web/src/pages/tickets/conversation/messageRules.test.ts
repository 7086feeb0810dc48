import { describe, expect, it } from 'vitest';
import { ackState, canEditMessage, canForwardMessage, composerEnabled, editWindowLeft, EDIT_WINDOW_MS, fileNameOf, hasReplyWindow, locationLink, parseVCard } from './messageRules';
import { fakeMessage } from './testMessages';

describe('ackState', () => {
  it('maps 0 clock, 1 sent, 2 delivered, 3 read, 5 played', () => {
    expect([0, 1, 2, 3, 5].map((a) => ackState(a, 'chat'))).toEqual(['clock', 'sent', 'delivered', 'read', 'played']);
  });
  it('reads 4 as read, except for audio where it is played', () => {
    expect(ackState(4, 'chat')).toBe('read');
    expect(ackState(4, 'image')).toBe('read');
    expect(ackState(4, 'audio')).toBe('played');
  });
});

describe('canEditMessage', () => {
  const created = Date.parse('2026-11-20T12:00:00.000Z');
  const own = fakeMessage({ id: 1, fromMe: true, createdAt: new Date(created).toISOString() });

  it('allows one own text message inside 15 minutes (900000 ms)', () => {
    expect(EDIT_WINDOW_MS).toBe(900_000);
    expect(canEditMessage(own, created + 1)).toBe(true);
    expect(canEditMessage(own, created + EDIT_WINDOW_MS - 1)).toBe(true);
  });
  it('hides the edit once the window closed', () => {
    expect(canEditMessage(own, created + EDIT_WINDOW_MS)).toBe(false);
  });
  it('never edits a received, deleted or media message', () => {
    expect(canEditMessage({ ...own, fromMe: false }, created + 1)).toBe(false);
    expect(canEditMessage({ ...own, isDeleted: true }, created + 1)).toBe(false);
    expect(canEditMessage({ ...own, mediaType: 'image' }, created + 1)).toBe(false);
  });
  it('tells how long the window still runs', () => {
    expect(editWindowLeft(own.createdAt, created + 60_000)).toBe(EDIT_WINDOW_MS - 60_000);
    expect(editWindowLeft(own.createdAt, created + EDIT_WINDOW_MS + 5)).toBe(0);
  });
});

describe('canForwardMessage', () => {
  it('forwards ordinary messages but never private notes, deleted messages or reactions', () => {
    expect(canForwardMessage(fakeMessage({ id: 1 }))).toBe(true);
    expect(canForwardMessage(fakeMessage({ id: 1, isPrivate: true }))).toBe(false);
    expect(canForwardMessage(fakeMessage({ id: 1, isDeleted: true }))).toBe(false);
    expect(canForwardMessage(fakeMessage({ id: 1, mediaType: 'reactionMessage' }))).toBe(false);
  });
});

describe('ticket rules', () => {
  it('enables the composer only for open or group tickets', () => {
    expect(composerEnabled('open')).toBe(true);
    expect(composerEnabled('group')).toBe(true);
    expect(composerEnabled('pending')).toBe(false);
    expect(composerEnabled('closed')).toBe(false);
  });
  it('shows the 24-hour notice on Facebook and Instagram only', () => {
    expect(hasReplyWindow('facebook')).toBe(true);
    expect(hasReplyWindow('instagram')).toBe(true);
    expect(hasReplyWindow('whatsapp')).toBe(false);
  });
});

describe('media helpers', () => {
  it('takes the decoded file name from a media URL', () => {
    expect(fileNameOf('http://h/public/company1/Relat%C3%B3rio%20final.pdf?x=1')).toBe('Relatório final.pdf');
    expect(fileNameOf(null)).toBe('');
    expect(fileNameOf(`http://h/public/company1/${'a1'.repeat(16)}-Nota_fiscal_2026.pdf`)).toBe('Nota_fiscal_2026.pdf');
  });
  it('reads name and numbers of a vCard', () => {
    const card = 'BEGIN:VCARD\nVERSION:3.0\nN:Silva;Ana;;;\nFN:Ana Silva\nTEL;type=CELL;waid=5511999998888:+55 11 99999-8888\nEND:VCARD';
    expect(parseVCard(card)).toEqual({ name: 'Ana Silva', numbers: ['5511999998888'] });
  });
  it('finds the map link of a location', () => {
    expect(locationLink('data:image/png;base64,AAA|https://maps.google.com/maps?q=1,2')).toBe('https://maps.google.com/maps?q=1,2');
    expect(locationLink('-23.5, -46.6')).toBe('https://maps.google.com/maps?q=-23.5,-46.6');
    expect(locationLink('nowhere')).toBeNull();
  });
});
