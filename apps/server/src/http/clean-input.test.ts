import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { parseCleanJson } from './clean-input.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helps, messages, tags, ticketNotes } from '../db/schema/index.js';
import { createConnection, eventually } from '../../test/connections.js';
import { FakeGraph } from '../../test/fakes/graph-server.js';
import { metaEnv, postWebhook } from '../../test/fakes/meta-webhook.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, bearer, createTestApp, login, type TestApp } from '../../test/helpers.js';
import { branch, sample, typeOf, type Operation, type Path, type Schema } from '../../test/openapi.js';
import { createContact, createQueue, createTicketRow } from '../../test/tickets.js';

/**
 * Issue 9 point 3: a NUL byte (or a lone surrogate) in any string the API takes answers 4xx
 * or is stored cleanly, never 5xx. The requests are generated from the OpenAPI document:
 * one per string field of every operation, that field poisoned, the others plausible.
 */
const POISON = 'ab\u0000c\uD800d';
const POISON_URL = 'ab%00c';

/** Paths of the free-text strings inside a schema (enums and constants are not free text). */
function stringLeaves(schema: Schema, at: Path = []): Path[] {
  const s = branch(schema);
  if (s.enum || s.const !== undefined) return [];
  const type = typeOf(s);
  if (type === 'string') return [at];
  if (type === 'array' && s.items) return stringLeaves(s.items, [...at, 0]);
  if (s.properties) return Object.entries(s.properties).flatMap(([k, v]) => stringLeaves(v, [...at, k]));
  return [];
}

function poisoned(base: unknown, at: Path, minLength = 0): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let value = POISON;
  while (value.length < minLength) value += 'x';
  if (at.length === 0) return value;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[at[at.length - 1]!] = value;
  return copy;
}

const leafSchema = (schema: Schema, at: Path): Schema =>
  at.reduce<Schema>((s, key) => {
    const b = branch(s);
    return typeof key === 'number' ? b.items! : b.properties![key]!;
  }, schema);

interface Probe {
  method: string;
  url: string;
  payload?: unknown;
  what: string;
}

function probesFor(path: string, method: string, op: Operation): Probe[] {
  const params = op.parameters ?? [];
  const pathWith = (poisonName?: string) =>
    path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const p = params.find((x) => x.in === 'path' && x.name === name);
      return name === poisonName ? POISON_URL : typeOf(p?.schema ?? {}) === 'string' ? 'Amostra' : '1';
    });
  const jsonSchema = op.requestBody?.content['application/json']?.schema;
  const body = jsonSchema ? sample(jsonSchema) : undefined;
  const m = method.toUpperCase();
  const probes: Probe[] = [];
  for (const p of params.filter((x) => typeOf(x.schema ?? {}) === 'string' && !x.schema?.enum)) {
    const url = p.in === 'path' ? pathWith(p.name) : `${pathWith()}?${encodeURIComponent(p.name)}=${POISON_URL}`;
    if (p.in === 'path' || p.in === 'query') probes.push({ method: m, url, payload: body, what: `${p.in} ${p.name}` });
  }
  if (jsonSchema) {
    for (const at of stringLeaves(jsonSchema)) {
      probes.push({ method: m, url: pathWith(), payload: poisoned(body, at, leafSchema(jsonSchema, at).minLength), what: `body ${at.join('.')}` });
    }
  }
  return probes;
}

let t: TestApp;
let graph: FakeGraph;
let token: string;
let pageId: string;

beforeAll(async () => {
  graph = await FakeGraph.start();
  t = await createTestApp({ ...metaEnv(graph.url), LOGIN_MAX_PER_IP: '10000', LOGIN_MAX_PER_EMAIL: '10000' });
  token = (await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
  // Company 1 gets one row of each kind, so `{id}` = 1 reaches a real row.
  const queue = await createQueue(t.db, 1);
  const connection = await createConnection(t.db, 1, {}, [queue.id]);
  pageId = connection.facebookPageId!;
  const contact = await createContact(t.db, 1);
  const ticket = await createTicketRow(t.db, { companyId: 1, contactId: contact.id, whatsappId: connection.id, status: 'open', userId: 1, queueId: queue.id });
  await t.db.insert(tags).values({ companyId: 1, name: 'Etiqueta', color: '#123456' });
  await t.db.insert(helps).values({ title: 'Ajuda', description: 'Texto' });
  await t.db.insert(messages).values({ companyId: 1, ticketId: ticket.id, contactId: contact.id, body: 'oi', fromMe: true, ack: 1, wid: 'mid.1' });
  await t.db.insert(ticketNotes).values({ companyId: 1, ticketId: ticket.id, contactId: contact.id, userId: 1, note: 'nota' });
});

afterAll(async () => {
  await t?.close();
  await graph?.close();
});

describe('NUL and lone surrogates at the edge', () => {
  it('every string field of the OpenAPI document answers 4xx or stores cleanly, never 5xx', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
    const probes = Object.entries(doc.paths)
      .filter(([path]) => path !== '/webhook')
      .flatMap(([path, ops]) => Object.entries(ops).flatMap(([method, op]) => probesFor(path, method, op)));
    // A floor that proves the generator reads the document (each path counts once: trailing slashes are not separate routes).
    expect(probes.length).toBeGreaterThan(120);

    const failures: string[] = [];
    for (const probe of probes) {
      const send = () =>
        t.app.inject({
          method: probe.method as 'GET',
          url: probe.url,
          headers: { ...bearer(token), ...(probe.payload !== undefined ? { 'content-type': 'application/json' } : {}) },
          payload: probe.payload !== undefined ? JSON.stringify(probe.payload) : undefined,
        });
      let res = await send();
      // A probe may change the super user's password (and end its sessions): log in again.
      if (res.statusCode === 403 && res.json<{ error?: string }>().error === 'ERR_SESSION_EXPIRED') {
        token = (await login(t.app, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
        res = await send();
      }
      if (res.statusCode >= 500) failures.push(`${probe.method} ${probe.url} (${probe.what}) → ${res.statusCode} ${res.body}`);
    }
    expect(failures).toEqual([]);
  });

  it('a queue colour must be a colour, a lone surrogate does not make one', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/queue', headers: bearer(token), payload: { name: 'Cores', color: '#12345\uD800' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('a signed webhook with NUL in a text and a reaction is stored without it and answers 200', async () => {
    const text = JSON.parse(readFileSync(new URL('../../test/fixtures/meta/messenger-text.json', import.meta.url), 'utf8'));
    const reaction = JSON.parse(readFileSync(new URL('../../test/fixtures/meta/messenger-reaction.json', import.meta.url), 'utf8'));
    const sender = '77000001';
    const event = text.entry[0].messaging[0];
    Object.assign(text.entry[0], { id: pageId });
    Object.assign(event, { sender: { id: sender }, recipient: { id: pageId }, timestamp: Date.now() });
    event.message.mid = 'm_nul_text';
    event.message.text = 'Olá\u0000 mundo';
    const sent = await postWebhook(t.app, text);
    expect(sent.statusCode).toBe(200);
    const stored = await eventually(async () => (await t.db.select().from(messages).where(eq(messages.wid, 'm_nul_text')))[0]);
    expect(stored.body).toBe('Olá mundo');

    const r = reaction.entry[0].messaging[0];
    Object.assign(reaction.entry[0], { id: pageId });
    Object.assign(r, { sender: { id: sender }, recipient: { id: pageId }, timestamp: Date.now() });
    r.reaction = { ...r.reaction, mid: 'm_nul_text', emoji: '\u0000👍', reaction: 'like\u0000' };
    const reacted = await postWebhook(t.app, reaction);
    expect(reacted.statusCode).toBe(200);
  });
});

describe('parseCleanJson (the webhook body: the walk only when the text may need it)', () => {
  it('cleans what reaches a JSON text as an escape or a raw DEL, keys included, and keeps tab and newlines', () => {
    const text = JSON.stringify({ ['k\u0000ey']: ['a\bb', 'c\fd', 'e\uD800f', 'g\u007Fh', 'tab\tnl\n'] });
    expect(parseCleanJson(text)).toEqual({ key: ['ab', 'cd', 'e\uFFFDf', 'gh', 'tab\tnl\n'] });
    expect(parseCleanJson('{"raw":"x\u007Fy"}')).toEqual({ raw: 'xy' });
  });

  it('an escaped text with nothing to clean (accents, an emoji as a surrogate pair, an escaped backslash) is JSON.parse\'s value', () => {
    const text = '{"entry":[{"messaging":[{"message":{"text":"Ol\\u00e1 \\ud83d\\ude00 \\\\u0000 \\/"}}]}]}';
    const value = parseCleanJson(text) as { entry: [{ messaging: [{ message: { text: string } }] }] };
    expect(value.entry[0].messaging[0].message.text).toBe('Olá 😀 \\u0000 /');
    expect(value).toEqual(JSON.parse(text));
  });

  it('an escape that decodes to something to clean is cleaned: a lone surrogate beside a pair, a control character, in a key too', () => {
    const text = '{"t":"\\ud83d\\ude00\\ude00 \\ud83d","k\\u0001":"a\\u001fb\\u0009"}';
    expect(parseCleanJson(text)).toEqual({ t: '😀\uFFFD \uFFFD', k: 'ab\t' });
  });

  it('answers a clean text as JSON.parse does', () => {
    const text = '{"object":"page","entry":[{"id":"1","messaging":[{"message":{"mid":"m_1","text":"olá \\\\b 😀"}}]}]}';
    expect(parseCleanJson(text)).toEqual(JSON.parse(text));
  });
});
