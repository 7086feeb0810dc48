import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompanyWithAdmin, createTestApp, type TestApp } from '../../../test/helpers.js';

/** Issue 9 point 4: the login limit never locks the owner out from their own address. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_MAX_PER_EMAIL: '3', LOGIN_MAX_PER_IP: '1000', LOGIN_MAX_PER_ACCOUNT: '12' });
});
afterAll(() => t.close());

const attempt = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/auth/login', payload: { email, password }, remoteAddress });

describe('login limits', () => {
  it('wrong passwords from one address do not lock the owner out from another; the 429 says when to retry', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db);
    const attacker = [];
    for (let i = 0; i < 9; i++) attacker.push((await attempt(email, `guess-${i}`, '203.0.113.7')).statusCode);
    expect(attacker).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429]);

    const blocked = await attempt(email, password, '203.0.113.7');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ error: 'ERR_TOO_MANY_REQUESTS' });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const owner = await attempt(email, password, '198.51.100.20');
    expect(owner.statusCode).toBe(200);
  });

  it('correct passwords never count', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db);
    for (let i = 0; i < 8; i++) expect((await attempt(email, password, '198.51.100.30')).statusCode).toBe(200);
    // A single mistake after many successes is still just a 401.
    expect((await attempt(email, 'typo', '198.51.100.30')).statusCode).toBe(401);
    expect((await attempt(email, password, '198.51.100.30')).statusCode).toBe(200);
  });

  it('a slower per-account cap stops guessing spread over many addresses', async () => {
    const { email, password } = await createCompanyWithAdmin(t.db);
    for (let i = 0; i < 12; i++) expect((await attempt(email, 'guess', `192.0.2.${i + 1}`)).statusCode).toBe(401);
    const capped = await attempt(email, password, '192.0.2.200');
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(60);
  });
});
