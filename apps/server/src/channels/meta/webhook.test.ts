import { describe, expect, it } from 'vitest';
import { fixture } from '../../../test/fixtures.js';
import { metaWebhookSchema, parseMetaWebhook } from './webhook.js';

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
