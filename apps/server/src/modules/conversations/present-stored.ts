import type { Contact, Message, Ticket } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Connection } from '../../channels/adapter.js';
import { companySettings, contactTags, queues, ticketTags, users } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { AppContext } from '../../http/context.js';
import { presentContact, type ContactRow } from '../contacts/presenter.js';
import { extraInfoJson } from '../contacts/queries.js';
import { presentMessage, type MessageRow } from '../messages/presenter.js';
import { loadMessage } from '../messages/queries.js';
import { tagRefsJson } from '../tags/queries.js';
import { presentTicket, type TicketIncludes, type TicketRow } from '../tickets/presenter.js';

/** What a message's transaction returned: enough to present the message and its ticket without reading them back. */
export interface StoredRows {
  ticket: TicketRow;
  message: MessageRow;
  /** The ticket's contact. */
  chat: ContactRow;
  /** The message's contact (the group member in a group; the chat otherwise). */
  sender: Pick<ContactRow, 'id' | 'name'>;
  connection: Connection;
  /** The ticket's includes when the statement that stored the message returned them (then they are not read). */
  includes?: Includes;
}

/** PostgreSQL's btrim(x) <> '' (spaces only), as the ticket query computes hasFarewell. */
const hasText = (text: string) => /[^ ]/.test(text);

export type Includes = {
  extra_info: Contact['extraInfo'];
  contact_tags: Contact['tags'];
  ticket_tags: Ticket['tags'];
  queue: TicketIncludes['queue'];
  owner: TicketIncludes['user'];
  hides_numbers: boolean | null;
};

/** A ticket's columns (its id, contact, queue, owner and company), as SQL of the statement that reads its includes. */
export interface IncludesRefs {
  ticketId: SQL;
  contactId: SQL;
  queueId: SQL;
  userId: SQL;
  companyId: SQL;
}

/**
 * What the written rows lack, as columns of a select: the contact's extra info and tags, the
 * ticket's tags, its queue, its owner, and the company's LGPD flag (realtime/ needs it to mask the
 * events). A read that already has the ticket in hand (the messages API's) selects them with it.
 */
export function includesColumns(t: IncludesRefs) {
  return {
    extra_info: extraInfoJson(t.contactId),
    contact_tags: tagRefsJson(contactTags, sql`${contactTags.contactId} = ${t.contactId}`),
    ticket_tags: tagRefsJson(ticketTags, sql`${ticketTags.ticketId} = ${t.ticketId}`),
    queue: sql<Includes['queue']>`(select json_build_object('id', ${queues.id}, 'name', ${queues.name}, 'color', ${queues.color}) from ${queues} where ${queues.id} = ${t.queueId})`,
    owner: sql<Includes['owner']>`(select json_build_object('id', ${users.id}, 'name', ${users.name}) from ${users} where ${users.id} = ${t.userId})`,
    hides_numbers: sql<Includes['hides_numbers']>`(select ${companySettings.lgpdHideNumber} = 'enabled' from ${companySettings} where ${companySettings.companyId} = ${t.companyId})`,
  };
}

/** The batch's tickets as rows of `t`: one includes statement, whatever their number. */
const t: IncludesRefs = {
  ticketId: sql`t.ticket_id`,
  contactId: sql`t.contact_id`,
  queueId: sql`t.queue_id`,
  userId: sql`t.user_id`,
  companyId: sql`t.company_id`,
};

/**
 * The includes of all the tickets of a batch in ONE statement (`= ANY` of their ids, through unnest).
 * Built once per database handle and run as a named prepared statement: it runs for every
 * inbound batch, where building the query each time was a measurable share of the CPU (docs/BENCHMARKS.md).
 */
function prepareIncludes(db: Db) {
  return db
    .select({ ticket_id: sql<number>`${t.ticketId}`, ...includesColumns(t) })
    .from(
      sql`unnest(${sql.placeholder('ticketIds')}::int[], ${sql.placeholder('contactIds')}::int[], ${sql.placeholder('queueIds')}::int[], ${sql.placeholder('userIds')}::int[], ${sql.placeholder('companyIds')}::int[])
        as t (ticket_id, contact_id, queue_id, user_id, company_id)`,
    )
    .prepare('present_stored_includes');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareIncludes>>();

/** The includes of each ticket, by id (a ticket given twice is read once, as its last row says). */
async function includesOfAll(ctx: AppContext, rows: TicketRow[]): Promise<Map<number, Includes>> {
  let query = prepared.get(ctx.db);
  if (!query) prepared.set(ctx.db, (query = prepareIncludes(ctx.db)));
  const list = [...new Map(rows.map((r) => [r.id, r])).values()];
  const found = await query.execute({
    ticketIds: list.map((r) => r.id),
    contactIds: list.map((r) => r.contactId),
    queueIds: list.map((r) => r.queueId),
    userIds: list.map((r) => r.userId),
    companyIds: list.map((r) => r.companyId),
  });
  return new Map(found.map((row) => [Number(row.ticket_id), row]));
}

/** What `presentStored` adds to one ticket's rows; read once, it presents the same ticket again (`known`) without a statement. */
export async function includesOf(ctx: AppContext, ticket: TicketRow): Promise<Includes | undefined> {
  return (await includesOfAll(ctx, [ticket])).get(ticket.id);
}

/**
 * The stored message and its ticket, shaped as `loadMessage`/`loadTicket` shape them but
 * from the written rows: what the rows lack is read in one statement instead of the
 * five of three sequential re-reads. A quoted message is read as before.
 */
export async function presentStored(ctx: AppContext, s: StoredRows, known?: Includes): Promise<PresentedStored | undefined> {
  if (!known) return (await presentStoredAll(ctx, [s]))[0];
  const quoting = s.message.quotedMsgId ? await loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, s.message.id) : undefined;
  return present(ctx, s, known, quoting);
}

export interface PresentedStored {
  ticket: Ticket;
  message: Message;
  hidesNumbers: boolean;
}

/** `presentStored` for a batch of stored messages: one includes statement for all of them (none when the rows came with theirs). */
export async function presentStoredAll(ctx: AppContext, list: StoredRows[]): Promise<(PresentedStored | undefined)[]> {
  if (list.length === 0) return [];
  const lacking = list.filter((s) => !s.includes).map((s) => s.ticket);
  const [includes, quotings] = await Promise.all([
    lacking.length ? includesOfAll(ctx, lacking) : new Map<number, Includes>(),
    Promise.all(list.map((s) => (s.message.quotedMsgId ? loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, s.message.id) : undefined))),
  ]);
  return list.map((s, i) => {
    const inc = s.includes ?? includes.get(s.ticket.id);
    return inc && present(ctx, s, inc, quotings[i]);
  });
}

function present(ctx: AppContext, s: StoredRows, inc: Includes, quoting: Message | undefined): PresentedStored {
  const { ticket: row, connection } = s;
  const ticket = presentTicket(row, {
    contact: presentContact(s.chat, inc.extra_info, inc.contact_tags),
    queue: inc.queue,
    user: inc.owner,
    whatsapp: {
      id: connection.id,
      name: connection.name,
      expiresTicket: connection.expiresTicket,
      groupAsTicket: connection.groupAsTicket,
      channel: connection.channel,
      hasFarewell: hasText(connection.complationMessage) || hasText(connection.ratingMessage),
    },
    tags: inc.ticket_tags,
  });
  const message =
    quoting ??
    presentMessage(s.message, {
      ticket: { id: row.id, uuid: row.uuid, queue: inc.queue && { name: inc.queue.name } },
      contact: s.message.contactId === null ? null : { id: s.sender.id, name: s.sender.name },
      quoted: null,
      mediaUrl: (companyId, file) => ctx.storage.url(ctx.config.apiUrl, companyId, file),
      // A message just stored is not deleted: lgpdDeleteMessage has nothing to hide in it.
      hideDeletedByContact: false,
    });
  return { ticket, message, hidesNumbers: inc.hides_numbers === true };
}
