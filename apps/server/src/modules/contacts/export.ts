import { can, type Contact } from '@balcao/contracts';
import { and, asc, eq, gt } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { PassThrough, type Readable } from 'node:stream';
import { contacts } from '../../db/schema/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { contactMaskFor } from './lgpd.js';
import { presentContacts } from './queries.js';

/** Contacts read per query while the file is written: memory stays flat whatever the company's size. */
const EXPORT_PAGE = 1000;

const COLUMNS: { header: string; key: string; width: number; value: (c: Contact) => string }[] = [
  { header: 'Nome', key: 'name', width: 32, value: (c) => c.name },
  { header: 'Número', key: 'number', width: 18, value: (c) => c.number },
  { header: 'E-mail', key: 'email', width: 28, value: (c) => c.email },
  { header: 'Tags', key: 'tags', width: 24, value: (c) => c.tags.map((t) => t.name).join(', ') },
  { header: 'Informações adicionais', key: 'extraInfo', width: 40, value: (c) => c.extraInfo.map((f) => `${f.name}: ${f.value}`).join('; ') },
  { header: 'Canal', key: 'channel', width: 12, value: (c) => c.channel },
  { header: 'Bloqueado', key: 'blocked', width: 10, value: (c) => (c.active ? 'não' : 'sim') },
  { header: 'Criado em', key: 'createdAt', width: 24, value: (c) => c.createdAt },
];

/** The file name clients save the export under. */
export const CONTACTS_EXPORT_FILE = 'contatos.xlsx';

/**
 * `GET /contacts/export` (contacts-page:deleteContact, spec 2 §6): every contact of the company
 * with its tags and extra info, as an .xlsx with the sheet 'Contatos', written while it streams.
 * The same file re-imports through `POST /contacts/upload` (its headers are recognised).
 */
export async function exportContacts(ctx: AppContext, by: AuthUser): Promise<Readable> {
  if (!by.super && !can(by.profile, 'contacts-page:deleteContact')) throw new AppError('ERR_NO_PERMISSION', 403);
  const mask = await contactMaskFor(ctx.db, by);
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Contatos');
  sheet.columns = COLUMNS.map(({ header, key, width }) => ({ header, key, width }));
  const write = async () => {
    for (let after = 0; ; ) {
      const rows = await ctx.db
        .select()
        .from(contacts)
        .where(and(eq(contacts.companyId, by.companyId), gt(contacts.id, after)))
        .orderBy(asc(contacts.id))
        .limit(EXPORT_PAGE);
      const last = rows.at(-1);
      if (!last) break;
      for (const contact of (await presentContacts(ctx.db, rows)).map(mask)) {
        sheet.addRow(Object.fromEntries(COLUMNS.map((c) => [c.key, c.value(contact)]))).commit();
      }
      after = last.id;
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((err: unknown) => {
    ctx.log.error({ err }, 'contact export failed');
    out.destroy(err as Error);
  });
  return out;
}
