import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 10 point 3: realtime/ alone turns events into socket emits. Any other file that
 * imports socket.io's server or reaches the Realtime instance (`ctx.realtime.…`) fails
 * here: it must publish on the event bus (`ctx.events`) instead.
 */

const SRC = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const EMITS = [/from ['"]socket\.io['"]/, /\brealtime\s*\.\s*(?!close\b)\w+/];

describe('the realtime boundary', () => {
  it('no file outside realtime/ emits to socket.io or calls the Realtime instance', () => {
    const offenders = sourceFiles(SRC)
      .map((path) => relative(SRC, path).split('\\').join('/'))
      .filter((path) => !path.startsWith('realtime/'))
      .filter((path) => EMITS.some((pattern) => pattern.test(readFileSync(join(SRC, path), 'utf8'))));
    expect(offenders).toEqual([]);
  });

  it('catches an emit when there is one (the check itself can fail)', () => {
    const sample = "ctx.realtime.emitToCompany(companyId, 'queue', payload);";
    expect(EMITS.some((pattern) => pattern.test(sample))).toBe(true);
    expect(EMITS.some((pattern) => pattern.test("import { Server } from 'socket.io';"))).toBe(true);
    expect(EMITS.some((pattern) => pattern.test("import { io } from 'socket.io-client';"))).toBe(false);
  });
});
