/**
 * The product's boot sequence (src/main.ts) with a fake Baileys socket, as a child
 * process a test can kill -9: external database (DATABASE_URL), replay of unprocessed
 * inbound events, one WhatsApp session (WA_CONNECTION_ID), HTTP on PORT. The parent
 * sends Baileys `messages.upsert` payloads over IPC; each one is answered with
 * `{ acked: wid }` once stored, which is when Baileys would have acknowledged it.
 */
import type { WAMessage } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { parseConfig } from '../src/config.js';
import { createPool } from '../src/db/client.js';
import { whatsapps } from '../src/db/schema/index.js';
import { buildApp } from '../src/http/app.js';
import { resumeInboundEvents } from '../src/modules/conversations/ingest.js';
import { fakeSocketFactory } from './fakes/wa-socket.js';

const env = process.env;
const config = parseConfig({ ...env, LOG_LEVEL: 'warn' } as Record<string, string>);
const factory = fakeSocketFactory();
const secrets = { jwtSecret: 'crash-access-secret-'.padEnd(48, 'x'), jwtRefreshSecret: 'crash-refresh-secret-'.padEnd(48, 'y') };
const app = await buildApp({ config, secrets, pool: createPool(env.DATABASE_URL!), channels: { makeWaSocket: factory } });
const ctx = app.ctx;
await resumeInboundEvents(ctx);
const [connection] = await ctx.db.select().from(whatsapps).where(eq(whatsapps.id, Number(env.WA_CONNECTION_ID)));
await ctx.channels.whatsapp.start(connection!);
const sock = factory.last();
factory.settleWith(() => ctx.channels.whatsapp.stored());
await sock.emit('connection.update', { connection: 'open' });
await app.listen({ port: Number(env.PORT), host: '127.0.0.1' });

process.on('message', (m: { upsert: WAMessage[] }) => {
  void (async () => {
    for (const msg of m.upsert) {
      await sock.emit('messages.upsert', { messages: [msg], type: 'notify' });
      process.send!({ acked: msg.key.id });
    }
  })();
});
process.send!({ ready: true });
