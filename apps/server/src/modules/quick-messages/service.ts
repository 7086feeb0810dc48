import type { QuickMessage } from '@balcao/contracts';
import { and, asc, eq, or } from 'drizzle-orm';
import { quickMessages } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';

type QuickMessageRow = typeof quickMessages.$inferSelect;

export function presentQuickMessage(row: QuickMessageRow, mediaUrl: (file: string) => string): QuickMessage {
  return {
    id: row.id,
    shortcode: row.shortcode,
    message: row.message,
    geral: row.geral,
    status: row.status,
    visao: row.visao,
    userId: row.userId,
    mediaPath: row.mediaPath,
    mediaName: row.mediaName,
    isMedia: row.mediaPath !== null,
    mediaUrl: row.mediaPath ? mediaUrl(row.mediaPath) : null,
  };
}

/** `GET /quick-messages/list`: the active quick replies the caller may use, the company's general ones and its own. */
export async function listUsableQuickMessages(ctx: AppContext, auth: AuthUser): Promise<QuickMessage[]> {
  const rows = await ctx.db
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.companyId, auth.companyId), eq(quickMessages.status, true), or(eq(quickMessages.geral, true), eq(quickMessages.userId, auth.id))))
    .orderBy(asc(quickMessages.shortcode), asc(quickMessages.id));
  return rows.map((row) => presentQuickMessage(row, (file) => ctx.storage.url(ctx.config.apiUrl, auth.companyId, file)));
}
