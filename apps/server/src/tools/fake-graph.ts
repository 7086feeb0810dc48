import { FakeGraph } from '../../test/fakes/graph-server.js';

/**
 * The test suite's fake Graph API, for local play: with the server's GRAPH_API_URL
 * pointing here, `POST /facebook` with any token creates the fixture Pages
 * (1000001, 1000002; IG 1700001) and sends land here instead of at Meta.
 */
export async function startFakeGraph(port: number): Promise<string> {
  const graph = await FakeGraph.start(port);
  return graph.url;
}
