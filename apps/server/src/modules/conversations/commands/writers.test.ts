import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 10 point 1: only the commands of modules/conversations/ write `tickets`,
 * `messages` and `ticket_tags` (a ticket's kanban lanes). Any other source file that inserts, updates or deletes them (through
 * Drizzle or in SQL text) fails here; migrations and the seed are not TypeScript
 * commands and are left out, as are tests.
 */

const SRC = join(import.meta.dirname, '..', '..', '..');
const ALLOWED = ['modules/conversations/', 'db/migrations/', 'db/seed'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const WRITES = [
  /\.\s*(insert|update|delete)\s*\(\s*(tickets|messages|ticketTags)\s*\)/,
  /\b(insert\s+into|update|delete\s+from)\s+"?(tickets|messages|ticket_tags)"?[\s(]/i,
];

const writes = (code: string) => WRITES.some((pattern) => pattern.test(code));

describe('the writers of tickets and messages', () => {
  it('no file outside modules/conversations/ inserts, updates or deletes tickets, messages or ticket tags', () => {
    const files = sourceFiles(SRC).map((path) => relative(SRC, path).split('\\').join('/'));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((path) => !ALLOWED.some((dir) => path.startsWith(dir))).filter((path) => writes(readFileSync(join(SRC, path), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('catches a write when there is one (the check itself can fail)', () => {
    expect(writes('await ctx.db.update(tickets).set({ userId })')).toBe(true);
    expect(writes('await tx\n    .insert(messages)\n    .values(row)')).toBe(true);
    expect(writes('await db.delete(tickets).where(eq(tickets.id, id))')).toBe(true);
    expect(writes('await db.execute(sql`UPDATE tickets SET status = ${s}`)')).toBe(true);
    expect(writes('sql`delete from "messages" where id = ${id}`')).toBe(true);
    expect(writes('await tx.delete(ticketTags).where(eq(ticketTags.ticketId, id))')).toBe(true);
    expect(writes('await db.update(contactTags).set({})')).toBe(false);
    expect(writes('await db.select().from(tickets)')).toBe(false);
  });
});
