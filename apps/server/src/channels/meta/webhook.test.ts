import { describe, expect, it, vi } from 'vitest';
import { ZodError } from 'zod';
import { fixture } from '../../../test/fixtures.js';
import { metaWebhookSchema, parseMetaWebhook, readMetaWebhook } from './webhook.js';

const parse = (name: string, ownAppId?: string) => parseMetaWebhook(metaWebhookSchema.parse(fixture(`meta/${name}.json`)), ownAppId).events;
const one = (name: string) => {
  const events = parse(name);
  expect(events).toHaveLength(1);
  return events[0]!;
};

describe('Meta webhook mapping (recorded shapes)', () => {
  it.each([
    ['messenger-text', 'chat'],
    ['messenger-image', 'image'],
    ['messenger-audio', 'audio'],
    ['messenger-video', 'video'],
    ['messenger-file', 'application'],
    ['messenger-sticker', 'sticker'],
    ['messenger-location-or-fallback', 'chat'],
    ['messenger-reaction', 'reactionMessage'],
    ['messenger-postback', 'chat'],
    ['messenger-reply-to', 'chat'],
    ['instagram-text', 'chat'],
    ['instagram-image', 'image'],
    ['instagram-story-mention', 'image'],
    ['instagram-story-reply', 'chat'],
    ['instagram-reaction', 'reactionMessage'],
  ])('%s → a message with mediaType %s', (name, mediaType) => {
    const e = one(name);
    expect(e.event).toMatchObject({ kind: 'message', fromMe: false, mediaType });
    expect(e.customerId).toMatch(/^2[07]00001$/);
  });

  it('routes by the Page or IG account id and keeps media URLs and quotes', () => {
    expect(one('messenger-image')).toMatchObject({ accountId: '1000001', channel: 'facebook', mediaUrl: expect.stringContaining('fbcdn') });
    expect(one('instagram-text')).toMatchObject({ accountId: '1700001', channel: 'instagram' });
    expect(one('messenger-reply-to').event).toMatchObject({ quotedWid: expect.stringMatching(/^m_/) });
    expect(one('messenger-location-or-fallback').event).toMatchObject({ body: expect.stringContaining('maps.app.goo.gl') });
    expect(one('messenger-postback').event).toMatchObject({ body: 'Falar com atendente' });
  });

  it('maps echoes, edits, deletions and receipts', () => {
    expect(one('messenger-echo')).toMatchObject({ customerId: '2000001', event: { kind: 'message', fromMe: true } });
    // Our own app's sends are already in the outbox: their echo is dropped.
    expect(parse('messenger-echo', '263902037430900')).toEqual([]);
    expect(one('instagram-echo').event).toMatchObject({ kind: 'message', fromMe: true });
    expect(one('messenger-message-edit').event).toMatchObject({ kind: 'edit', body: expect.stringContaining('#4512') });
    expect(one('instagram-unsend').event).toMatchObject({ kind: 'delete' });
    expect(one('messenger-delivery').event).toMatchObject({ kind: 'ack', ack: 2 });
    expect(one('messenger-read').event).toMatchObject({ kind: 'watermark', ack: 3, upTo: new Date(1750000470000) });
    expect(one('instagram-read').event).toMatchObject({ kind: 'watermark', ack: 3 });
  });

  it('skips items of unknown shape instead of failing the delivery', () => {
    const body = metaWebhookSchema.parse({ object: 'page', entry: [{ id: '1', messaging: [{ weird: true }, { sender: { id: '2' }, recipient: { id: '1' }, optin: {} }] }] });
    expect(parseMetaWebhook(body)).toEqual({ events: [], skipped: 2 });
  });
});

describe('readMetaWebhook (the envelope checked by hand on the acknowledgement path)', () => {
  const text = JSON.stringify({ object: 'page', entry: [{ id: '1', time: 5, messaging: [{ sender: { id: '2' } }] }] });
  /** A copy of a valid body with one change. */
  const variant = (change: (body: { entry: Record<string, unknown>[] } & Record<string, unknown>) => void) => {
    const body = JSON.parse(text) as { entry: Record<string, unknown>[] } & Record<string, unknown>;
    change(body);
    return body;
  };
  const same = (json: unknown) => {
    let expected: unknown;
    let refusal: unknown;
    try {
      expected = metaWebhookSchema.parse(json);
    } catch (err) {
      refusal = err;
    }
    if (refusal) {
      expect(() => readMetaWebhook(json)).toThrow(ZodError);
      expect(() => readMetaWebhook(json)).toThrow((refusal as Error).message);
    } else {
      expect(readMetaWebhook(json)).toStrictEqual(expected);
    }
    return refusal === undefined;
  };
  const fixtures = ['messenger-text', 'messenger-image', 'messenger-sticker', 'messenger-echo', 'messenger-delivery', 'messenger-read', 'messenger-reaction', 'messenger-postback', 'messenger-message-edit', 'instagram-text', 'instagram-story-mention', 'instagram-unsend', 'instagram-read'];

  it.each(fixtures)('%s: the same value as the schema', (name) => {
    expect(same(fixture(`meta/${name}.json`))).toBe(true);
  });

  it('accepts what the schema accepts, with its output: numeric ids as strings, unknown keys dropped, optional keys absent', () => {
    expect(same(variant((b) => (b.entry[0]!.id = 1000001)))).toBe(true);
    expect(same(variant((b) => ((b.extra = 1), (b.entry[0]!.changes = []))))).toBe(true);
    expect(same(variant((b) => (delete b.entry[0]!.time, delete b.entry[0]!.messaging)))).toBe(true);
    expect(same(variant((b) => ((b.object = 'instagram'), (b.entry[0]!.messaging = []))))).toBe(true);
    expect(same(variant((b) => (b.entry = Array.from({ length: 1000 }, (_, i) => ({ id: String(i) })))))).toBe(true);
    expect(same(variant((b) => (b.entry[0]!.messaging = Array.from({ length: 1000 }, () => ({ a: 1 })))))).toBe(true);
    // JSON.parse makes `__proto__` an own key; the schema's record copy drops it.
    expect(same(JSON.parse('{"object":"page","entry":[{"id":"1","messaging":[{"__proto__":{"x":1},"sender":{"id":"2"}}]}]}'))).toBe(true);
  });

  it('does not run the schema for a valid body (the point of the hand check)', () => {
    const schema = vi.spyOn(metaWebhookSchema, 'parse');
    try {
      readMetaWebhook(fixture('meta/messenger-text.json'));
      expect(schema).not.toHaveBeenCalled();
      expect(() => readMetaWebhook({})).toThrow(ZodError);
      expect(schema).toHaveBeenCalledTimes(1);
    } finally {
      schema.mockRestore();
    }
  });

  it('refuses what the schema refuses, with the same issues', () => {
    for (const json of [
      null,
      [],
      'page',
      {},
      variant((b) => (b.object = 'whatsapp_business_account')),
      variant((b) => (b.entry = [])),
      variant((b) => (b.entry = {} as never)),
      variant((b) => (b.entry = Array.from({ length: 1001 }, (_, i) => ({ id: String(i) })))),
      variant((b) => (b.entry = [null] as never)),
      variant((b) => (b.entry = [[]] as never)),
      variant((b) => delete b.entry[0]!.id),
      variant((b) => (b.entry[0]!.id = true)),
      variant((b) => (b.entry[0]!.id = null)),
      variant((b) => (b.entry[0]!.time = null)),
      variant((b) => (b.entry[0]!.time = '5')),
      variant((b) => (b.entry[0]!.messaging = null)),
      variant((b) => (b.entry[0]!.messaging = {})),
      variant((b) => (b.entry[0]!.messaging = [null])),
      variant((b) => (b.entry[0]!.messaging = [[]])),
      variant((b) => (b.entry[0]!.messaging = ['x'])),
      variant((b) => (b.entry[0]!.messaging = Array.from({ length: 1001 }, () => ({})))),
    ]) {
      expect(same(json), JSON.stringify(json)?.slice(0, 80)).toBe(false);
    }
  });
});
