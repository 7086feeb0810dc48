// `npm start` builds the web app only when its sources changed since the last build,
// so a restart of the product does not wait for a full Vite build every time.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/vite-precompress.ts', 'packages/contracts/src', 'package-lock.json'];
const builtAt = existsSync('apps/web/dist/index.html') ? statSync('apps/web/dist/index.html').mtimeMs : 0;

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

if (builtAt > 0 && Math.max(...sources.map(newestMtime)) < builtAt) {
  console.log('Web app build is up to date.');
} else {
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@balcao/web'], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
