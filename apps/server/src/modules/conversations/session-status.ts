import { eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import type { SessionPatch } from '../../channels/sink.js';
import type { AppContext } from '../../http/context.js';
import { ROOMS } from '../../realtime/server.js';
import { presentWhatsapps } from '../whatsapp/queries.js';
import type { WhatsappRow } from '../whatsapp/presenter.js';


/**
 * Persists a session change, then tells the company: `whatsappSession` (with the
 * QR code) to connection managers only, `whatsapp` (without the token) to everyone.
 */
export async function updateSession(ctx: AppContext, whatsappId: number, patch: SessionPatch): Promise<WhatsappRow | undefined> {
  const [row] = await ctx.db.update(whatsapps).set(patch).where(eq(whatsapps.id, whatsappId)).returning();
  if (!row) return undefined;
  emitSession(ctx, row);
  await emitWhatsapp(ctx, row);
  return row;
}

export function emitSession(ctx: AppContext, row: WhatsappRow): void {
  ctx.realtime.emitToRooms(row.companyId, [ROOMS.connections], 'whatsappSession', {
    action: 'update',
    session: { id: row.id, status: row.status, qrcode: row.qrcode, retries: row.retries, number: row.number },
  });
}

export async function emitWhatsapp(ctx: AppContext, row: WhatsappRow): Promise<void> {
  const [whatsapp] = await presentWhatsapps(ctx.db, [row], false);
  if (whatsapp) ctx.realtime.emitToCompany(row.companyId, 'whatsapp', { action: 'update', whatsapp });
}
