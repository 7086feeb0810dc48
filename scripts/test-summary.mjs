// Prints one closing line for the whole run from the JSON reports that
// `npm run test:unit` and `npm run test:e2e` leave in test-results/.
import { existsSync, readFileSync, rmSync } from 'node:fs';

const UNIT = 'test-results/unit.json';
// Playwright resolves its JSON output beside its config.
const E2E = 'apps/web/test-results/e2e.json';

// `--reset` runs first in `npm test`, so a summary never counts an older run.
if (process.argv.includes('--reset')) {
  for (const file of [UNIT, E2E]) rmSync(file, { force: true });
  process.exit(0);
}

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null);

let passed = 0;
let failed = 0;
let skipped = 0;

const unit = read(UNIT);
if (unit) {
  passed += unit.numPassedTests;
  failed += unit.numFailedTests;
  skipped += unit.numPendingTests + unit.numTodoTests;
}

const e2e = read(E2E);
if (e2e) {
  passed += e2e.stats.expected;
  failed += e2e.stats.unexpected + e2e.stats.flaky;
  skipped += e2e.stats.skipped;
}

console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
