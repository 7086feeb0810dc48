import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeDialogflow, type FakeIntent } from '../test/fakes/dialogflow-server.js';
import { FakeEfi } from '../test/fakes/efi-server.js';
import { FakeGraph } from '../test/fakes/graph-server.js';

/**
 * The test suite's fake Graph API, for local play: with the server's GRAPH_API_URL
 * pointing here, `POST /facebook` with any token creates the fixture Pages
 * (1000001, 1000002; IG 1700001) and sends land here instead of at Meta.
 *
 * One addition for out-of-process tests (the browser e2e suite): `GET /__sent`
 * answers the bodies of the Send API calls received so far, oldest first. Every
 * other request is passed to the fake unchanged. The fake Efí PIX API answers under
 * `/efi` on the same port (EFI_API_URL=<this origin>/efi), with its `POST /efi/__pay`; the fake
 * Dialogflow under `/dialogflow` (DIALOGFLOW_API_URL=<this origin>/dialogflow), with `GET
 * /dialogflow/__key` (the service-account key it accepts, as an integration's jsonContent) and
 * `POST /dialogflow/__intents` (`{ "<lowercase text>": { displayName, replies, endInteraction? } }`).
 */
export async function startFakeGraph(port: number): Promise<string> {
  const graph = await FakeGraph.start();
  const efi = await FakeEfi.start();
  const dialogflow = await FakeDialogflow.start();
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    let answer: Promise<void>;
    if (url.startsWith('/efi/')) answer = forward(efi.url, url.slice('/efi'.length), req, res);
    else if (url.startsWith('/dialogflow/')) answer = routeDialogflow(dialogflow, req, res);
    else answer = route(graph, req, res);
    answer.catch(() => {
      res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
}

async function route(graph: FakeGraph, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method === 'GET' && req.url === '/__sent') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(graph.sends().map((r) => r.body)));
    return;
  }
  await forward(graph.origin, req.url ?? '/', req, res);
}

async function routeDialogflow(dialogflow: FakeDialogflow, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').slice('/dialogflow'.length);
  if (req.method === 'GET' && path === '/__key') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(dialogflow.jsonContent);
    return;
  }
  if (req.method === 'POST' && path === '/__intents') {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const intents = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, FakeIntent>;
    for (const [text, intent] of Object.entries(intents)) dialogflow.intents.set(text.trim().toLowerCase(), intent);
    res.writeHead(204).end();
    return;
  }
  await forward(dialogflow.url, path, req, res);
}

async function forward(origin: string, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const headers: Record<string, string> = {};
  if (chunks.length) headers['content-type'] = req.headers['content-type'] ?? 'application/json';
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  const answer = await fetch(`${origin}${path}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}
