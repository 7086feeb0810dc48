import { contactUploadFields, splitTagNames, type Contact, type ContactImportResult, type contactsImportRowBody } from '@balcao/contracts';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AuthUser } from '../../http/auth.js';
import { cleanString } from '../../http/clean-input.js';
import type { AppContext } from '../../http/context.js';
import { AppError } from '../../http/errors.js';
import { readSpreadsheet } from '../../spreadsheets/read.js';
import { isEmail, planImport, runImport, writeEntries } from './import.js';
import { contactMaskFor } from './lgpd.js';
import { phoneDigits } from './phone.js';
import { loadContact } from './queries.js';
import { emitContact } from './service.js';

/** The multipart form of `POST /contacts/upload`: one file (field `file`) and its text fields. */
async function readUploadForm(req: FastifyRequest): Promise<{ data?: Buffer; fields: Record<string, string> }> {
  const fields: Record<string, string> = {};
  let data: Buffer | undefined;
  for await (const part of req.parts({ limits: { files: 1 } })) {
    if (part.type === 'field') fields[part.fieldname] = cleanString(String(part.value));
    else data = await part.toBuffer();
  }
  return { data, fields };
}

/** `POST /contacts/upload`: a whole spreadsheet in one request, parsed here; answers the summary. */
export async function uploadContacts(ctx: AppContext, by: AuthUser, req: FastifyRequest): Promise<ContactImportResult> {
  if (!req.isMultipart()) throw new AppError('ERR_VALIDATION', 400, 'expected a multipart form with a "file"');
  const { data, fields } = await readUploadForm(req);
  if (!data) throw new AppError('ERR_VALIDATION', 400, 'multipart field "file" is required', [{ path: 'file', message: 'Required' }]);
  const { mapping, rows } = contactUploadFields.parse(fields);
  const plan = planImport(await readSpreadsheet(data), mapping, rows);
  return runImport(ctx, by, plan);
}

const invalidNumber = () => new AppError('ERR_VALIDATION', 400, 'number: invalid', [{ path: 'number', message: 'Invalid number' }]);

/**
 * `POST /contactsImport`: one row as third-party clients send it. Creates the contact, or
 * updates the one with that number; tags are found by name or created. Answers the contact.
 */
export async function importContactRow(ctx: AppContext, by: AuthUser, body: z.output<typeof contactsImportRowBody>): Promise<Contact> {
  const number = phoneDigits(body.number);
  if (!number) throw invalidNumber();
  const email = (body.email ?? '').toLowerCase();
  const entry = { number, name: body.name, email: isEmail(email) ? email : '', tagNames: splitTagNames(body.tags ?? '') };
  const { created, ids } = await ctx.events.inTransaction(ctx.db, async (tx, publish) => {
    const written = await writeEntries(tx, by.companyId, [entry], publish);
    if (written.created > 0) await ctx.events.record(tx, { type: 'contact.created', contactIds: [written.ids.get(number) ?? 0] });
    return written;
  });
  const contact = await loadContact(ctx.db, by.companyId, ids.get(number) ?? 0);
  if (!contact) throw new AppError('ERR_INTERNAL', 500);
  await emitContact(ctx, by.companyId, created > 0 ? 'create' : 'update', contact);
  return (await contactMaskFor(ctx.db, by))(contact);
}
