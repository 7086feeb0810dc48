import type { Channel } from '@balcao/contracts';
import type { Config } from '../config.js';
import type { AppContext } from '../http/context.js';
import type { ChannelAdapter } from './adapter.js';
import { MetaAdapter } from './meta/adapter.js';
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
  private ctx?: AppContext;

  constructor(config: Config, deps: ChannelDeps = {}) {
    const ctx = () => {
      if (!this.ctx) throw new Error('Channels used before bind()');
      return this.ctx;
    };
    this.whatsapp = new WhatsappSessions(ctx, { makeSocket: deps.makeWaSocket ?? baileysSocketFactory, historyIdleMs: deps.historyIdleMs });
    this.meta = new MetaAdapter(ctx, config.meta.graphApiUrl);
  }

  /** The adapters need the context, which holds the adapters: bound once the context exists. */
  bind(ctx: AppContext): void {
    this.ctx = ctx;
  }

  adapterFor(channel: Channel): ChannelAdapter {
    return channel === 'whatsapp' ? this.whatsapp : this.meta;
  }

  async close(): Promise<void> {
    await this.whatsapp.closeAll();
  }
}
