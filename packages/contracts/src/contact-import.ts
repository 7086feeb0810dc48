import { z } from 'zod';
import { looseBoolean } from './lenient.js';
import { MSG } from './validation.js';

/**
 * Contact import (spec 2 §2, §5; spec 3 §5 "Contact import (modal)"): a spreadsheet whose
 * columns are mapped to contact fields, rows selected, then created or updated by number.
 */

export const CONTACT_IMPORT_FIELDS = ['name', 'number', 'email', 'tags'] as const;
export type ContactImportField = (typeof CONTACT_IMPORT_FIELDS)[number];

/** The spec's wording of the import's mapping and selection errors (spec 2 §5). */
export const IMPORT_MSG = {
  numberNotMapped: 'Não foi selecionado o campo de número do contato',
  nameNotMapped: 'Não foi selecionado o campo de nome do contato',
  mappedTwice: (field: string) => `O campo ${field} já foi selecionado.`,
  noRows: 'Nenhum contato selecionado',
  invalidFile: 'Arquivo inválido!',
} as const;

/** Spreadsheet extensions the import accepts (the drop zone names xls, xlsx, csv, txt). */
export const CONTACT_IMPORT_EXTENSIONS = ['.xls', '.xlsx', '.csv', '.txt'] as const;

/**
 * Header names recognised when no mapping is sent (Portuguese and English), compared
 * lowercased and without accents.
 */
export const IMPORT_HEADER_ALIASES: Record<ContactImportField, readonly string[]> = {
  name: ['nome', 'name', 'contato', 'contact'],
  number: ['numero', 'number', 'telefone', 'phone', 'celular', 'whatsapp'],
  email: ['email', 'e-mail'],
  tags: ['tags', 'tag', 'etiquetas'],
};

/** A header as the aliases are written: trimmed, lowercased, accents removed. */
export const plainHeader = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();

/** The field a header names, if it is one of the aliases. */
export function fieldOfHeader(header: string): ContactImportField | undefined {
  const plain = plainHeader(header);
  return CONTACT_IMPORT_FIELDS.find((field) => IMPORT_HEADER_ALIASES[field].includes(plain));
}

/** The mapping a header row suggests: a recognised header gives its field (the first column of a field wins). */
export function mappingFromHeader(header: readonly string[]): (ContactImportField | null)[] {
  const seen = new Set<ContactImportField>();
  return header.map((text) => {
    const field = fieldOfHeader(text);
    if (!field || seen.has(field)) return null;
    seen.add(field);
    return field;
  });
}

/**
 * The mapping: one entry per column, left to right, naming the field that column holds
 * (`null` or `''` for a column not imported), e.g. `["name", null, "number"]`.
 */
export const contactImportMapping = z.array(z.union([z.enum(CONTACT_IMPORT_FIELDS), z.literal(''), z.null()]).transform((v) => v || null)).max(200);
export type ContactImportMapping = z.output<typeof contactImportMapping>;

/** Where a mapping fails the spec's rules (spec 2 §5): a field mapped twice, or number or name not mapped. */
export type MappingProblem = { key: 'mappedTwice'; field: ContactImportField } | { key: 'numberNotMapped' | 'nameNotMapped' };

export function mappingProblem(mapping: readonly (ContactImportField | null)[]): MappingProblem | undefined {
  const seen = new Set<ContactImportField>();
  for (const field of mapping) {
    if (!field) continue;
    if (seen.has(field)) return { key: 'mappedTwice', field };
    seen.add(field);
  }
  if (!seen.has('number')) return { key: 'numberNotMapped' };
  if (!seen.has('name')) return { key: 'nameNotMapped' };
  return undefined;
}

/** The spec's (Portuguese) wording of a mapping problem, as the API answers it. */
export const mappingProblemText = (problem: MappingProblem): string =>
  problem.key === 'mappedTwice' ? IMPORT_MSG.mappedTwice(problem.field) : IMPORT_MSG[problem.key];

/** A JSON text field of the multipart form, parsed then validated by `schema`. */
const jsonField = <T extends z.ZodType>(schema: T) =>
  z
    .string()
    .transform((raw, ctx) => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'expected JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema);

/**
 * The text fields of `POST /contacts/upload` (multipart, beside `file`): `mapping` as above,
 * `rows` the spreadsheet row numbers to import (the header is row 1; absent: every row).
 */
export const contactUploadFields = z.object({
  mapping: jsonField(contactImportMapping).optional(),
  rows: jsonField(z.array(z.number().int().min(2).max(10_000_000)).min(1, IMPORT_MSG.noRows).max(1_000_000)).optional(),
});

/** Why a row was not imported (the summary counts each). */
export const IMPORT_IGNORE_REASONS = ['invalidNumber', 'missingField', 'notSelected'] as const;
export type ImportIgnoreReason = (typeof IMPORT_IGNORE_REASONS)[number];

/** The answer of `POST /contacts/upload`: created, updated and ignored rows. */
export const contactImportResult = z.object({
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  ignored: z.number(),
  ignoredBy: z.object({ invalidNumber: z.number(), missingField: z.number(), notSelected: z.number() }),
});
export type ContactImportResult = z.infer<typeof contactImportResult>;

/** `company-{id}-contactImport`, to the importing user: rows processed so far. */
export interface ContactImportProgressPayload {
  action: 'progress' | 'done';
  processed: number;
  total: number;
}

/**
 * `POST /contactsImport`: one row, as third-party clients send it. `tags` is a comma- or
 * semicolon-separated list of tag names; `validateContact` is accepted (see docs/contacts.md).
 */
export const contactsImportRowBody = z.object({
  name: z.string({ error: MSG.required }).trim().min(1, MSG.required).max(250, MSG.tooLong),
  number: z.union([z.string(), z.number().transform(String)]).pipe(z.string().trim().min(1, MSG.required).max(50, MSG.tooLong)),
  email: z.string().trim().max(120, MSG.tooLong).optional().nullable(),
  tags: z.string().max(2000).optional().nullable(),
  validateContact: z.union([looseBoolean, z.literal('')]).optional().nullable(),
});
export type ContactsImportRowBody = z.input<typeof contactsImportRowBody>;

/** Tag names as a cell or the `tags` field holds them: separated by commas or semicolons. */
export const splitTagNames = (cell: string): string[] =>
  [...new Set(cell.split(/[,;]/).map((name) => name.trim().slice(0, 50)).filter((name) => name.length > 0))].slice(0, 50);

/** The answer of `POST /contacts/import` (the connected phone's address book) and `POST /contacts/import/chats` (its chats). */
export const phoneImportResult = z.object({ total: z.number(), created: z.number(), updated: z.number(), ignored: z.number() });
export type PhoneImportResult = z.infer<typeof phoneImportResult>;
