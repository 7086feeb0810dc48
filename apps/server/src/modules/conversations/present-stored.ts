import type { Contact, Message, Ticket } from '@balcao/contracts';
import { sql, type SQL } from 'drizzle-orm';
import type { Connection } from '../../channels/adapter.js';
import { companySettings, contactCustomFields, contactTags, queues, tags, ticketTags, users } from '../../db/schema/index.js';
import type { Db } from '../../db/client.js';
import type { AppContext } from '../../http/context.js';
import { presentContact, type ContactRow } from '../contacts/presenter.js';
import { presentMessage, type MessageRow } from '../messages/presenter.js';
import { loadMessage } from '../messages/queries.js';
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

/** A JSON array of tag refs (name, then id: the order of tagsOfContacts/tagsOfTickets) of one join table's rows. */
const tagRefs = (table: typeof contactTags | typeof ticketTags, key: SQL) =>
  sql`(select coalesce(json_agg(json_build_object('id', ${tags.id}, 'name', ${tags.name}, 'color', ${tags.color}) order by ${tags.name}, ${tags.id}), '[]')
    from ${table} join ${tags} on ${tags.id} = ${table.tagId} where ${key})`;

const contactId = sql.placeholder('contactId');
const ticketId = sql.placeholder('ticketId');

/**
 * What the written rows lack, in ONE statement: the contact's extra info and tags, the
 * ticket's tags, its queue, its owner, and the company's LGPD flag (realtime/ needs it to mask the events).
 * Built once per database handle and run as a named prepared statement: it runs once per inbound
 * message, where building the query each time was a measurable share of the CPU (docs/BENCHMARKS.md).
 */
function prepareIncludes(db: Db) {
  return db
    .select({
      extra_info: sql<Includes['extra_info']>`(select coalesce(json_agg(json_build_object('id', ${contactCustomFields.id}, 'name', ${contactCustomFields.name}, 'value', ${contactCustomFields.value}) order by ${contactCustomFields.id}), '[]')
        from ${contactCustomFields} where ${contactCustomFields.contactId} = ${contactId})`,
      contact_tags: sql<Includes['contact_tags']>`${tagRefs(contactTags, sql`${contactTags.contactId} = ${contactId}`)}`,
      ticket_tags: sql<Includes['ticket_tags']>`${tagRefs(ticketTags, sql`${ticketTags.ticketId} = ${ticketId}`)}`,
      queue: sql<Includes['queue']>`(select json_build_object('id', ${queues.id}, 'name', ${queues.name}, 'color', ${queues.color}) from ${queues} where ${queues.id} = ${sql.placeholder('queueId')})`,
      owner: sql<Includes['owner']>`(select json_build_object('id', ${users.id}, 'name', ${users.name}) from ${users} where ${users.id} = ${sql.placeholder('userId')})`,
      hides_numbers: sql<Includes['hides_numbers']>`(select ${companySettings.lgpdHideNumber} = 'enabled' from ${companySettings} where ${companySettings.companyId} = ${sql.placeholder('companyId')})`,
    })
    .from(sql`(select 1) as one`)
    .prepare('present_stored_includes');
}

const prepared = new WeakMap<Db, ReturnType<typeof prepareIncludes>>();

/** What `presentStored` adds to the ticket's rows; read once, it presents the same ticket again (`known`) without a statement. */
export async function includesOf(ctx: AppContext, ticket: TicketRow): Promise<Includes | undefined> {
  let query = prepared.get(ctx.db);
  if (!query) prepared.set(ctx.db, (query = prepareIncludes(ctx.db)));
  const [row] = await query.execute({ contactId: ticket.contactId, ticketId: ticket.id, queueId: ticket.queueId, userId: ticket.userId, companyId: ticket.companyId });
  return row;
}

/**
 * The stored message and its ticket, shaped as `loadMessage`/`loadTicket` shape them but
 * from the written rows: what the rows lack is read in one statement instead of the
 * five of three sequential re-reads. A quoted message is read as before.
 */
export async function presentStored(
  ctx: AppContext,
  s: StoredRows,
  known?: Includes,
): Promise<{ ticket: Ticket; message: Message; hidesNumbers: boolean } | undefined> {
  const { ticket: row, connection } = s;
  const [inc, quoting] = await Promise.all([
    known ?? includesOf(ctx, row),
    s.message.quotedMsgId ? loadMessage(ctx.db, ctx.storage, ctx.config.apiUrl, s.message.id) : undefined,
  ]);
  if (!inc) return undefined;
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
