import type { AppContext } from '../../../http/context.js';
import { runInboundBehaviours, type InboundContext } from './inbound.js';
import { connectionMayAct, endQuietTurns } from './quiet.js';
import { inTicketTurn } from './turn.js';

export type { InboundContext };

/**
 * The connection behaviours of a stored batch's customer messages (in the batch's order). Tickets
 * where a connection setting may make a step act take their turn at once; the others are asked,
 * in one statement for the batch, whether any step can act now (quiet.ts): those where none can
 * are done there, the rest take their turn. Group tickets have no behaviours. Each message's turn
 * is its own background task, so one failing is logged alone.
 */
export async function runBatchBehaviours(ctx: AppContext, items: InboundContext[]): Promise<void> {
  const now = new Date();
  const byTicket = new Map<number, InboundContext[]>();
  for (const c of items) {
    if (c.ticket.isGroup) continue;
    const same = byTicket.get(c.ticket.id);
    if (same) same.push(c);
    else byTicket.set(c.ticket.id, [c]);
  }
  const inTurn = (cs: InboundContext[]) => {
    for (const c of cs) ctx.background.run('connection behaviours', () => inTicketTurn(ctx, c, (current) => runInboundBehaviours(ctx, current)));
  };
  const maybeQuiet: InboundContext[][] = [];
  for (const cs of byTicket.values()) {
    if (cs.some((c) => c.messageId === undefined || connectionMayAct(c, now))) inTurn(cs);
    else maybeQuiet.push(cs);
  }
  if (maybeQuiet.length === 0) return;
  const ended = await endQuietTurns(ctx, maybeQuiet, now).catch((err: unknown) => {
    ctx.log.warn({ err }, 'quiet turns could not be ended: every ticket takes its turn');
    return new Set<number>();
  });
  for (const cs of maybeQuiet) if (!ended.has(cs[0]!.ticket.id)) inTurn(cs);
}
