import { afterAll, describe, expect, it, inject } from 'vitest';
import { asBackground, asForeground, PriorityPool } from './priority-pool.js';

const pool = new PriorityPool({ connectionString: inject('pgAdminUrl'), max: 2 });
/** One connection: statements finish in the order they were given it. */
const single = new PriorityPool({ connectionString: inject('pgAdminUrl'), max: 1 });
afterAll(() => Promise.all([pool.end(), single.end()]));

describe('the pool by priority (issue 10, Performance: the steady-rate tail)', () => {
  it('gives a freed connection to a waiting request before the background statements queued ahead of it', async () => {
    const order: string[] = [];
    const held = await single.connect();
    const background = Array.from({ length: 3 }, (_, i) => asBackground(() => single.query('SELECT 1').then(() => void order.push(`background ${i}`))));
    const request = single.query('SELECT 1').then(() => void order.push('request'));
    // Work a background task sets going (the inbound lanes) keeps the foreground's place.
    const lane = asBackground(() => asForeground(() => single.query('SELECT 1').then(() => void order.push('lane'))));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(single.queued()).toEqual({ foreground: 2, background: 3 });
    held.release();
    await Promise.all([...background, request, lane]);
    expect(order).toEqual(['request', 'lane', 'background 0', 'background 1', 'background 2']);
    expect(single.queued()).toEqual({ foreground: 0, background: 0 });
  });

  it('serves a background task that holds a connection before waiting requests: its open transaction is not starved', async () => {
    const order: string[] = [];
    const mine = await pool.connect();
    let txOpen!: () => void;
    let requestQueued!: () => void;
    const opened = new Promise<void>((resolve) => (txOpen = resolve));
    const queued = new Promise<void>((resolve) => (requestQueued = resolve));
    const task = asBackground(async () => {
      const tx = await pool.connect();
      txOpen();
      await queued;
      try {
        // A statement beside its own transaction (a read through the pool while the transaction is open).
        await pool.query('SELECT 1');
        order.push('background, beside its transaction');
      } finally {
        tx.release();
      }
    });
    await opened;
    const request = pool.query('SELECT 1').then(() => void order.push('request'));
    requestQueued();
    await new Promise((resolve) => setTimeout(resolve, 50));
    mine.release();
    await Promise.all([task, request]);
    expect(order).toEqual(['background, beside its transaction', 'request']);
  });

  it('keeps half the connections for background work that asks for them, however many requests wait', async () => {
    const order: string[] = [];
    const held = [await pool.connect(), await pool.connect()];
    const requests = Array.from({ length: 3 }, (_, i) => pool.query('SELECT pg_sleep(0.05)').then(() => void order.push(`request ${i}`)));
    const background = asBackground(() => pool.query('SELECT 1').then(() => void order.push('background')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    held[0]!.release();
    await background;
    held[1]!.release();
    await Promise.all(requests);
    expect(order[0]).toBe('background');
  });
});
