import {
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  type ContactListItem,
  type ContactListItemPage,
  type contactListItemsQuery,
  type createContactListItemBody,
  type updateContactListItemBody,
} from '@balcao/contracts';
import { and, asc, count, eq, ilike, or } from 'drizzle-orm';
import type { z } from 'zod';
import { contactListItems } from '../../db/schema/index.js';
import { containsPattern } from '../../db/search.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { conflictAs } from '../contacts/unique.js';
import { announceItem, announceList } from './events.js';
import { itemNotFound, loadList, presentItem } from './queries.js';
import { itemNumber } from './numbers.js';
import { queueValidityCheck } from './validity.js';

const NUMBER_KEY = 'contact_list_items_list_number_key';
const invalidNumber = () => new AppError('ERR_VALIDATION', 400, 'number: invalid', [{ path: 'number', message: 'Invalid number' }]);
const mine = (by: AuthUser, id: number) => and(eq(contactListItems.companyId, by.companyId), eq(contactListItems.id, id));

/** `GET /contact-list-items`: 40 a page of one list of the company, by name; the search matches name, number or e-mail. */
export async function pageItems(ctx: AppContext, by: AuthUser, q: z.output<typeof contactListItemsQuery>): Promise<ContactListItemPage> {
  await loadList(ctx.db, by.companyId, q.contactListId);
  const term = containsPattern(q.searchParam);
  const where = and(
    eq(contactListItems.companyId, by.companyId),
    eq(contactListItems.contactListId, q.contactListId),
    term ? or(ilike(contactListItems.name, term), ilike(contactListItems.number, term), ilike(contactListItems.email, term)) : undefined,
  );
  const [total] = await ctx.db.select({ n: count() }).from(contactListItems).where(where);
  const rows = await ctx.db
    .select()
    .from(contactListItems)
    .where(where)
    .orderBy(asc(contactListItems.name), asc(contactListItems.id))
    .limit(CONTACT_LIST_ITEMS_PAGE_SIZE)
    .offset((q.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE);
  const n = total?.n ?? 0;
  return { contacts: rows.map(presentItem), count: n, hasMore: q.pageNumber * CONTACT_LIST_ITEMS_PAGE_SIZE < n };
}

export async function getItem(ctx: AppContext, by: AuthUser, id: number): Promise<ContactListItem> {
  const [row] = await ctx.db.select().from(contactListItems).where(mine(by, id));
  if (!row) throw itemNotFound();
  return presentItem(row);
}

/** The list's count changed: its row on the lists page follows. */
async function announceCount(ctx: AppContext, by: AuthUser, listId: number): Promise<void> {
  const list = await loadList(ctx.db, by.companyId, listId).catch(() => undefined);
  if (list) await announceList(ctx, by.companyId, { action: 'update', record: list });
}

export async function createItem(ctx: AppContext, by: AuthUser, body: z.output<typeof createContactListItemBody>): Promise<ContactListItem> {
  await loadList(ctx.db, by.companyId, body.contactListId);
  const number = itemNumber(body.number);
  if (!number) throw invalidNumber();
  const [row] = await conflictAs(NUMBER_KEY, 'ERR_CONTACT_LIST_ITEM_EXISTS', () =>
    ctx.db
      .insert(contactListItems)
      .values({ companyId: by.companyId, contactListId: body.contactListId, name: body.name, number, email: body.email })
      .returning(),
  );
  if (!row) throw itemNotFound();
  const item = presentItem(row);
  await announceItem(ctx, by.companyId, { action: 'create', record: item });
  await announceCount(ctx, by, item.contactListId);
  await queueValidityCheck(ctx, by.companyId);
  return item;
}

/** A changed number is checked on WhatsApp again. */
export async function updateItem(ctx: AppContext, by: AuthUser, id: number, body: z.output<typeof updateContactListItemBody>): Promise<ContactListItem> {
  const number = itemNumber(body.number);
  if (!number) throw invalidNumber();
  const [current] = await ctx.db.select().from(contactListItems).where(mine(by, id));
  if (!current) throw itemNotFound();
  const changed = current.number !== number;
  const [row] = await conflictAs(NUMBER_KEY, 'ERR_CONTACT_LIST_ITEM_EXISTS', () =>
    ctx.db
      .update(contactListItems)
      .set({ name: body.name, number, email: body.email, ...(changed ? { isWhatsappValid: null } : {}) })
      .where(mine(by, id))
      .returning(),
  );
  if (!row) throw itemNotFound();
  const item = presentItem(row);
  await announceItem(ctx, by.companyId, { action: 'update', record: item });
  if (changed) await queueValidityCheck(ctx, by.companyId);
  return item;
}

export async function deleteItem(ctx: AppContext, by: AuthUser, id: number): Promise<void> {
  const [gone] = await ctx.db.delete(contactListItems).where(mine(by, id)).returning({ listId: contactListItems.contactListId });
  if (!gone) throw itemNotFound();
  await announceItem(ctx, by.companyId, { action: 'delete', id });
  await announceCount(ctx, by, gone.listId);
}
