import type { Channel } from '@balcao/contracts';
import type { Config } from '../config.js';
import type { ChannelAdapter } from './adapter.js';
import { MetaAdapter } from './meta/adapter.js';
import type { ChannelRuntime, DecodedInbound, InboundSource } from './sink.js';
import { baileysSocketFactory, type WaSocketFactory } from './whatsapp/socket.js';
import { WhatsappSessions } from './whatsapp/sessions.js';

export interface ChannelDeps {
  /** Builds Baileys sockets; tests pass a fake driven by recorded events (no network). */
  makeWaSocket?: WaSocketFactory;
  historyIdleMs?: number;
}

/** The channel adapters of this process, by channel. */
export class Channels {
  readonly whatsapp: WhatsappSessions;
  readonly meta: MetaAdapter;
  private runtime?: ChannelRuntime;

  constructor(config: Config, deps: ChannelDeps = {}) {
    const rt = () => {
      if (!this.runtime) throw new Error('Channels used before bind()');
      return this.runtime;
    };
    this.whatsapp = new WhatsappSessions(rt, { makeSocket: deps.makeWaSocket ?? baileysSocketFactory, historyIdleMs: deps.historyIdleMs });
    this.meta = new MetaAdapter(rt, config.meta.graphApiUrl, config.meta.appId);
  }

  /** The adapters need the sink, which needs the adapters: bound once both exist. */
  bind(runtime: ChannelRuntime): void {
    this.runtime = runtime;
  }

  adapterFor(channel: Channel): ChannelAdapter {
    return channel === 'whatsapp' ? this.whatsapp : this.meta;
  }

  /** A stored raw event → pipeline events (see ChannelSink.received). */
  decode(source: InboundSource, payload: unknown): Promise<DecodedInbound[]> {
    return source === 'whatsapp' ? this.whatsapp.decode(payload) : this.meta.decode(payload);
  }

  /** Events with the same key (one customer of one connection) are processed in the order received. */
  orderKey(source: InboundSource, payload: unknown): string {
    return source === 'whatsapp' ? this.whatsapp.orderKey(payload) : this.meta.orderKey(payload);
  }

  async close(): Promise<void> {
    await this.whatsapp.closeAll();
  }
}
