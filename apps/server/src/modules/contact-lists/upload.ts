import { mappingFromHeader, mappingProblem, mappingProblemText, type ContactListUploadResult } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { contactListItems } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { readSpreadsheet } from '../../spreadsheets/read.js';
import { announceList } from './events.js';
import { itemNumber } from './numbers.js';
import { loadList } from './queries.js';
import { queueValidityCheck } from './validity.js';

const BATCH = 1000;
const isEmail = (text: string) => z.email().safeParse(text).success;

/** The spreadsheet's rows as items: columns found by their header (nome/name, número/numero/telefone, email); rows without name or a usable number are ignored. */
function itemsOf(sheet: string[][]) {
  const columns = mappingFromHeader(sheet[0] ?? []);
  const problem = mappingProblem(columns);
  if (problem) throw new AppError('ERR_VALIDATION', 400, mappingProblemText(problem), [{ path: 'file', message: mappingProblemText(problem) }]);
  const [nameCol, numberCol, emailCol] = (['name', 'number', 'email'] as const).map((f) => columns.indexOf(f));
  const items = new Map<string, { name: string; number: string; email: string }>();
  let total = 0;
  let ignored = 0;
  for (const cells of sheet.slice(1)) {
    if (cells.every((c) => c === '')) continue;
    total += 1;
    const name = (cells[nameCol!] ?? '').slice(0, 50);
    const number = itemNumber(cells[numberCol!] ?? '');
    if (!name || !number) {
      ignored += 1;
      continue;
    }
    const email = (emailCol! >= 0 ? (cells[emailCol!] ?? '') : '').toLowerCase();
    // A number twice in the sheet: its last row wins.
    items.set(number, { name, number, email: isEmail(email) ? email : '' });
  }
  return { items: [...items.values()], total, ignored };
}

/**
 * `POST /contact-lists/{id}/upload`: the spreadsheet's people join the list in one
 * transaction (a number already on the list is updated, never doubled); an unreadable file
 * or one without name and number columns imports nothing. Answers the summary; the numbers
 * are checked on WhatsApp afterwards, in the background.
 */
export async function uploadItems(ctx: AppContext, by: AuthUser, listId: number, req: FastifyRequest): Promise<ContactListUploadResult> {
  await loadList(ctx.db, by.companyId, listId);
  if (!req.isMultipart()) throw new AppError('ERR_VALIDATION', 400, 'expected a multipart form with a "file"');
  let data: Buffer | undefined;
  for await (const part of req.parts({ limits: { files: 1 } })) if (part.type === 'file') data = await part.toBuffer();
  if (!data) throw new AppError('ERR_VALIDATION', 400, 'multipart field "file" is required', [{ path: 'file', message: 'Required' }]);
  const { items, total, ignored } = itemsOf(await readSpreadsheet(data));
  let created = 0;
  await ctx.db.transaction(async (tx) => {
    for (let i = 0; i < items.length; i += BATCH) {
      const rows = await tx
        .insert(contactListItems)
        .values(items.slice(i, i + BATCH).map((item) => ({ ...item, companyId: by.companyId, contactListId: listId })))
        .onConflictDoUpdate({
          target: [contactListItems.contactListId, contactListItems.number],
          set: { name: sql`excluded.name`, email: sql`excluded.email`, updatedAt: sql`now()` },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      created += rows.filter((r) => r.inserted).length;
    }
  });
  // One list update (its count) rather than an event per row: the items screen reloads on it.
  await announceList(ctx, by.companyId, { action: 'update', record: await loadList(ctx.db, by.companyId, listId) });
  await queueValidityCheck(ctx, by.companyId);
  return { created, updated: items.length - created, ignored, total };
}
