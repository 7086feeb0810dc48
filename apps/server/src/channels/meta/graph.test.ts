import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGraph } from '../../../test/fakes/graph-server.js';
import { GraphClient, GraphError } from './graph.js';

/** The Graph client over node:http against a local fake Graph: answers, error answers, timeouts and a closed port. */

let graph: FakeGraph;
const send = (client: GraphClient, text: string) =>
  client.post<{ message_id: string }>('me/messages', { access_token: 'page-token-1' }, { recipient: { id: '123' }, message: { text } });

beforeAll(async () => {
  graph = await FakeGraph.start();
});

afterAll(async () => {
  await graph.close();
});

describe('GraphClient', () => {
  it('posts JSON with the token as a query parameter and answers the parsed body, reusing its connection', async () => {
    const client = new GraphClient(graph.url);
    const first = await send(client, 'Olá');
    const second = await send(client, 'Olá de novo');
    expect(first.message_id).toMatch(/^m_fake_\d+$/);
    expect(second.message_id).not.toBe(first.message_id);
    const [a, b] = graph.sends().slice(-2);
    expect(a!.body).toEqual({ recipient: { id: '123' }, message: { text: 'Olá' } });
    expect(a!.query.get('access_token')).toBe('page-token-1');
    expect(b!.body).toMatchObject({ message: { text: 'Olá de novo' } });
  });

  it("turns Meta's error answer into a GraphError with its code (permanent or not)", async () => {
    const client = new GraphClient(graph.url);
    graph.sendError = { status: 400, body: { error: { message: 'Invalid OAuth access token.', code: 190 } } };
    try {
      const err = await send(client, 'x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GraphError);
      expect(err).toMatchObject({ status: 400, code: 190, message: 'Invalid OAuth access token.', permanent: true });
    } finally {
      graph.sendError = undefined;
    }
    graph.sendFailures = 1;
    expect(await send(client, 'x').catch((e: unknown) => e)).toMatchObject({ status: 500, code: 1, permanent: false });
  });

  it('gives up after its timeout with a transient error, and on a port nothing listens on', async () => {
    graph.sendDelayMs = 1000;
    try {
      const started = Date.now();
      const err = await send(new GraphClient(graph.url, 150), 'devagar').catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(900);
      expect(err).toMatchObject({ status: 0, message: 'Graph API unreachable: TimeoutError', permanent: false });
    } finally {
      graph.sendDelayMs = 0;
    }
    const closed = await send(new GraphClient('http://127.0.0.1:9/v21.0'), 'ninguém').catch((e: unknown) => e);
    expect(closed).toMatchObject({ status: 0, permanent: false });
  });

  it('sends again on a new connection when the kept-alive one is closed as it is reused', async () => {
    // A server that answers the first request of each connection and drops the connection at its second,
    // as one whose keep-alive timeout fires while our next request is on its way.
    const requests: number[] = [];
    const open: Socket[] = [];
    const server = createServer((socket: Socket) => {
      const connection = open.push(socket);
      let seen = 0;
      socket.on('data', (chunk) => {
        if (!chunk.toString('latin1').includes('\r\n\r\n')) return;
        seen += 1;
        requests.push(connection);
        if (seen > 1) return void socket.destroy();
        const body = JSON.stringify({ message_id: `m_raw_${requests.length}` });
        socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const client = new GraphClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect((await send(client, 'um')).message_id).toBe('m_raw_1');
      expect((await send(client, 'dois')).message_id).toBe('m_raw_3');
      // The second send reached the first connection, which dropped it, then a new one, which answered.
      expect(requests).toEqual([1, 1, 2]);
    } finally {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
