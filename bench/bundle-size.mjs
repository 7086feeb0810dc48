// Gzipped JavaScript each route downloads, from the web build's manifest; exits 1 over a budget.
// Usage: npm run bench:bundle (builds, then reports)   node bench/bundle-size.mjs --no-build (the web build's own check)
// A route's JavaScript is the entry chunk plus the lazy screens it renders, each with its static imports.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '../apps/web');
const distDir = join(webDir, 'dist');
const KB = 1024;

/** The lazy modules each route renders, and its budget in gzipped KB (issue 11). */
const ROUTE_BUDGETS = [
  { route: '/login', modules: ['src/pages/login/LoginPage.tsx'], budgetKb: Number(process.env.BUNDLE_BUDGET_LOGIN_KB ?? 250) },
  { route: '/tickets', modules: ['src/layout/AppShell.tsx', 'src/pages/tickets/TicketsPage.tsx'], budgetKb: 450 },
];
const CHUNK_BUDGET_KB = 500;

/** Every chunk a set of manifest keys needs before it runs: themselves and their static imports, transitively. */
function staticClosure(manifest, keys) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not a chunk of the build: was it renamed or no longer lazy?`);
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen];
}

function main() {
  if (!process.argv.includes('--no-build')) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: webDir, stdio: 'inherit' });
  }
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8'));
  const gzipped = new Map();
  const sizeOf = (key) => {
    const file = manifest[key].file;
    if (!gzipped.has(file)) gzipped.set(file, gzipSync(readFileSync(join(distDir, file))).length);
    return gzipped.get(file);
  };
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  const failures = [];

  console.log('| Route | JavaScript (gzip) | Chunks | Budget | Used |');
  console.log('|---|---|---|---|---|');
  for (const { route, modules, budgetKb } of ROUTE_BUDGETS) {
    const chunks = staticClosure(manifest, [...entries, ...modules]).filter((key) => manifest[key].file.endsWith('.js'));
    const kb = chunks.reduce((sum, key) => sum + sizeOf(key), 0) / KB;
    console.log(`| ${route} | ${kb.toFixed(1)} KB | ${chunks.length} | ${budgetKb} KB | ${((kb / budgetKb) * 100).toFixed(0)} % |`);
    if (kb > budgetKb) failures.push(`${route} needs ${kb.toFixed(1)} KB of gzipped JavaScript, over its ${budgetKb} KB budget`);
  }

  const all = Object.keys(manifest).filter((key) => manifest[key].file.endsWith('.js'));
  const largest = all.map((key) => ({ file: manifest[key].file, kb: sizeOf(key) / KB })).sort((a, b) => b.kb - a.kb);
  const total = [...gzipped.values()].reduce((sum, bytes) => sum + bytes, 0) / KB;
  console.log(`\n${all.length} chunks, ${total.toFixed(1)} KB gzipped in all; largest:`);
  for (const { file, kb } of largest.slice(0, 6)) console.log(`  ${kb.toFixed(1).padStart(7)} KB  ${file}`);
  for (const { file, kb } of largest) if (kb > CHUNK_BUDGET_KB) failures.push(`${file} is ${kb.toFixed(1)} KB gzipped, over ${CHUNK_BUDGET_KB} KB`);

  if (failures.length) {
    console.error(`\nBundle budget exceeded:\n- ${failures.join('\n- ')}`);
    process.exit(1);
  }
}

main();
