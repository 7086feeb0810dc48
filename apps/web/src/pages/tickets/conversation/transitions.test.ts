import { describe, expect, it } from 'vitest';
import { canIgnore, farewellWouldSend, headerActions, otherOwner, transitionBody, workingStatus, type Viewer } from './transitions';

const ticket = { isGroup: false, channel: 'facebook' as const, userId: 7, queueId: 2 };
const admin: Viewer = { id: 1, profile: 'admin', userClosePendingTicket: 'disabled' };
const user: Viewer = { id: 2, profile: 'user', userClosePendingTicket: 'disabled' };

describe('transition bodies', () => {
  it('accept: open for the acting user with the queue', () => {
    expect(transitionBody.accept(ticket, 3, 5)).toEqual({ status: 'open', userId: 3, queueId: 5 });
  });
  it('accept of a WhatsApp group becomes group', () => {
    expect(workingStatus({ isGroup: true, channel: 'whatsapp' })).toBe('group');
    expect(workingStatus({ isGroup: true, channel: 'facebook' })).toBe('open');
  });
  it('resolve carries the farewell choice, owner and queue', () => {
    expect(transitionBody.resolve(ticket, 3, true)).toEqual({ status: 'closed', userId: 7, queueId: 2, sendFarewellMessage: true });
    expect(transitionBody.resolve({ ...ticket, userId: null }, 3, false)).toMatchObject({ userId: 3, sendFarewellMessage: false });
  });
  it('return to queue leaves the ticket pending without a user', () => {
    expect(transitionBody.returnToQueue()).toEqual({ status: 'pending', userId: null });
  });
  it('transfer with a user opens it for them; without one it waits pending', () => {
    expect(transitionBody.transfer(ticket, 4, 9, '  veja isto ')).toEqual({ queueId: 4, userId: 9, status: 'open', msgTransfer: 'veja isto', isTransfered: true });
    expect(transitionBody.transfer(ticket, 4, null, '')).toEqual({ queueId: 4, userId: null, status: 'pending', msgTransfer: null, isTransfered: true });
  });
  it('ignore closes without farewell and resets the bot counter', () => {
    expect(transitionBody.ignore()).toEqual({ status: 'closed', sendFarewellMessage: false, amountUsedBotQueues: 0 });
  });
});

describe('header actions', () => {
  it('pending: accept, plus ignore for admins or userClosePendingTicket', () => {
    expect(headerActions({ status: 'pending' }, admin)).toEqual(['accept', 'ignore']);
    expect(headerActions({ status: 'pending' }, user)).toEqual(['accept']);
    expect(headerActions({ status: 'pending' }, { ...user, userClosePendingTicket: 'enabled' })).toEqual(['accept', 'ignore']);
  });
  it('open and group: return, resolve, transfer; closed: reopen', () => {
    expect(headerActions({ status: 'open' }, user)).toEqual(['returnToQueue', 'resolve', 'transfer']);
    expect(headerActions({ status: 'group' }, user)).toEqual(['returnToQueue', 'resolve', 'transfer']);
    expect(headerActions({ status: 'closed' }, user)).toEqual(['reopen']);
  });
  it('ignore is never offered on open tickets', () => {
    expect(canIgnore({ status: 'open' }, admin)).toBe(false);
  });
});

describe('otherOwner', () => {
  it('is true only for a different ticket held by another user', () => {
    expect(otherOwner({ id: 1 }, { id: 2, userId: 9 }, 3)).toBe(true);
    expect(otherOwner({ id: 1 }, { id: 1, userId: 9 }, 3)).toBe(false);
    expect(otherOwner({ id: 1 }, { id: 2, userId: 3 }, 3)).toBe(false);
    expect(otherOwner({ id: 1 }, { id: 2, userId: null }, 3)).toBe(false);
  });
});

describe('resolve with farewell', () => {
  const connection = { id: 1, name: 'Loja', expiresTicket: 0, groupAsTicket: 'disabled' as const, channel: 'whatsapp' as const };
  it('sends nothing without a farewell on the connection or the user', () => {
    expect(farewellWouldSend({ isGroup: false, whatsapp: { ...connection, hasFarewell: false } }, { farewellMessage: '  ' })).toBe(false);
    expect(farewellWouldSend({ isGroup: false, whatsapp: null }, { farewellMessage: 'Tchau' })).toBe(false);
    expect(farewellWouldSend({ isGroup: true, whatsapp: { ...connection, hasFarewell: true } }, { farewellMessage: null })).toBe(false);
  });
  it('sends the connection’s farewell (or rating) or the user’s own', () => {
    expect(farewellWouldSend({ isGroup: false, whatsapp: { ...connection, hasFarewell: true } }, { farewellMessage: null })).toBe(true);
    expect(farewellWouldSend({ isGroup: false, whatsapp: { ...connection, hasFarewell: false } }, { farewellMessage: 'Até mais' })).toBe(true);
  });
});
