import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The statements of each phase, counted from the server log that BENCH_LOG_STATEMENTS=1 fills (each
 * line prefixed `@@ <phase> <application> <pid> `): per phase and process (node-A, node-B, pgboss…), a
 * named prepared statement by its name, every other by its first words. What grows with the number of
 * nodes rather than messages shows here (docs/BENCHMARKS.md, store19 and fold19).
 */
export function statementCounts(dataDir: string, top = 12): string[] {
  const file = join(dataDir, 'postgres', 'log', 'postgres.log');
  if (!existsSync(file)) return [`no statement log at ${file}`];
  const counts = new Map<string, Map<string, number>>();
  const count = (group: string, key: string) => {
    const byKey = counts.get(group) ?? new Map<string, number>();
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
    counts.set(group, byKey);
  };
  /** A statement whose text starts on the next line (pg-boss's): told by its first quoted parameter (the queue), if its DETAIL follows. */
  let pending: string | undefined;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const detail = /^@@ \S+ \S* \d+ DETAIL: {2}Parameters: .*?'([^']{1,40})'/.exec(line);
    if (detail && pending) count(pending, `unnamed, first text parameter '${detail[1]}'`);
    if (detail || (pending && line.startsWith('@@ '))) pending = undefined;
    const m = /^@@ (\S+) (\S*) \d+ LOG: {2}(?:execute|statement)( [^:]*)?: ?(.*)$/.exec(line);
    if (!m) continue;
    const [, phase, app, name, text] = m;
    const named = name?.trim();
    const key = named && named !== '<unnamed>' ? named : text!.replace(/\s+/g, ' ').slice(0, 60);
    if (key) count(`${phase} ${app}`, key);
    else pending = `${phase} ${app}`;
  }
  return [...counts].flatMap(([group, byKey]) => {
    const total = [...byKey.values()].reduce((a, b) => a + b, 0);
    const shown = [...byKey].sort((a, b) => b[1] - a[1]).slice(0, top);
    return [`statements, phase and process ${group}: ${total}`, ...shown.map(([key, n]) => `  ${String(n).padStart(6)}  ${key}`)];
  });
}
