import {
  DEFAULT_TAG_COLOR,
  IMPORT_MSG,
  mappingFromHeader,
  mappingProblem,
  mappingProblemText,
  splitTagNames,
  type ContactImportField,
  type ContactImportMapping,
  type ContactImportResult,
  type ImportIgnoreReason,
} from '@balcao/contracts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { contactTags, contacts, tags } from '../../db/schema/index.js';
import type { DomainEvent } from '../../events/types.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import type { SheetRows } from '../../spreadsheets/read.js';
import { presentTag } from '../tags/queries.js';
import { phoneDigits } from './phone.js';

/**
 * Spreadsheet import (`POST /contacts/upload`): rows become contacts of the caller's company in
 * one transaction, written a thousand at a time; a number the company already has updates that
 * contact (never a second one), tags named in the sheet are found by name or created.
 */

/** One contact to write, merged from every row that carries its number. */
export interface ImportEntry {
  number: string;
  name: string;
  email: string;
  tagNames: string[];
}

const BATCH = 1000;
const emailSchema = z.email();
export const isEmail = (text: string) => text !== '' && emailSchema.safeParse(text).success;

function mappingError(message: string): AppError {
  return new AppError('ERR_VALIDATION', 400, message, [{ path: 'mapping', message }]);
}

/** The rows as contacts to write, and how many were ignored for what. */
export function planImport(sheet: SheetRows, mapping: ContactImportMapping | undefined, selected: number[] | undefined) {
  const header = sheet[0] ?? [];
  // Without a mapping, columns are recognised by their header (nome/name, número/telefone/number, email, tags).
  const columns = mapping ?? mappingFromHeader(header);
  const problem = mappingProblem(columns);
  if (problem) throw mappingError(mappingProblemText(problem));
  const col = (field: ContactImportField) => columns.indexOf(field);
  const [nameCol, numberCol, emailCol, tagsCol] = [col('name'), col('number'), col('email'), col('tags')];
  const chosen = selected ? new Set(selected) : undefined;
  const ignoredBy: Record<ImportIgnoreReason, number> = { invalidNumber: 0, missingField: 0, notSelected: 0 };
  const entries = new Map<string, ImportEntry>();
  let total = 0;
  let repeated = 0;
  for (let i = 1; i < sheet.length; i++) {
    const cells = sheet[i] ?? [];
    if (cells.every((c) => c === '')) continue;
    total += 1;
    if (chosen && !chosen.has(i + 1)) {
      ignoredBy.notSelected += 1;
      continue;
    }
    const name = (cells[nameCol] ?? '').slice(0, 250);
    const typed = cells[numberCol] ?? '';
    if (!name || !typed) {
      ignoredBy.missingField += 1;
      continue;
    }
    const number = phoneDigits(typed);
    if (!number) {
      ignoredBy.invalidNumber += 1;
      continue;
    }
    const emailCell = emailCol >= 0 ? (cells[emailCol] ?? '').toLowerCase() : '';
    const email = isEmail(emailCell) ? emailCell : '';
    const tagNames = tagsCol >= 0 ? splitTagNames(cells[tagsCol] ?? '') : [];
    const earlier = entries.get(number);
    // A number on several rows is one contact: the later row's name and e-mail, every row's tags.
    if (earlier) repeated += 1;
    entries.set(number, { number, name, email: email || earlier?.email || '', tagNames: [...new Set([...(earlier?.tagNames ?? []), ...tagNames])] });
  }
  if (chosen && ignoredBy.notSelected === total) throw new AppError('ERR_VALIDATION', 400, IMPORT_MSG.noRows, [{ path: 'rows', message: IMPORT_MSG.noRows }]);
  return { entries: [...entries.values()], total, repeated, ignoredBy };
}

/** The company's plain tags named in the entries, created when missing; keyed by lowercased name. */
async function tagIdsByName(db: DbOrTx, companyId: number, names: string[], publish: (event: DomainEvent) => void): Promise<Map<string, number>> {
  // The first spelling of a name in the sheet names a new tag.
  const byLower = new Map<string, string>();
  for (const name of names) if (!byLower.has(name.toLowerCase())) byLower.set(name.toLowerCase(), name);
  const ids = new Map<string, number>();
  if (byLower.size === 0) return ids;
  const known = await db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), eq(tags.kanban, 0), inArray(sql`lower(${tags.name})`, [...byLower.keys()])));
  for (const tag of known) ids.set(tag.name.toLowerCase(), tag.id);
  const missing = [...byLower].filter(([lower]) => !ids.has(lower)).map(([, name]) => name);
  if (missing.length > 0) {
    const created = await db
      .insert(tags)
      .values(missing.map((name) => ({ companyId, name, color: DEFAULT_TAG_COLOR, kanban: 0 })))
      .onConflictDoNothing()
      .returning();
    for (const tag of created) {
      ids.set(tag.name.toLowerCase(), tag.id);
      publish({ type: 'tag.record', companyId, payload: { action: 'create', record: presentTag(tag) } });
    }
  }
  return ids;
}

/**
 * Writes one batch and its tag links in one statement: inserted or updated by number; answers each number's contact
 * id and whether it is new. The batch travels as array parameters unnested by PostgreSQL, not thousands of bound
 * values (building and parsing those was most of an import's time, docs/BENCHMARKS.md). A contact whose name and
 * e-mail the sheet repeats is not rewritten (a second import of a file writes no contact row, and the word index's
 * trigger sees no change); its id comes from the statement's snapshot, where the rows it writes are not yet visible.
 */
async function upsertBatch(db: DbOrTx, companyId: number, batch: ImportEntry[], tagIds: Map<string, number>) {
  const column = (pick: (e: ImportEntry) => string) => sql.param(batch.map(pick));
  const links = batch.flatMap((e) => e.tagNames.flatMap((name) => (tagIds.has(name.toLowerCase()) ? [[e.number, tagIds.get(name.toLowerCase())!] as const] : [])));
  const { rows } = await db.execute<{ id: number; number: string; created: boolean }>(sql`
    WITH u AS (
      SELECT * FROM unnest(${column((e) => e.name)}::text[], ${column((e) => e.number)}::text[], ${column((e) => e.email)}::text[]) AS u(name, number, email)
    ), written AS (
      INSERT INTO ${contacts} AS c (company_id, channel, name, number, remote_jid, email)
      SELECT ${companyId}::int, 'whatsapp', u.name, u.number, u.number || '@s.whatsapp.net', u.email FROM u
      ON CONFLICT (company_id, channel, number) DO UPDATE SET
        name = excluded.name,
        email = CASE WHEN excluded.email <> '' THEN excluded.email ELSE c.email END,
        updated_at = now()
      WHERE c.name IS DISTINCT FROM excluded.name OR (excluded.email <> '' AND c.email IS DISTINCT FROM excluded.email)
      RETURNING c.id, c.number, (c.xmax = 0) AS created
    ), ids AS (
      SELECT id, number, created FROM written
      UNION ALL
      SELECT c.id, c.number, false FROM ${contacts} c JOIN u ON c.number = u.number
      WHERE c.company_id = ${companyId}::int AND c.channel = 'whatsapp' AND NOT EXISTS (SELECT 1 FROM written w WHERE w.number = c.number)
    ), links AS (
      INSERT INTO ${contactTags} (contact_id, tag_id)
      SELECT ids.id, l.tag_id FROM unnest(${sql.param(links.map((l) => l[0]))}::text[], ${sql.param(links.map((l) => l[1]))}::int[]) AS l(number, tag_id)
      JOIN ids ON ids.number = l.number
      ON CONFLICT DO NOTHING
    )
    SELECT id, number, created FROM ids`);
  return rows;
}

/**
 * Writes entries (inside the caller's transaction) a batch at a time, tags found or created;
 * answers how many contacts are new and the contact id of each number.
 */
export async function writeEntries(
  tx: DbOrTx,
  companyId: number,
  entries: ImportEntry[],
  publish: (event: DomainEvent) => void,
  afterBatch: (written: number) => Promise<void> = async () => {},
): Promise<{ created: number; ids: Map<string, number> }> {
  const tagIds = await tagIdsByName(tx, companyId, [...new Set(entries.flatMap((e) => e.tagNames))], publish);
  const ids = new Map<string, number>();
  let created = 0;
  for (let start = 0; start < entries.length; start += BATCH) {
    const batch = entries.slice(start, start + BATCH);
    const written = await upsertBatch(tx, companyId, batch, tagIds);
    created += written.filter((w) => w.created).length;
    for (const w of written) ids.set(w.number, w.id);
    await afterBatch(start + batch.length);
  }
  return { created, ids };
}

/**
 * The contacts' GIN indexes (trigrams, digit grams) take an insert into a pending list and merge the list into the
 * index once it passes `gin_pending_list_limit` (4 MB), in the inserting statement. An import raises the limit for its
 * own transaction (`SET LOCAL`), so none of its batches stops to merge (a third of a 10,000-row import's time,
 * docs/BENCHMARKS.md), and merges the lists once it has answered: left there, the next contact written by anyone
 * (an incoming message's) would pay for the merge.
 */
const IMPORT_GIN_PENDING_KB = 64 * 1024;

async function mergeGinPendingLists(ctx: AppContext): Promise<void> {
  await ctx.db
    .execute(sql`select gin_clean_pending_list(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      where i.indrelid = 'contacts'::regclass and am.amname = 'gin'`)
    .catch((err: unknown) => ctx.log.warn({ err }, 'could not merge the contact indexes after an import; autovacuum does'));
}

/**
 * Writes the planned contacts for the caller's company and reports progress to the caller's
 * sockets after each batch. All or nothing: a failure leaves the company as it was. The rows
 * are not announced one by one (`company-{id}-contactImport` "done" tells the page to reload).
 */
export async function runImport(ctx: AppContext, by: AuthUser, plan: ReturnType<typeof planImport>): Promise<ContactImportResult> {
  const { companyId } = by;
  const { entries, total, repeated, ignoredBy } = plan;
  const progress = (action: 'progress' | 'done', processed: number) =>
    ctx.events.publish({ type: 'contact.importProgress', companyId, userId: by.id, payload: { action, processed, total } });
  const ignored = ignoredBy.invalidNumber + ignoredBy.missingField + ignoredBy.notSelected;
  const { created } = await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    await tx.execute(sql`select set_config('gin_pending_list_limit', ${String(IMPORT_GIN_PENDING_KB)}, true)`);
    return writeEntries(tx, companyId, entries, publish, (written) => progress('progress', Math.min(total, ignored + repeated + written)));
  });
  void mergeGinPendingLists(ctx);
  await progress('done', total);
  return { total, created, updated: entries.length - created + repeated, ignored, ignoredBy };
}
