import type { WebhookEvent } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import type { TxHandler, TxInterest } from '../../events/bus.js';
import type { TxFact } from '../../events/types.js';
import { subscribedEvents } from './subscriptions.js';

/**
 * How long a delivery written in a transaction waits for its payload (filled right after the
 * commit, when the event is presented) before the sweep presents it itself from its ref.
 */
export const UNFILLED_GRACE_SECONDS = 30;

const intArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::int[]`;

/** The rows `source` selects (`company_id`, `ref`), once per enabled endpoint of their company subscribed to `event`: one statement. */
function insertIntents(tx: DbOrTx, event: WebhookEvent, source: SQL) {
  return tx.execute(sql`
    INSERT INTO webhook_deliveries (company_id, endpoint_id, event, ref, next_attempt_at)
    SELECT s.company_id, e.id, ${event}, s.ref, now() + make_interval(secs => ${UNFILLED_GRACE_SECONDS})
    FROM (${source}) s
    JOIN webhook_endpoints e ON e.company_id = s.company_id AND e.enabled AND ${event} = ANY(e.events)`);
}

function writeFact(tx: DbOrTx, fact: TxFact) {
  switch (fact.type) {
    case 'message.created':
      // Internal notes stay inside the company.
      return insertIntents(
        tx,
        'message.created',
        sql`SELECT company_id, jsonb_build_object('messageId', id) AS ref FROM messages WHERE id = ANY(${intArray(fact.messageIds)}) AND NOT is_private`,
      );
    case 'ticket.status': {
      const ids = intArray(fact.changes.map((c) => c.ticketId));
      const before = sql`${`{${fact.changes.map((c) => `"${c.previousStatus}"`).join(',')}}`}::text[]`;
      return insertIntents(
        tx,
        'ticket.status_changed',
        sql`SELECT t.company_id, jsonb_build_object('ticketId', t.id, 'previousStatus', c.before, 'status', t.status) AS ref
            FROM unnest(${ids}, ${before}) AS c(id, before) JOIN tickets t ON t.id = c.id WHERE t.status <> c.before`,
      );
    }
    case 'contact.created':
      return insertIntents(tx, 'contact.created', sql`SELECT company_id, jsonb_build_object('contactId', id) AS ref FROM contacts WHERE id = ANY(${intArray(fact.contactIds)})`);
    case 'campaign.finished':
      return insertIntents(tx, 'campaign.finished', sql`SELECT company_id, jsonb_build_object('campaignId', id) AS ref FROM campaigns WHERE id = ANY(${intArray(fact.campaignIds)})`);
  }
}

/**
 * In-transaction bus subscriber: the outbox rows of the facts, in the transaction of the change,
 * so a delivery exists iff its change committed (docs/webhooks.md). Payload-less: `webhookRecorder`
 * fills it from the presented event after the commit and queues the send. A message fact that names
 * its company is skipped when no endpoint of that company wants it (`subscribedEvents`, from memory).
 */
export function webhookOutbox(db: Db): TxHandler {
  return async (tx, facts) => {
    for (const fact of facts) {
      if (idsOf(fact).length === 0) continue;
      if (fact.type === 'message.created' && fact.companyId !== undefined && !(await subscribedEvents(db, fact.companyId, tx)).has('message.created')) continue;
      await writeFact(tx, fact);
    }
  };
}

/**
 * `webhookOutbox`'s interest: a message or contact fact only for a company with an endpoint wanting it
 * (every other fact is written). A writer asking first may skip its transaction (the messages API's first send).
 */
export function webhookOutboxInterest(db: Db): TxInterest {
  return async (type, companyId) =>
    (type !== 'message.created' && type !== 'contact.created') || (await subscribedEvents(db, companyId)).has(type);
}

function idsOf(fact: TxFact): unknown[] {
  switch (fact.type) {
    case 'message.created':
      return fact.messageIds;
    case 'ticket.status':
      return fact.changes;
    case 'contact.created':
      return fact.contactIds;
    case 'campaign.finished':
      return fact.campaignIds;
  }
}
