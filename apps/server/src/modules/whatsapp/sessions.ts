import { startSessionBody } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { updateSession } from '../conversations/session-status.js';
import { closeImportedTickets } from '../conversations/commands/tickets.js';
import { assertCanManage, connectionFor, startSession } from './service.js';

/**
 * `POST /whatsappsession/{id}`: try again with the stored session (or a new QR when there is none);
 * with `phoneNumber`, a WhatsApp connection is linked by pairing code instead of a QR.
 */
export async function startWhatsappSession(ctx: AppContext, by: AuthUser, id: number, body: unknown): Promise<void> {
  await assertCanManage(ctx, by);
  const { phoneNumber } = startSessionBody.parse(body ?? {});
  const row = await connectionFor(ctx, by, id);
  if (!phoneNumber || row.channel !== 'whatsapp') return startSession(ctx, row);
  ctx.channels.whatsapp
    .start(row, { pairingNumber: phoneNumber })
    .catch((err: unknown) => ctx.log.error({ err, whatsappId: row.id }, 'starting the session by pairing code failed'));
}

/** `PUT /whatsappsession/{id}`: forget the session and show a new QR. */
export async function renewWhatsappSession(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  const adapter = ctx.channels.adapterFor(row.channel);
  await adapter.stop(row, { logout: true });
  await updateSession(ctx, id, { status: row.channel === 'whatsapp' ? 'qrcode' : 'OPENING', qrcode: '', retries: 0 });
  startSession(ctx, row);
}

/** `DELETE /whatsappsession/{id}`: disconnect (the device is unlinked; a new QR is needed afterwards). */
export async function stopWhatsappSession(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  await ctx.channels.adapterFor(row.channel).stop(row, { logout: true });
}

/** `POST /whatsapp-restart/`: every connection of the caller's company reconnects. */
export async function restartCompanySessions(ctx: AppContext, by: AuthUser): Promise<number> {
  await assertCanManage(ctx, by);
  const rows = await ctx.db.select().from(whatsapps).where(eq(whatsapps.companyId, by.companyId));
  for (const row of rows) startSession(ctx, row);
  return rows.length;
}

/** `POST /closedimported/{id}`: closes the tickets an import created and hides the button. */
export async function closeImported(ctx: AppContext, by: AuthUser, id: number): Promise<number> {
  await assertCanManage(ctx, by);
  const row = await connectionFor(ctx, by, id);
  const closed = await closeImportedTickets(ctx, row.companyId, id);
  await updateSession(ctx, id, { statusImportMessages: null });
  return closed;
}
