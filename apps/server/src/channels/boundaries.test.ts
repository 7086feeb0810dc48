import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '..');
const CHANNELS = join(SRC, 'channels');
const FORBIDDEN = ['modules', 'realtime'].map((d) => join(SRC, d));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative module specifier of a file: static imports and exports (types included) and dynamic imports. */
function specifiers(code: string): string[] {
  const found = [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
  return found.filter((s) => s.startsWith('.'));
}

describe('channels/ are pure adapters (issue 10)', () => {
  it('import nothing from modules/ or realtime/', () => {
    const files = sourceFiles(CHANNELS);
    expect(files.length).toBeGreaterThan(10);
    const offending = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => FORBIDDEN.some((dir) => resolve(dirname(file), spec).startsWith(dir + '/')))
        .map((spec) => `${relative(SRC, file)} → ${spec}`),
    );
    expect(offending).toEqual([]);
  });
});
