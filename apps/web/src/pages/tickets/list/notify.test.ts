import { describe, expect, it } from 'vitest';
import { shouldNotify, type NotifyContext } from './notify';

const ctx: NotifyContext = {
  viewer: { id: 7, isAdmin: false, queueIds: [1], allTicket: false, allHistoric: false, allUserChat: false, allowGroup: false },
  notifyPending: true,
  openTicketUuid: null,
  focused: true,
};
const mine = { uuid: 'a', status: 'open' as const, userId: 7, queueId: 1 };
const customer = { fromMe: false };

describe('shouldNotify', () => {
  it('notifies a customer message on the user’s ticket, not the user’s own message', () => {
    expect(shouldNotify(mine, customer, ctx)).toBe(true);
    expect(shouldNotify(mine, { fromMe: true }, ctx)).toBe(false);
  });

  it('stays quiet for the ticket open on screen while the window has focus', () => {
    expect(shouldNotify(mine, customer, { ...ctx, openTicketUuid: 'a' })).toBe(false);
    expect(shouldNotify(mine, customer, { ...ctx, openTicketUuid: 'a', focused: false })).toBe(true);
  });

  it('notifies pending tickets of the user’s queues only when the company shows pending notifications', () => {
    const pending = { uuid: 'b', status: 'pending' as const, userId: null, queueId: 1 };
    expect(shouldNotify(pending, customer, ctx)).toBe(true);
    expect(shouldNotify(pending, customer, { ...ctx, notifyPending: false })).toBe(false);
    expect(shouldNotify({ ...pending, queueId: 2 }, customer, ctx)).toBe(false);
  });

  it('ignores other users’ tickets and closed ones', () => {
    expect(shouldNotify({ ...mine, userId: 99 }, customer, ctx)).toBe(false);
    expect(shouldNotify({ ...mine, status: 'closed' as const }, customer, ctx)).toBe(false);
  });
});
