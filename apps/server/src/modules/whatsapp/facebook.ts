import type { FacebookConnectBody, Whatsapp } from '@balcao/contracts';
import { facebookConnectBody } from '@balcao/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { whatsapps } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { GraphError } from '../../channels/meta/graph.js';
import { emitWhatsapp } from '../conversations/session-status.js';
import { presentWhatsapps } from './queries.js';
import { assertCanManage, assertOwnQueueIds, assertPlanAllows, canManageConnections, generateConnectionToken, replaceQueues } from './service.js';

export type { FacebookConnectBody };

interface Page {
  id: string;
  name: string;
  access_token: string;
  instagram_business_account?: { id: string };
}

/** Webhook fields each Page is subscribed to (messages, echoes, receipts, reactions, edits, postbacks). */
const SUBSCRIBED_FIELDS = 'messages,messaging_postbacks,message_deliveries,message_reads,message_echoes,message_reactions,message_edits';

/**
 * `POST /facebook`: the user token from Meta's login becomes a long-lived one, which
 * lists the user's Pages and their tokens; each Page is subscribed to our app's webhook
 * and becomes one connection (Facebook), or — with `addInstagram` — each Page's linked
 * Instagram professional account does. A Page already connected in this company gets
 * its token refreshed instead of a second connection. Answers the connections (bare array).
 */
export async function connectFacebook(ctx: AppContext, by: AuthUser, input: z.output<typeof facebookConnectBody>): Promise<Whatsapp[]> {
  await assertCanManage(ctx, by);
  const { appId, appSecret } = ctx.config.meta;
  if (!appId || !appSecret) throw new AppError('ERR_FACEBOOK_NOT_CONFIGURED', 400, 'FACEBOOK_APP_ID and FACEBOOK_APP_SECRET are not configured');
  await assertOwnQueueIds(ctx.db, by.companyId, input.queueIds);
  const channel = input.addInstagram ? 'instagram' : 'facebook';
  const graph = ctx.channels.meta.graph;

  const pages = await metaCall(async () => {
    const long = await graph.get<{ access_token: string }>('oauth/access_token', {
      grant_type: 'fb_exchange_token',
      client_id: appId,
      client_secret: appSecret,
      fb_exchange_token: input.facebookUserToken,
    });
    const accounts = await graph.get<{ data?: Page[] }>('me/accounts', {
      fields: 'id,name,access_token,instagram_business_account',
      access_token: long.access_token,
    });
    return accounts.data ?? [];
  });
  const targets = pages
    .filter((p) => !input.addInstagram || p.instagram_business_account)
    .map((p) => ({ page: p, accountId: input.addInstagram ? p.instagram_business_account!.id : p.id }));
  if (targets.length === 0) throw new AppError('ERR_FACEBOOK_LOGIN', 400, input.addInstagram ? 'no Page with a linked Instagram account' : 'no Page');

  await metaCall(() =>
    Promise.all(targets.map(({ page }) => graph.post(`${page.id}/subscribed_apps`, { subscribed_fields: SUBSCRIBED_FIELDS, access_token: page.access_token }))),
  );

  const accountColumn = channel === 'instagram' ? whatsapps.instagramAccountId : whatsapps.facebookPageId;
  const rows = await ctx.db.transaction(async (tx) => {
    const existing = await tx
      .select()
      .from(whatsapps)
      .where(and(eq(whatsapps.channel, channel), inArray(accountColumn, targets.map((t) => t.accountId))));
    if (existing.some((w) => w.companyId !== by.companyId)) throw new AppError('ERR_PAGE_ALREADY_CONNECTED', 409);
    const known = new Map(existing.map((w) => [channel === 'instagram' ? w.instagramAccountId : w.facebookPageId, w]));
    const fresh = targets.filter((t) => !known.has(t.accountId));
    await assertPlanAllows(tx, by.companyId, channel, fresh.length);
    const hasDefault = (await tx.select({ id: whatsapps.id }).from(whatsapps).where(and(eq(whatsapps.companyId, by.companyId), eq(whatsapps.isDefault, true)))).length > 0;

    const out = [];
    for (const [i, t] of targets.entries()) {
      const current = known.get(t.accountId);
      const values = { facebookPageToken: t.page.access_token, status: 'CONNECTED' as const, qrcode: '', retries: 0 };
      const [row] = current
        ? await tx.update(whatsapps).set(values).where(eq(whatsapps.id, current.id)).returning()
        : await tx
            .insert(whatsapps)
            .values({
              ...values,
              companyId: by.companyId,
              channel,
              name: t.page.name.slice(0, 50),
              token: generateConnectionToken(),
              facebookPageId: t.page.id,
              instagramAccountId: channel === 'instagram' ? t.accountId : null,
              isDefault: !hasDefault && i === 0,
            })
            .returning();
      if (!row) continue;
      // Chosen queues go to each Page of this login (a re-login with none keeps what the Page had).
      if (input.queueIds.length) await replaceQueues(tx, by.companyId, row.id, input.queueIds);
      out.push(row);
    }
    return out;
  });
  for (const row of rows) await emitWhatsapp(ctx, row);
  return presentWhatsapps(ctx.db, rows, await canManageConnections(ctx, by));
}

/** Meta refusing the login (expired token, missing permission) is the caller's problem: 400, never 500. */
async function metaCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof GraphError) throw new AppError('ERR_FACEBOOK_LOGIN', 400, `Meta refused the request (code ${err.code ?? err.status})`);
    throw err;
  }
}
