import { eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import type { SessionPatch } from '../../channels/sink.js';
import type { AppContext } from '../../http/context.js';
import { presentWhatsapps } from '../whatsapp/queries.js';
import type { WhatsappRow } from '../whatsapp/presenter.js';

/**
 * Persists a session change, then tells the company: `whatsappSession` (with the
 * QR code) to connection managers only, `whatsapp` (without the token) to everyone.
 */
export async function updateSession(ctx: AppContext, whatsappId: number, patch: SessionPatch): Promise<WhatsappRow | undefined> {
  const [row] = await ctx.db.update(whatsapps).set(patch).where(eq(whatsapps.id, whatsappId)).returning();
  if (!row) return undefined;
  await emitSession(ctx, row);
  await emitWhatsapp(ctx, row);
  return row;
}

export async function emitSession(ctx: AppContext, row: WhatsappRow): Promise<void> {
  const session = { id: row.id, status: row.status, qrcode: row.qrcode, retries: row.retries, number: row.number };
  await ctx.events.publish({ type: 'whatsapp.session', companyId: row.companyId, payload: { action: 'update', session } });
}

export async function emitWhatsapp(ctx: AppContext, row: WhatsappRow): Promise<void> {
  const [whatsapp] = await presentWhatsapps(ctx.db, [row], false);
  if (whatsapp) await ctx.events.publish({ type: 'company.record', companyId: row.companyId, name: 'whatsapp', payload: { action: 'update', whatsapp } });
}
