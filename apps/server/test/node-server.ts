/**
 * One API node of a multi-node deployment, booted as src/main.ts does (external database,
 * pg-boss, Redis through REDIS_URL, stored WhatsApp sessions resumed, session leases), with
 * a fake Baileys socket that opens at once, as a stored session does. A child process a test
 * can kill -9. Over IPC it reports `{ ready, nodeId }`, then `{ sent }` for every message its
 * WhatsApp sockets send, so the parent can count sends across nodes. A bench may send
 * `{ profile: 'start' }` and `{ profile: 'stop', file }`: a V8 CPU profile of this process in between.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import pino from 'pino';
import { parseConfig } from '../src/config.js';
import { createPool } from '../src/db/client.js';
import { buildApp } from '../src/http/app.js';
import { startJobs } from '../src/jobs/boss.js';
import { registerChannelJobs } from '../src/jobs/channels.js';
import { registerContactPictureJob } from '../src/modules/contacts/picture.js';
import { resumeInboundEvents } from '../src/modules/conversations/ingest.js';
import { resumeWhatsappSessions, startSessionLeases } from '../src/modules/whatsapp/resume.js';
import type { WaSocketFactory } from '../src/channels/whatsapp/socket.js';
import { fakeSocketFactory } from './fakes/wa-socket.js';

const env = process.env;
const connectionString = env.DATABASE_URL!;
const config = parseConfig({ ...env, LOG_LEVEL: 'warn' } as Record<string, string>);
const log = pino({ level: 'warn' });
const fakes = fakeSocketFactory();
const makeWaSocket: WaSocketFactory = (socketConfig) => {
  fakes(socketConfig);
  const sock = fakes.last();
  const send = sock.sendMessage.bind(sock);
  sock.sendMessage = async (jid, content, options) => {
    const sent = await send(jid, content, options);
    process.send!({ sent: { jid, text: (content as { text?: string }).text, id: sent?.key.id } });
    return sent;
  };
  // A stored session reconnects without a QR: the socket opens right away.
  setImmediate(() => void sock.emit('connection.update', { connection: 'open' }));
  return sock;
};
const secrets = { jwtSecret: 'nodes-access-secret-'.padEnd(48, 'x'), jwtRefreshSecret: 'nodes-refresh-secret-'.padEnd(48, 'y') };
const boss = await startJobs(connectionString, log);
const app = await buildApp({ config, secrets, pool: createPool(connectionString), logger: log, boss, channels: { makeWaSocket } });
await registerChannelJobs(boss, app.ctx);
// As main.ts: without the worker every message of a contact whose picture job waits queues it again (a commit each).
await registerContactPictureJob(boss, app.ctx);
await resumeInboundEvents(app.ctx);
await resumeWhatsappSessions(app.ctx);
await startSessionLeases(app.ctx, { connectionString });
await app.listen({ port: Number(env.PORT), host: '127.0.0.1' });
process.send!({ ready: true, nodeId: app.ctx.channels.whatsapp.leases.nodeId });

const inspector = new Session();
process.on('message', (m: { profile?: 'start' | 'stop'; file?: string }) => {
  if (m.profile === 'start') {
    inspector.connect();
    void inspector.post('Profiler.enable').then(() => inspector.post('Profiler.start'));
  } else if (m.profile === 'stop') {
    void inspector.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(m.file!, JSON.stringify(profile));
      inspector.disconnect();
      process.send!({ profiled: m.file });
    });
  }
});
