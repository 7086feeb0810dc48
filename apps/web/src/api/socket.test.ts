import { describe, expect, it } from 'vitest';
import { isForeignLogin, OWN_LOGIN_GRACE_MS } from './socket';

describe('isForeignLogin', () => {
  it('ignores other users', () => {
    expect(isForeignLogin(2, 1, 0, 100_000)).toBe(false);
  });
  it("ignores the event of this session's own login, right after connecting", () => {
    expect(isForeignLogin(1, 1, 10_000, 10_000 + OWN_LOGIN_GRACE_MS - 1)).toBe(false);
    expect(isForeignLogin(1, 1, null, 10_000)).toBe(false);
  });
  it('acts on a later login of the same user', () => {
    expect(isForeignLogin(1, 1, 10_000, 10_000 + OWN_LOGIN_GRACE_MS + 5_000)).toBe(true);
  });
});
