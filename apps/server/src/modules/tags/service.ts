import {
  DEFAULT_TAG_COLOR,
  TAGS_PAGE_SIZE,
  type Contact,
  type ListEventPayload,
  type Tag,
  type TagWithCount,
  type createTagBody,
  type pageTagsQuery,
  type syncTagsBody,
  type updateTagBody,
} from '@balcao/contracts';
import { and, asc, count, eq, ilike, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { contactTags, ticketTags, tags } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { tagTicket, untagTicket } from '../conversations/commands/ticket-tags.js';
import { contactMaskFor } from '../contacts/lgpd.js';
import { findContact, loadContact } from '../contacts/queries.js';
import { emitContact } from '../contacts/service.js';
import { conflictAs } from '../contacts/unique.js';
import { visibleTicket } from '../messages/access.js';
import { loadViewer } from '../tickets/visibility.js';
import { findTag, findTagByName, presentTag, tagsOfContacts, tagsOfTickets, type TagRef } from './queries.js';

/** Tags are shared by the company: every user reads them, creates them (the contact drawer does) and edits them (as in Whaticket). */

const tagNotFound = () => new AppError('ERR_NO_TAG_FOUND', 404);
const contactNotFound = () => new AppError('ERR_NO_CONTACT_FOUND', 404);
const NAME_KEY = 'tags_company_id_name_kanban_key';

/** `company{id}-tag` to every user of the company. */
async function emitTag(ctx: AppContext, companyId: number, payload: ListEventPayload<Tag>): Promise<void> {
  await ctx.events.publish({ type: 'tag.record', companyId, payload });
}

/** Name is unique per company and kanban flag, whatever its case: checked for a clear code, the unique key backs it up. */
async function assertNameFree(db: DbOrTx, companyId: number, name: string, kanban: number, exceptId?: number): Promise<void> {
  const clash = await findTagByName(db, companyId, name, kanban);
  if (clash && clash.id !== exceptId) throw new AppError('ERR_TAG_ALREADY_EXISTS', 409);
}

/** `GET /tags/list`: the company's tags by name, optionally only kanban lanes (1) or only plain tags (0). */
export async function listTags(ctx: AppContext, by: AuthUser, kanban?: number): Promise<Tag[]> {
  const rows = await ctx.db
    .select()
    .from(tags)
    .where(and(eq(tags.companyId, by.companyId), kanban === undefined ? undefined : eq(tags.kanban, kanban)))
    .orderBy(asc(tags.name), asc(tags.id));
  return rows.map(presentTag);
}

/** `GET /tags`: 20 per page by name, each with the numbers of tickets (`ticketTags`) and contacts (`contactTags`) carrying it; `tagId` narrows to one. */
export async function pageTags(ctx: AppContext, by: AuthUser, q: z.output<typeof pageTagsQuery>) {
  const term = containsPattern(q.searchParam);
  const where = and(
    eq(tags.companyId, by.companyId),
    term ? ilike(tags.name, term) : undefined,
    q.kanban === undefined ? undefined : eq(tags.kanban, q.kanban),
    q.tagId === undefined ? undefined : eq(tags.id, q.tagId),
  );
  const [total] = await ctx.db.select({ n: count() }).from(tags).where(where);
  const rows = await ctx.db
    .select({
      tag: tags,
      ticketTags: sql<number>`(select count(*) from ${ticketTags} where ${ticketTags.tagId} = ${tags.id})::int`,
      contactTags: sql<number>`(select count(*) from ${contactTags} where ${contactTags.tagId} = ${tags.id})::int`,
    })
    .from(tags)
    .where(where)
    .orderBy(asc(tags.name), asc(tags.id))
    .limit(TAGS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * TAGS_PAGE_SIZE);
  const n = total?.n ?? 0;
  const page: TagWithCount[] = rows.map((r) => ({ ...presentTag(r.tag), ticketTags: r.ticketTags, contactTags: r.contactTags }));
  return { tags: page, count: n, hasMore: q.pageNumber * TAGS_PAGE_SIZE < n };
}

export async function getTag(ctx: AppContext, by: AuthUser, id: number): Promise<Tag> {
  const row = await findTag(ctx.db, by.companyId, id);
  if (!row) throw tagNotFound();
  return presentTag(row);
}

/** Lanes named as next / rollback must be the company's. */
async function assertLanes(db: DbOrTx, companyId: number, body: { nextLaneId?: number | null; rollbackLaneId?: number | null }) {
  for (const id of [body.nextLaneId, body.rollbackLaneId]) if (id && !(await findTag(db, companyId, id))) throw tagNotFound();
}

export async function createTag(ctx: AppContext, by: AuthUser, body: z.output<typeof createTagBody>): Promise<Tag> {
  const row = await conflictAs(NAME_KEY, 'ERR_TAG_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      await assertNameFree(tx, by.companyId, body.name, body.kanban);
      await assertLanes(tx, by.companyId, body);
      const [inserted] = await tx
        .insert(tags)
        .values({ ...body, companyId: by.companyId })
        .returning();
      return inserted;
    }),
  );
  if (!row) throw new AppError('ERR_INTERNAL', 500);
  const tag = presentTag(row);
  await emitTag(ctx, by.companyId, { action: 'create', record: tag });
  return tag;
}

export async function updateTag(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateTagBody>): Promise<Tag> {
  const row = await conflictAs(NAME_KEY, 'ERR_TAG_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      const scope = and(eq(tags.companyId, by.companyId), eq(tags.id, id));
      const [current] = await tx.select().from(tags).where(scope).for('update');
      if (!current) throw tagNotFound();
      await assertNameFree(tx, by.companyId, body.name ?? current.name, body.kanban ?? current.kanban, id);
      await assertLanes(tx, by.companyId, body);
      if (Object.keys(body).length === 0) return current;
      const [updated] = await tx.update(tags).set(body).where(scope).returning();
      return updated;
    }),
  );
  if (!row) throw tagNotFound();
  const tag = presentTag(row);
  await emitTag(ctx, by.companyId, { action: 'update', record: tag });
  return tag;
}

/** Its contact and ticket links go with it (cascade). */
export async function deleteTag(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const deleted = await ctx.db
    .delete(tags)
    .where(and(eq(tags.companyId, by.companyId), eq(tags.id, id)))
    .returning({ id: tags.id });
  if (deleted.length === 0) throw tagNotFound();
  await emitTag(ctx, by.companyId, { action: 'delete', id });
}

/**
 * `POST /tags/sync`: the contact's tags become exactly the list. An entry with an id must
 * name a tag of the company; one without is found by name (any case) among the plain tags,
 * or created. Answers the contact (with its `tags`), as the caller may see it.
 */
export async function syncContactTags(ctx: AppContext, by: AuthUser, body: z.output<typeof syncTagsBody>): Promise<Contact> {
  const companyId = by.companyId;
  const created = await conflictAs(NAME_KEY, 'ERR_TAG_ALREADY_EXISTS', () =>
    ctx.db.transaction(async (tx) => {
      if (!(await findContact(tx, companyId, body.contactId))) throw contactNotFound();
      const ids: number[] = [];
      const fresh: Tag[] = [];
      for (const entry of body.tags) {
        const known = entry.id ? await findTag(tx, companyId, entry.id) : await findTagByName(tx, companyId, entry.name, 0);
        if (entry.id && !known) throw tagNotFound();
        if (known) {
          ids.push(known.id);
          continue;
        }
        const [inserted] = await tx
          .insert(tags)
          .values({ companyId, name: entry.name, color: entry.color ?? DEFAULT_TAG_COLOR, kanban: 0 })
          .returning();
        if (!inserted) throw new AppError('ERR_INTERNAL', 500);
        ids.push(inserted.id);
        fresh.push(presentTag(inserted));
      }
      await tx
        .delete(contactTags)
        .where(and(eq(contactTags.contactId, body.contactId), ids.length > 0 ? notInArray(contactTags.tagId, ids) : undefined));
      if (ids.length > 0) {
        await tx
          .insert(contactTags)
          .values([...new Set(ids)].map((tagId) => ({ contactId: body.contactId, tagId })))
          .onConflictDoNothing();
      }
      return fresh;
    }),
  );
  for (const tag of created) await emitTag(ctx, companyId, { action: 'create', record: tag });
  return announceContact(ctx, by, body.contactId);
}

async function announceContact(ctx: AppContext, by: AuthUser, contactId: number): Promise<Contact> {
  const contact = await loadContact(ctx.db, by.companyId, contactId);
  if (!contact) throw contactNotFound();
  await emitContact(ctx, by.companyId, 'update', contact);
  return (await contactMaskFor(ctx.db, by))(contact);
}

/** `GET /contactTags/{contactId}` → `{ tags }`. */
export async function contactTagsOf(ctx: AppContext, by: AuthUser, contactId: number): Promise<{ tags: TagRef[] }> {
  if (!(await findContact(ctx.db, by.companyId, contactId))) throw contactNotFound();
  return { tags: (await tagsOfContacts(ctx.db, [contactId])).get(contactId) ?? [] };
}

/** `DELETE /tags-contacts/{tagId}/{contactId}`: one link; the contact's update goes out. */
export async function removeContactTag(ctx: AppContext, by: AuthUser, tagId: number, contactId: number): Promise<void> {
  if (!(await findContact(ctx.db, by.companyId, contactId))) throw contactNotFound();
  if (!(await findTag(ctx.db, by.companyId, tagId))) throw tagNotFound();
  await ctx.db.delete(contactTags).where(and(eq(contactTags.contactId, contactId), eq(contactTags.tagId, tagId)));
  await announceContact(ctx, by, contactId);
}

/** A ticket the caller may see (404 outside the company, 403 otherwise). */
async function ticketFor(ctx: AppContext, by: AuthUser, ticketId: number) {
  return visibleTicket(ctx.db, await loadViewer(ctx.db, by), String(ticketId));
}

const ticketTagRefs = async (db: DbOrTx, ticketId: number) => ({ tags: (await tagsOfTickets(db, [ticketId])).get(ticketId) ?? [] });

/** `PUT /ticket-tags/{ticketId}/{tagId}`: adds the tag (idempotent); answers the ticket's tags. */
export async function addTicketTag(ctx: AppContext, by: AuthUser, ticketId: number, tagId: number): Promise<{ tags: TagRef[] }> {
  const ticket = await ticketFor(ctx, by, ticketId);
  if (!(await findTag(ctx.db, by.companyId, tagId))) throw tagNotFound();
  await tagTicket(ctx, ticket.id, tagId);
  return ticketTagRefs(ctx.db, ticket.id);
}

/** `DELETE /ticket-tags/{ticketId}`: removes every tag of the ticket (the kanban moves it back to the default lane). */
export async function clearTicketTags(ctx: AppContext, by: AuthUser, ticketId: number): Promise<{ tags: TagRef[] }> {
  const ticket = await ticketFor(ctx, by, ticketId);
  await untagTicket(ctx, ticket.id);
  return { tags: [] };
}
