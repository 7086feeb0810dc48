import type { AppContext } from '../../http/context.js';
import { whatsappsWithSession } from './queries.js';
import { startSession } from './service.js';

/** At boot: every WhatsApp connection with stored credentials reconnects without a new scan. */
export async function resumeWhatsappSessions(ctx: AppContext): Promise<number> {
  const rows = await whatsappsWithSession(ctx.db);
  for (const row of rows) startSession(ctx, row);
  if (rows.length) ctx.log.info(`resuming ${rows.length} WhatsApp session(s)`);
  return rows.length;
}
