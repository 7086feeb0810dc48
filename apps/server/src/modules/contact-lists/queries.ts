import type { ContactList, ContactListItem } from '@balcao/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { contactListItems, contactLists } from '../../db/schema/index.js';
import { AppError } from '../../http/errors.js';

export type ContactListRow = typeof contactLists.$inferSelect;
export type ContactListItemRow = typeof contactListItems.$inferSelect;

export const listNotFound = () => new AppError('ERR_NO_CONTACT_LIST_FOUND', 404);
export const itemNotFound = () => new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND', 404);

/** The number of items, as a column of a query on `contact_lists` (names spelled out: drizzle leaves a lone table's columns unqualified). */
export const contactsCount = sql<number>`(select count(*) from contact_list_items i where i.contact_list_id = contact_lists.id)::int`;

export function presentList(row: ContactListRow, count: number): ContactList {
  return { id: row.id, companyId: row.companyId, name: row.name, contactsCount: count, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() };
}

export function presentItem(row: ContactListItemRow): ContactListItem {
  return {
    id: row.id,
    companyId: row.companyId,
    contactListId: row.contactListId,
    name: row.name,
    number: row.number,
    email: row.email,
    isWhatsappValid: row.isWhatsappValid,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The company's list with its count, or 404. */
export async function loadList(db: DbOrTx, companyId: number, id: number): Promise<ContactList> {
  const [row] = await db
    .select({ list: contactLists, count: contactsCount })
    .from(contactLists)
    .where(and(eq(contactLists.companyId, companyId), eq(contactLists.id, id)));
  if (!row) throw listNotFound();
  return presentList(row.list, row.count);
}
