import { IMPORT_STATUS_RENDER_CLOSE } from '@balcao/contracts';
import type { ChannelSink } from '../../channels/sink.js';
import type { AppContext } from '../../http/context.js';
import { closeImportedTickets } from './commands/tickets.js';
import { inboundQueue } from './ingest.js';
import { processInbound } from './inbound.js';
import { deliverQueued } from './outbound.js';
import { updateSession } from './session-status.js';

/** The pipeline as the channel adapters see it. */
export function conversationSink(ctx: AppContext): ChannelSink {
  return {
    received: (source, payload) => inboundQueue(ctx).receive(source, payload),
    drained: () => inboundQueue(ctx).drained(),
    imported: async (connection, message, mode) => {
      await processInbound(ctx, connection, message, { importMode: mode });
    },
    importProgress: (companyId, payload) => void ctx.events.publish({ type: 'whatsapp.importProgress', companyId, payload }),
    importFinished: async (c) => {
      if (c.closedTicketsPostImported) await closeImportedTickets(ctx, c.companyId, c.id);
      await updateSession(ctx, c.id, { statusImportMessages: c.closedTicketsPostImported ? null : IMPORT_STATUS_RENDER_CLOSE });
      await ctx.events.publish({ type: 'whatsapp.importProgress', companyId: c.companyId, payload: { action: 'refresh', whatsappId: c.id } });
    },
    sessionChanged: async (whatsappId, patch) => {
      await updateSession(ctx, whatsappId, patch);
      if (patch.status === 'CONNECTED') ctx.background.run('queued sends', () => deliverQueued(ctx, whatsappId));
    },
  };
}
