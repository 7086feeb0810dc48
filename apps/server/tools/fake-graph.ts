import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGraph } from '../test/fakes/graph-server.js';

/**
 * The test suite's fake Graph API, for local play: with the server's GRAPH_API_URL
 * pointing here, `POST /facebook` with any token creates the fixture Pages
 * (1000001, 1000002; IG 1700001) and sends land here instead of at Meta.
 *
 * One addition for out-of-process tests (the browser e2e suite): `GET /__sent`
 * answers the bodies of the Send API calls received so far, oldest first. Every
 * other request is passed to the fake unchanged.
 */
export async function startFakeGraph(port: number): Promise<string> {
  const graph = await FakeGraph.start();
  const server = createServer((req, res) => {
    route(graph, req, res).catch(() => {
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
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const answer = await fetch(`${graph.origin}${req.url ?? '/'}`, {
    method: req.method,
    headers: chunks.length ? { 'content-type': req.headers['content-type'] ?? 'application/json' } : undefined,
    body: chunks.length ? Buffer.concat(chunks) : undefined,
  });
  res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
  res.end(Buffer.from(await answer.arrayBuffer()));
}
