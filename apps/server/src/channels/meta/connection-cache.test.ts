import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/client.js';
import { createCompanyWithAdmin, createTestApp, type TestApp } from '../../../test/helpers.js';
import { createConnection, eventually } from '../../../test/connections.js';
import { messengerText } from '../../../test/fakes/meta-webhook.js';
import type { ChannelRuntime } from '../sink.js';
import { MetaAdapter } from './adapter.js';
import { metaWebhookSchema } from './webhook.js';

let t: TestApp;
let companyId: number;
/** Row reads of the connection (`select()` with no columns); the EXISTS test is `select({ one })`. */
let rowReads = 0;

/** The adapter on the test database, counting its row reads. */
function adapter(): MetaAdapter {
  const db = new Proxy(t.db, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (args.length === 0) rowReads += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as Db;
  const rt = { db, log: pino({ level: 'silent' }), mediaLimitBytes: 1 << 20, sink: {} } as unknown as ChannelRuntime;
  return new MetaAdapter(() => rt, 'http://127.0.0.1:9');
}

const body = (pageId: string) => metaWebhookSchema.parse(messengerText(pageId, 'psid-cache', `m-${Math.random()}`, 'oi'));

beforeAll(async () => {
  t = await createTestApp();
  companyId = (await createCompanyWithAdmin(t.db)).company.id;
});

afterAll(async () => {
  await t?.close();
});

describe('servesAccountOf: the connection cache on a miss', () => {
  it('answers a miss with the SQL test and starts one background read, after which deliveries find the row cached', async () => {
    const meta = adapter();
    const pageId = (await createConnection(t.db, companyId)).facebookPageId!;
    rowReads = 0;
    // A burst of deliveries before one is processed: each is told by SQL, and the row is read once.
    const answers = Array.from({ length: 20 }, () => meta.servesAccountOf(body(pageId)));
    expect(answers.every((a) => a !== true)).toBe(true);
    expect(rowReads).toBe(1);
    await eventually(async () => meta.servesAccountOf(body(pageId)) === true);
    expect(rowReads).toBe(1);
  });

  it('keeps an account no connection serves uncached (every delivery told by SQL), with one read in flight at a time', async () => {
    const meta = adapter();
    rowReads = 0;
    const answers = Array.from({ length: 10 }, () => meta.servesAccountOf(body('999000111')));
    expect(answers.every((a) => a !== true)).toBe(true);
    expect(rowReads).toBe(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(meta.servesAccountOf(body('999000111'))).not.toBe(true);
  });
});
