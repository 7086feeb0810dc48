import type { AppContext } from '../../../http/context.js';
import { runInboundBehaviours, type InboundContext } from './inbound.js';
import { readQuietTurns, type Known } from './quiet.js';
import { inTicketTurn } from './turn.js';

export type { InboundContext };

/**
 * The connection behaviours of a stored batch's customer messages (in the batch's order), grouped by
 * ticket. ONE statement for the batch, shared with the other lanes' batches waiting then (quiet.ts),
 * reads what the steps need and ends the turn of the tickets where no step can act; the others take
 * their turn, one message at a time, with what the read found. Group tickets have no behaviours.
 * Each message's turn is its own background task, so one failing is logged alone.
 */
export async function runBatchBehaviours(ctx: AppContext, items: InboundContext[]): Promise<void> {
  const byTicket = new Map<number, InboundContext[]>();
  for (const c of items) {
    if (c.ticket.isGroup || c.messageId === undefined) continue;
    const same = byTicket.get(c.ticket.id);
    if (same) same.push(c);
    else byTicket.set(c.ticket.id, [c]);
  }
  if (byTicket.size === 0) return;
  const tickets = [...byTicket.values()];
  const read = await readQuietTurns(ctx, tickets).catch((err: unknown) => {
    ctx.log.warn({ err }, 'the behaviours’ batch read failed: every ticket takes its turn');
    return new Map<number, { ended: boolean; known?: Known }>();
  });
  for (const cs of tickets) {
    const found = read.get(cs[0]!.ticket.id);
    if (found?.ended) continue;
    for (const c of cs) {
      const current = { ...c, known: found?.known };
      ctx.background.run('connection behaviours', () => inTicketTurn(ctx, current, (fresh) => runInboundBehaviours(ctx, fresh)));
    }
  }
}
