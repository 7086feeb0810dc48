import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ticketTurns, tickets } from '../../../db/schema/index.js';
import type { AppContext } from '../../../http/context.js';
import { preparedPerDb, rowOf, runPrepared, selected } from '../commands/prepared.js';
import type { TicketRow } from '../../tickets/presenter.js';
import type { InboundContext } from './inbound.js';

/** A turn is held this long, renewed every third of it while the behaviours run; a crashed node's runs out. */
const LEASE_MS = 30_000;
/** The longest a message waits for its turn; after that its behaviours run anyway (logged). */
const WAIT_MS = 120_000;
/** An earlier message of the ticket stored longer ago than this is not waited for (its node may have died). */
export const RECENT_MS = 30_000;
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
  const local = afterLocalTurn(ctx, ticketId, messageId);
  try {
    await local.ready;
    const taken = await waitForTurn(ctx, ticketId, messageId);
    let mine = taken?.until ?? null;
    const renew = setInterval(() => {
      if (mine) void renewLease(ctx, ticketId, mine).then((until) => (mine = until), () => undefined);
    }, LEASE_MS / 3);
    try {
      const fresh = taken ? taken.ticket : (await freshTicket(ctx.db).execute({ ticketId }))[0];
      await run({ ...c, ticket: fresh ?? c.ticket });
    } finally {
      clearInterval(renew);
      await endTurn(ctx, ticketId, messageId, mine);
    }
  } finally {
    local.done();
  }
}

/** Per node and ticket, the messages whose turn has not ended yet (each settles when its turn ends). */
const localTurns = new WeakMap<AppContext, Map<number, Map<number, Promise<void>>>>();

/**
 * On one node, a ticket's message first waits for the earlier messages (smaller ids) of that ticket
 * running here, so they do not poll the lease against each other — a poll is a statement. The lease
 * still orders them across nodes; a message waits WAIT_MS at most here too.
 */
function afterLocalTurn(ctx: AppContext, ticketId: number, messageId: number): { ready: Promise<void>; done: () => void } {
  let tickets = localTurns.get(ctx);
  if (!tickets) localTurns.set(ctx, (tickets = new Map()));
  let running = tickets.get(ticketId);
  if (!running) tickets.set(ticketId, (running = new Map()));
  const earlier = [...running].flatMap(([id, turn]) => (id < messageId ? [turn] : []));
  let done!: () => void;
  running.set(messageId, new Promise<void>((resolve) => (done = resolve)));
  const ready = earlier.length
    ? new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WAIT_MS);
        void Promise.all(earlier).then(() => {
          clearTimeout(timer);
          resolve();
        });
      })
    : Promise.resolve();
  return {
    ready,
    done: () => {
      done();
      running.delete(messageId);
      if (running.size === 0 && tickets.get(ticketId) === running) tickets.delete(ticketId);
    },
  };
}

/** The ticket as the previous message's behaviours left it, when the turn was not taken (the take reads it otherwise). */
const freshTicket = preparedPerDb((db) => db.select().from(tickets).where(eq(tickets.id, sql.placeholder('ticketId'))).prepare('behaviours_turn_ticket'));

/** The lease's end and the ticket once this message holds the turn; null when it waited WAIT_MS in vain. */
async function waitForTurn(ctx: AppContext, ticketId: number, messageId: number): Promise<Taken | null> {
  const deadline = Date.now() + WAIT_MS;
  for (let pause = FIRST_POLL_MS; Date.now() < deadline; pause = Math.min(MAX_POLL_MS, Math.ceil(pause * 1.5))) {
    const taken = await takeTurn(ctx, ticketId, messageId);
    if (taken) return taken;
    await sleep(pause);
  }
  ctx.log.warn({ ticketId, messageId }, 'connection behaviours ran without their turn: the ticket stayed busy');
  return null;
}

/** No earlier customer message of the ticket, stored in the last RECENT_MS, still waits for its own behaviours (after `done`). */
const noEarlierWaiting = (done: ReturnType<typeof sql>) => sql`NOT EXISTS (
  SELECT 1 FROM messages m
  WHERE m.ticket_id = ${sql.placeholder('ticketId')}::int AND NOT m.from_me AND m.id < ${sql.placeholder('messageId')}::int
    AND m.id > ${done} AND m.created_at > ${sql.placeholder('recent')}::timestamptz
)`;

const ticketColumns = Object.entries(getTableColumns(tickets));

/**
 * Takes the lease when it is free (or ran out) and no earlier customer message waits, and reads the
 * ticket: ONE statement that also creates the ticket's turn row (the first message of a ticket takes
 * its turn in it). The ticket is read in the statement's snapshot, so the turn row taken must be the
 * version that snapshot saw (`xmin`): a turn ended meanwhile may have changed the ticket after the
 * snapshot; then nothing is taken and the next poll takes it. Compiled once, run as a named prepared
 * statement: it runs for every customer message that takes a turn.
 */
const takeTurnQuery = new PgDialect().sqlToQuery(sql`
  WITH taken AS (
    INSERT INTO ticket_turns (ticket_id, leased_until)
    -- A ticket's turn row exists from its first message on: then the conflict's WHERE decides.
    SELECT ${sql.placeholder('ticketId')}::int, ${leaseEnd}
    WHERE EXISTS (SELECT 1 FROM ticket_turns WHERE ticket_id = ${sql.placeholder('ticketId')}::int) OR ${noEarlierWaiting(sql`0`)}
    ON CONFLICT (ticket_id) DO UPDATE SET leased_until = ${leaseEnd}
    WHERE (ticket_turns.leased_until IS NULL OR ticket_turns.leased_until < now())
      AND ticket_turns.xmin = (SELECT o.xmin FROM ticket_turns o WHERE o.ticket_id = ${sql.placeholder('ticketId')}::int)
      AND ${noEarlierWaiting(sql`coalesce(ticket_turns.last_message_id, 0)`)}
    RETURNING leased_until
  )
  SELECT taken.leased_until, ${sql.raw(selected('t', ticketColumns))}
  FROM taken JOIN tickets t ON t.id = ${sql.placeholder('ticketId')}::int`);

interface Taken {
  until: Date;
  ticket: TicketRow;
}

async function takeTurn(ctx: AppContext, ticketId: number, messageId: number): Promise<Taken | null> {
  const recent = new Date(Date.now() - RECENT_MS).toISOString();
  const [row] = await runPrepared(ctx, 'behaviours_take_turn_ticket', takeTurnQuery, { ticketId, messageId, recent });
  return row ? { until: new Date(row[0] as string), ticket: rowOf<TicketRow>(ticketColumns, row, 1) } : null;
}

async function renewLease(ctx: AppContext, ticketId: number, mine: Date): Promise<Date | null> {
  const [row] = await ctx.db
    .update(ticketTurns)
    .set({ leasedUntil: leaseEnd })
    .where(and(eq(ticketTurns.ticketId, ticketId), eq(ticketTurns.leasedUntil, mine)))
    .returning({ until: ticketTurns.leasedUntil });
  return row?.until ?? null;
}

/** Marks the message done and frees the lease if this message still holds it (`mine` null: it never held it). */
const endTurnQuery = new PgDialect().sqlToQuery(sql`
  UPDATE ticket_turns SET last_message_id = GREATEST(coalesce(last_message_id, 0), ${sql.placeholder('messageId')}::int),
    leased_until = CASE WHEN leased_until = ${sql.placeholder('mine')}::timestamptz THEN NULL ELSE leased_until END
  WHERE ticket_id = ${sql.placeholder('ticketId')}::int`);

async function endTurn(ctx: AppContext, ticketId: number, messageId: number, mine: Date | null): Promise<void> {
  await runPrepared(ctx, 'behaviours_end_turn', endTurnQuery, { ticketId, messageId, mine: mine?.toISOString() ?? null });
}
