import type pg from 'pg';
import type { AppContext } from '../../http/context.js';
import { deliver } from '../conversations/outbound.js';
import { whatsappsWithSession } from './queries.js';

/**
 * At boot: every WhatsApp connection with stored credentials reconnects without a new scan,
 * unless another API node runs it (its lease is live). Without REDIS_URL there is one node:
 * leases left by this node's previous run (killed) are taken at once rather than after they expire.
 */
export async function resumeWhatsappSessions(ctx: AppContext): Promise<number> {
  const rows = await whatsappsWithSession(ctx.db);
  const severalNodes = ctx.config.redisUrl !== undefined;
  for (const row of rows) {
    ctx.channels.whatsapp
      .start(row, { ifFree: severalNodes })
      .catch((err: unknown) => ctx.log.error({ err, whatsappId: row.id }, 'resuming the session failed'));
  }
  if (rows.length) ctx.log.info(`resuming ${rows.length} WhatsApp session(s) not run by another node`);
  return rows.length;
}

/**
 * Session leases across API nodes (docs/operations.md): the heartbeat keeps this node's
 * sessions, takes over those of dead nodes, and sends the outbox rows other nodes route here.
 */
export async function startSessionLeases(ctx: AppContext, connection: pg.ClientConfig): Promise<void> {
  const sessions = ctx.channels.whatsapp;
  await sessions.leases.start(
    connection,
    {
      lost: (id) => sessions.dropLocal(id),
      orphaned: (id) => sessions.takeOver(id),
      routed: async (messageId) => {
        await deliver(ctx, messageId, 'first');
      },
      command: (command) => sessions.runCommand(command),
    },
    () => sessions.runningIds(),
  );
}
