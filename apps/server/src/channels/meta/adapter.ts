import { formatForChannel, type Channel } from '@balcao/contracts';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { whatsapps } from '../../db/schema/index.js';
import { ChannelSendError, type ChannelAdapter, type Connection, type OutgoingMessage, type Recipient } from '../adapter.js';
import type { ChannelRuntime, DecodedInbound } from '../sink.js';
import { GraphClient, GraphError } from './graph.js';
import { metaWebhookSchema, parseMetaWebhook, type MetaEvent, type MetaWebhook } from './webhook.js';

interface SendApiResponse {
  recipient_id?: string;
  message_id: string;
}

const ATTACHMENT_TYPE: Record<string, 'image' | 'audio' | 'video' | 'file'> = { image: 'image', sticker: 'image', audio: 'audio', video: 'video' };
/** How long a connection row found for a webhook is reused; changes on this node drop it at once (`forgetConnections`). */
const CONNECTION_TTL_MS = 5_000;
/** A cached row used in its last second is read again in the background. */
const CONNECTION_REFRESH_AHEAD_MS = 1_000;

/** Facebook Messenger and Instagram through the Graph Send API (one Page access token per connection). */
export class MetaAdapter implements ChannelAdapter {
  readonly channels: readonly Channel[] = ['facebook', 'instagram'];
  readonly graph: GraphClient;
  /** Connection rows by `channel:accountId`: every webhook needs its connection. Only rows found are kept, so a new connection serves at once. */
  private readonly connections = new Map<string, { row: Connection; until: number }>();
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly rt: () => ChannelRuntime,
    graphApiUrl: string,
    /** Our app id: echoes of our own sends are dropped (the outbox stored them). */
    private readonly appId?: string,
  ) {
    this.graph = new GraphClient(graphApiUrl);
  }

  /** Nothing to open: the Page token is the session. */
  async start(connection: Connection): Promise<void> {
    await this.rt().sink.sessionChanged(connection.id, { status: connection.facebookPageToken ? 'CONNECTED' : 'DISCONNECTED', qrcode: '', retries: 0 });
  }

  async stop(connection: Connection): Promise<void> {
    await this.rt().sink.sessionChanged(connection.id, { status: 'DISCONNECTED', qrcode: '' });
  }

  async send(connection: Connection, message: OutgoingMessage): Promise<{ wid: string }> {
    const token = this.tokenOf(connection);
    const recipient = { id: message.to.number };
    try {
      if (message.media) {
        const type = ATTACHMENT_TYPE[message.media.mediaType] ?? 'file';
        // Meta fetches the file from our public media URL.
        const sent = await this.graph.post<SendApiResponse>('me/messages', { access_token: token }, {
          recipient,
          messaging_type: 'RESPONSE',
          message: { attachment: { type, payload: { url: message.media.url, is_reusable: true } } },
        });
        const caption = message.body.trim();
        if (caption && caption !== message.media.fileName) {
          await this.graph
            .post('me/messages', { access_token: token }, { recipient, messaging_type: 'RESPONSE', message: { text: formatForChannel('facebook', caption) } })
            .catch((err: unknown) => this.rt().log.warn({ err: (err as Error).message }, 'caption after attachment not sent'));
        }
        return { wid: sent.message_id };
      }
      const replyTo = message.quotedWid ? { reply_to: { mid: message.quotedWid } } : {};
      // Messenger and Instagram have no contact cards: the card goes as its name and number.
      const text = message.contactCard ? `${message.contactCard.name}\n${message.contactCard.number}` : formatForChannel('facebook', message.body);
      const sent = await this.graph.post<SendApiResponse>('me/messages', { access_token: token }, {
        recipient,
        messaging_type: 'RESPONSE',
        message: { text, ...replyTo },
      });
      return { wid: sent.message_id };
    } catch (err) {
      throw err instanceof GraphError ? err.toSendError() : err;
    }
  }

  async react(connection: Connection, to: Recipient, targetWid: string, emoji: string): Promise<void> {
    await this.graph.post('me/messages', { access_token: this.tokenOf(connection) }, {
      recipient: { id: to.number },
      sender_action: emoji ? 'react' : 'unreact',
      payload: { message_id: targetWid, ...(emoji ? { reaction: emoji } : {}) },
    });
  }

  async profilePicture(connection: Connection, to: Recipient): Promise<string | null> {
    return (await this.profile(connection, to.number))?.pictureUrl ?? null;
  }

  /** Name and picture of a PSID (Messenger) or IGSID (Instagram). */
  async profile(connection: Connection, customerId: string): Promise<{ name?: string; pictureUrl?: string | null } | null> {
    const token = connection.facebookPageToken;
    if (!token) return null;
    if (connection.channel === 'instagram') {
      const p = await this.graph.get<{ name?: string; username?: string; profile_pic?: string }>(customerId, {
        fields: 'name,username,profile_pic',
        access_token: token,
      });
      return { name: p.name || p.username, pictureUrl: p.profile_pic ?? null };
    }
    const p = await this.graph.get<{ first_name?: string; last_name?: string; profile_pic?: string }>(customerId, {
      fields: 'first_name,last_name,profile_pic',
      access_token: token,
    });
    return { name: [p.first_name, p.last_name].filter(Boolean).join(' ') || undefined, pictureUrl: p.profile_pic ?? null };
  }

  /** A stored webhook body → pipeline events of the connections we know, in delivery order, with their loaders. */
  async decode(payload: unknown): Promise<DecodedInbound[]> {
    const { events } = parseMetaWebhook(metaWebhookSchema.parse(payload), this.appId);
    const connections = new Map<string, Connection | null>();
    const decoded: DecodedInbound[] = [];
    for (const e of events) {
      const connection = await this.connectionFor(e, connections);
      if (connection) decoded.push({ connection, event: this.withLoaders(connection, e) });
    }
    return decoded;
  }

  /**
   * Whether a webhook body names an account one of our connections serves (else it is acknowledged
   * and dropped): true when every account's connection is cached, else the SQL that tells.
   * The body is the one the webhook route just validated (`metaWebhookSchema`): not parsed again.
   */
  servesAccountOf(body: MetaWebhook): true | SQL {
    const channel = body.object === 'instagram' ? 'instagram' : 'facebook';
    const missing = body.entry.map((e) => `${channel}:${e.id}`).filter((key) => !this.cachedConnection(key));
    if (missing.length === 0) return true;
    // Processing caches the row only after the burst hold (≤ 1 s): read it now, once, so the next deliveries find it.
    for (const key of missing) this.readSoon(key);
    const column = channel === 'instagram' ? whatsapps.instagramAccountId : whatsapps.facebookPageId;
    const served = this.rt()
      .db.select({ one: sql`1` })
      .from(whatsapps)
      .where(and(eq(whatsapps.channel, channel), inArray(column, [...new Set(body.entry.map((e) => e.id))])));
    return sql`EXISTS (${served})`;
  }

  /** One customer's events share this key, so they are processed in delivery order. */
  orderKey(payload: unknown): string {
    const body = payload as { entry?: { messaging?: { sender?: { id?: unknown }; recipient?: { id?: unknown }; message?: { is_echo?: boolean } }[] }[] };
    const item = body.entry?.[0]?.messaging?.[0];
    return `meta:${String((item?.message?.is_echo ? item.recipient?.id : item?.sender?.id) ?? '')}`;
  }

  /** A connection changed or went away on this node: the next webhook reads its row again. */
  forgetConnections(): void {
    this.connections.clear();
  }

  private cachedConnection(key: string): Connection | undefined {
    const hit = this.connections.get(key);
    const now = Date.now();
    if (hit && hit.until > now) {
      // Read again ahead of expiry while webhooks keep coming: a busy account is never found missing (its ack stays one prepared statement).
      if (hit.until - now < CONNECTION_REFRESH_AHEAD_MS) this.readSoon(key);
      return hit.row;
    }
    this.connections.delete(key);
    return undefined;
  }

  /** One background read of a key at a time (single-flight), whatever the number of deliveries asking. */
  private readSoon(key: string): void {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    void this.readConnection(key)
      .catch(() => undefined)
      .finally(() => this.refreshing.delete(key));
  }

  /** The connection row of `channel:accountId`, read and cached (dropped when none). */
  private async readConnection(key: string): Promise<Connection | undefined> {
    const channel = key.slice(0, key.indexOf(':')) as 'facebook' | 'instagram';
    const accountId = key.slice(channel.length + 1);
    const column = channel === 'instagram' ? whatsapps.instagramAccountId : whatsapps.facebookPageId;
    const [row] = await this.rt()
      .db.select()
      .from(whatsapps)
      .where(and(eq(whatsapps.channel, channel), eq(column, accountId)));
    if (row) this.connections.set(key, { row, until: Date.now() + CONNECTION_TTL_MS });
    else this.connections.delete(key);
    return row;
  }

  private async connectionFor(e: MetaEvent, cache: Map<string, Connection | null>): Promise<Connection | null> {
    const key = `${e.channel}:${e.accountId}`;
    if (!cache.has(key)) cache.set(key, this.cachedConnection(key) ?? (await this.readConnection(key)) ?? null);
    return cache.get(key) ?? null;
  }

  /** Adds what needs the connection: the attachment download and the first-contact profile lookup. */
  private withLoaders(connection: Connection, e: MetaEvent) {
    if (e.event.kind !== 'message') return e.event;
    const mediaUrl = e.mediaUrl;
    const limit = this.rt().mediaLimitBytes;
    return {
      ...e.event,
      loadMedia: mediaUrl ? () => this.graph.download(mediaUrl, limit) : undefined,
      lookupProfile: () => this.profile(connection, e.customerId),
    };
  }

  private tokenOf(connection: Connection): string {
    if (!connection.facebookPageToken) throw new ChannelSendError('the connection has no Page access token', true);
    return connection.facebookPageToken;
  }
}
