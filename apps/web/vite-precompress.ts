import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|map|webmanifest)$/;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 1024;

/** Writes `.br` and `.gz` beside every compressible file of a build, so the server sends them without compressing per request. */
export function precompressDir(dir: string): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      precompressDir(path);
      continue;
    }
    if (!COMPRESSIBLE.test(name)) continue;
    const content = readFileSync(path);
    if (content.length < MIN_BYTES) continue;
    writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
  }
}

/** Vite plugin: precompress the build output once it is written. */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'balcao-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/') ? config.build.outDir : join(config.root, config.build.outDir);
    },
    closeBundle() {
      precompressDir(outDir);
    },
  };
}
