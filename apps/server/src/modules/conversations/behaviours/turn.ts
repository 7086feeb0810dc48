import { and, eq, sql } from 'drizzle-orm';
import { ticketTurns, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import type { InboundContext } from './inbound.js';

/** A turn is held this long, renewed every third of it while the behaviours run; a crashed node's runs out. */
const LEASE_MS = 30_000;
/** The longest a message waits for its turn; after that its behaviours run anyway (logged). */
const WAIT_MS = 120_000;
/** An earlier message of the ticket stored longer ago than this is not waited for (its node may have died). */
const RECENT_MS = 30_000;
const FIRST_POLL_MS = 15;
const MAX_POLL_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The lease's end, as the token its holder compares (milliseconds, so it survives the round trip through a JS Date). */
const leaseEnd = sql`date_trunc('milliseconds', now() + ${`${LEASE_MS} milliseconds`}::interval)`;

/**
 * Runs the connection behaviours of one customer message (`run`) in its ticket's turn: one
 * message of a ticket at a time across all nodes, in the order the messages were stored, each
 * seeing the ticket as the previous one left it. Two answers arriving together (two webhook
 * deliveries, two nodes) cannot both read the same menu position and both answer it.
 * The turn is a lease row (ticket_turns), not a held database connection: the behaviours talk
 * to the network (integrations, the model) and must not pin a pool connection while they do.
 */
export async function inTicketTurn(ctx: AppContext, c: InboundContext, run: (c: InboundContext) => Promise<void>): Promise<void> {
  const { messageId } = c;
  if (c.ticket.isGroup || messageId === undefined) return run(c);
  const ticketId = c.ticket.id;
  const deadline = Date.now() + WAIT_MS;
  // Queued in call order, before any await: this node's messages of a ticket reach here in stored order.
  const local = localTurns(ctx).queue(ticketId);
  try {
    await local.earlier(WAIT_MS);
    let mine = await waitForTurn(ctx, ticketId, messageId, deadline, local.chain);
    const renew = setInterval(() => {
      if (mine) void renewLease(ctx, ticketId, mine).then((until) => (mine = until), () => undefined);
    }, LEASE_MS / 3);
    try {
      const [fresh] = await ctx.db.select().from(tickets).where(eq(tickets.id, ticketId));
      await run({ ...c, ticket: fresh ?? c.ticket });
    } finally {
      clearInterval(renew);
      await endTurn(ctx, ticketId, messageId, mine);
    }
  } finally {
    local.done();
  }
}

/** This node's messages of one ticket that follow each other without a pause. */
interface Chain {
  tail: Promise<void>;
  /** The ticket_turns row is known to exist (an earlier message of the chain inserted it). */
  hasRow: boolean;
}

/**
 * This node's messages of each ticket, one after the other: a message asks the database for the
 * turn only once the previous one of this node has ended its own, so same-node successors take
 * the lease at their first try instead of polling for it (the lease still orders them across nodes).
 */
class LocalTurns {
  private readonly chains = new Map<number, Chain>();

  queue(ticketId: number): { chain: Chain; earlier(maxMs: number): Promise<void>; done(): void } {
    const running = this.chains.get(ticketId);
    const chain = running ?? { tail: Promise.resolve(), hasRow: false };
    this.chains.set(ticketId, chain);
    const previous = chain.tail;
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const tail = previous.then(() => finished);
    chain.tail = tail;
    return {
      chain,
      // Bounded like the database wait: a message stuck in its behaviours does not hold the next ones forever.
      earlier: async (maxMs) => {
        if (!running) return;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([previous, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)))]);
        clearTimeout(timer);
      },
      done: () => {
        done();
        if (chain.tail === tail) this.chains.delete(ticketId);
      },
    };
  }
}

const nodeTurns = new WeakMap<AppContext, LocalTurns>();
function localTurns(ctx: AppContext): LocalTurns {
  let turns = nodeTurns.get(ctx);
  if (!turns) nodeTurns.set(ctx, (turns = new LocalTurns()));
  return turns;
}

/** The lease's end once this message holds the turn; null when it waited WAIT_MS in vain. */
async function waitForTurn(ctx: AppContext, ticketId: number, messageId: number, deadline: number, chain: Chain): Promise<Date | null> {
  if (!chain.hasRow) {
    await ctx.db.insert(ticketTurns).values({ ticketId }).onConflictDoNothing();
    chain.hasRow = true;
  }
  for (let pause = FIRST_POLL_MS; Date.now() < deadline; pause = Math.min(MAX_POLL_MS, Math.ceil(pause * 1.5))) {
    const until = await takeTurn(ctx, ticketId, messageId);
    if (until) return until;
    await sleep(pause);
  }
  ctx.log.warn({ ticketId, messageId }, 'connection behaviours ran without their turn: the ticket stayed busy');
  return null;
}

/**
 * Takes the lease when it is free (or ran out) and no earlier customer message of the ticket,
 * stored in the last RECENT_MS, still waits for its own behaviours.
 */
async function takeTurn(ctx: AppContext, ticketId: number, messageId: number): Promise<Date | null> {
  const recent = new Date(Date.now() - RECENT_MS);
  const result = await ctx.db.execute<{ until: string }>(sql`
    UPDATE ticket_turns SET leased_until = ${leaseEnd}
    WHERE ticket_id = ${ticketId}
      AND (leased_until IS NULL OR leased_until < now())
      AND NOT EXISTS (
        SELECT 1 FROM messages m
        WHERE m.ticket_id = ${ticketId} AND NOT m.from_me AND m.id < ${messageId}
          AND m.id > coalesce(ticket_turns.last_message_id, 0) AND m.created_at > ${recent}
      )
    RETURNING leased_until AS until`);
  const row = result.rows[0];
  return row ? new Date(row.until) : null;
}

async function renewLease(ctx: AppContext, ticketId: number, mine: Date): Promise<Date | null> {
  const [row] = await ctx.db
    .update(ticketTurns)
    .set({ leasedUntil: leaseEnd })
    .where(and(eq(ticketTurns.ticketId, ticketId), eq(ticketTurns.leasedUntil, mine)))
    .returning({ until: ticketTurns.leasedUntil });
  return row?.until ?? null;
}

/** Marks the message done and frees the lease if this message still holds it. */
async function endTurn(ctx: AppContext, ticketId: number, messageId: number, mine: Date | null): Promise<void> {
  await ctx.db
    .update(ticketTurns)
    .set({
      lastMessageId: sql`GREATEST(coalesce(${ticketTurns.lastMessageId}, 0), ${messageId})`,
      leasedUntil: mine ? sql`CASE WHEN ${ticketTurns.leasedUntil} = ${mine} THEN NULL ELSE ${ticketTurns.leasedUntil} END` : sql`${ticketTurns.leasedUntil}`,
    })
    .where(eq(ticketTurns.ticketId, ticketId));
}
