import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { whatsappQueues, whatsapps } from '../src/db/schema/index.js';
import { generateConnectionToken } from '../src/modules/whatsapp/service.js';

let page = 5_000_000;

/** A connection written straight to the database (a Messenger Page unless told otherwise). */
export async function createConnection(db: Db, companyId: number, over: Partial<typeof whatsapps.$inferInsert> = {}, queueIds: number[] = []) {
  page += 1;
  const channel = over.channel ?? 'facebook';
  const [row] = await db
    .insert(whatsapps)
    .values({
      companyId,
      name: `Conn ${page}`,
      channel,
      status: 'CONNECTED',
      token: generateConnectionToken(),
      facebookPageId: channel === 'whatsapp' ? null : String(page),
      instagramAccountId: channel === 'instagram' ? String(page + 100_000) : null,
      facebookPageToken: channel === 'whatsapp' ? null : `page-token-${page}`,
      ...over,
    })
    .returning();
  if (!row) throw new Error('no connection');
  if (queueIds.length) await db.insert(whatsappQueues).values(queueIds.map((queueId) => ({ whatsappId: row.id, queueId, companyId })));
  return row;
}

export async function reloadConnection(db: Db, id: number) {
  const [row] = await db.select().from(whatsapps).where(eq(whatsapps.id, id));
  return row;
}

/** Polls until `check` returns a truthy value (async work after a 200, socket-less). */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
