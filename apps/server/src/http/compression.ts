import type { FastifyCompressOptions } from '@fastify/compress';
import { constants } from 'node:zlib';

/**
 * API answers above 1 KB go out compressed (brotli or gzip, as the client accepts).
 * Brotli at quality 4: per-request compression must stay cheap; the web app's static files are precompressed at 11.
 */
export const apiCompression: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  encodings: ['br', 'gzip'],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
};
