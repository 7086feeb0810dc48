import { and, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { webhookEndpoints } from '../../db/schema/index.js';

/**
 * How stale a company's entry can be on another API node (endpoint CRUD forgets it at once only
 * on the node that made it): there, a new or re-enabled endpoint hears the messages sent through
 * the API and the inbox within this time (the outbox skips the facts it believes nobody wants,
 * docs/webhooks.md); a row already written that the recorder skips is filled by the sweep after its grace.
 */
const TTL_MS = 10_000;
const MAX_COMPANIES = 10_000;

const cached = new WeakMap<Db, Map<number, { events: Set<string>; at: number }>>();
const entriesOf = (db: Db) => cached.get(db) ?? cached.set(db, new Map()).get(db)!;

/**
 * The events a company's enabled endpoints subscribe to, from memory: most companies have no
 * endpoint, and the outbox's INSERT and the recorder's UPDATE of every message were statements that
 * found nothing. `reader`: the transaction a caller holds (a miss must not wait for a second pool client).
 */
export async function subscribedEvents(db: Db, companyId: number, reader: DbOrTx = db): Promise<Set<string>> {
  const entries = entriesOf(db);
  const hit = entries.get(companyId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.events;
  const rows = await reader
    .select({ events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.companyId, companyId), eq(webhookEndpoints.enabled, true)));
  if (entries.size >= MAX_COMPANIES) entries.clear();
  const events = new Set(rows.flatMap((row) => row.events));
  entries.set(companyId, { events, at: Date.now() });
  return events;
}

/** An endpoint of the company was created, changed or deleted on this node. */
export function forgetSubscriptions(db: Db, companyId: number): void {
  entriesOf(db).delete(companyId);
}
