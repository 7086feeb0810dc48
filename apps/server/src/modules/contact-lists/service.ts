import { CONTACT_LISTS_PAGE_SIZE, type ContactList, type ContactListPage, type contactListBody, type PageQuery } from '@balcao/contracts';
import { and, asc, count, eq, ilike } from 'drizzle-orm';
import type { z } from 'zod';
import { contactLists } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { announceList } from './events.js';
import { contactsCount, listNotFound, loadList, presentList } from './queries.js';

/** `GET /contact-lists`: 20 a page by name, each with its `contactsCount`. */
export async function pageLists(ctx: AppContext, by: AuthUser, q: PageQuery): Promise<ContactListPage> {
  const term = containsPattern(q.searchParam);
  const where = and(eq(contactLists.companyId, by.companyId), term ? ilike(contactLists.name, term) : undefined);
  const [total] = await ctx.db.select({ n: count() }).from(contactLists).where(where);
  const rows = await ctx.db
    .select({ list: contactLists, count: contactsCount })
    .from(contactLists)
    .where(where)
    .orderBy(asc(contactLists.name), asc(contactLists.id))
    .limit(CONTACT_LISTS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { records: rows.map((r) => presentList(r.list, r.count)), count: n, hasMore: q.pageNumber * CONTACT_LISTS_PAGE_SIZE < n };
}

/** `GET /contact-lists/list`: every list of the company (the campaign modal's select). */
export async function allLists(ctx: AppContext, by: AuthUser): Promise<ContactList[]> {
  const rows = await ctx.db
    .select({ list: contactLists, count: contactsCount })
    .from(contactLists)
    .where(eq(contactLists.companyId, by.companyId))
    .orderBy(asc(contactLists.name), asc(contactLists.id));
  return rows.map((r) => presentList(r.list, r.count));
}

export const getList = (ctx: AppContext, by: AuthUser, id: number) => loadList(ctx.db, by.companyId, id);

export async function createList(ctx: AppContext, by: AuthUser, body: z.output<typeof contactListBody>): Promise<ContactList> {
  const [row] = await ctx.db.insert(contactLists).values({ companyId: by.companyId, name: body.name }).returning();
  if (!row) throw listNotFound();
  const list = presentList(row, 0);
  await announceList(ctx, by.companyId, { action: 'create', record: list });
  return list;
}

export async function updateList(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof contactListBody>): Promise<ContactList> {
  const updated = await ctx.db
    .update(contactLists)
    .set({ name: body.name })
    .where(and(eq(contactLists.companyId, by.companyId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  if (updated.length === 0) throw listNotFound();
  const list = await loadList(ctx.db, by.companyId, id);
  await announceList(ctx, by.companyId, { action: 'update', record: list });
  return list;
}

/** Its items go with it (cascade); campaigns that named it keep running on their shipping rows, and show 'not defined'. */
export async function deleteList(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const deleted = await ctx.db
    .delete(contactLists)
    .where(and(eq(contactLists.companyId, by.companyId), eq(contactLists.id, id)))
    .returning({ id: contactLists.id });
  if (deleted.length === 0) throw listNotFound();
  await announceList(ctx, by.companyId, { action: 'delete', id });
}
