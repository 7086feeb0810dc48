import fastifyStatic from '@fastify/static';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Config } from '../config.js';

/** `window.__BALCAO__`: how the built web app learns the API address at run time. */
/** What the browser learns at run time: the API address and the public ids it needs (never a secret). */
export function runtimeConfigScript(config: Pick<Config, 'apiUrl' | 'supportWhatsapp' | 'meta'>): string {
  const runtime = {
    apiUrl: config.apiUrl,
    facebookAppId: config.meta.appId ?? '',
    // Both halves are needed to add a Page: without them the web app disables the Facebook/Instagram entries.
    metaConfigured: Boolean(config.meta.appId && config.meta.appSecret),
    supportWhatsapp: config.supportWhatsapp ?? '',
  };
  return `window.__BALCAO__ = ${JSON.stringify(runtime)};\n`;
}

/** Second HTTP server (WEB_PORT): the built web app with SPA fallback, plus /runtime-config.js. */
export async function buildWebApp(config: Config, logger: FastifyBaseLogger): Promise<FastifyInstance> {
  const web = Fastify({ loggerInstance: logger, logController: new LogController({ disableRequestLogging: true }) });
  const dist = config.webDist;
  const indexHtml = join(dist, 'index.html');
  const built = existsSync(indexHtml);

  web.get('/runtime-config.js', async (_req, reply) =>
    reply.type('application/javascript; charset=utf-8').header('cache-control', 'no-cache').send(runtimeConfigScript(config)),
  );

  if (!built) {
    logger.warn(`web app not built: ${indexHtml} is missing. Run \`npm run build --workspace @balcao/web\` (npm start does it).`);
    web.setNotFoundHandler(async (_req, reply) =>
      reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The Balcão web app is not built yet.\nRun `npm run build --workspace @balcao/web` (or `npm start`) and reload.\n'),
    );
    return web;
  }

  await web.register(fastifyStatic, {
    root: dist,
    wildcard: true,
    index: ['index.html'],
    cacheControl: false,
    // The build writes .br/.gz beside each file (vite-precompress.ts): sent as-is when the browser accepts them.
    preCompressed: true,
    setHeaders(res, path) {
      res.setHeader('vary', 'accept-encoding');
      // Hashed file names under /assets never change; index.html must always be revalidated.
      if (path.includes(`${join(dist, 'assets')}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
      else res.setHeader('cache-control', 'no-cache');
    },
  });
  web.setNotFoundHandler(async (req, reply) => {
    const path = req.url.split('?')[0] ?? '/';
    // Client-side routes fall back to index.html; missing files (assets, anything with an extension) stay 404.
    if ((req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/assets/') && extname(path) === '') {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).type('text/plain; charset=utf-8').send('Not found\n');
  });
  return web;
}
