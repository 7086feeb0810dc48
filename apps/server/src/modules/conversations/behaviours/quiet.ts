import { sql } from 'drizzle-orm';
import type { AppContext } from '../../../http/context.js';
import type { Db } from '../../../db/client.js';
import { GroupCommit, groupCommitPerDb } from '../commands/group-commit.js';
import { runPrepared } from '../commands/prepared.js';
import { isOnVacation, isWithinHours } from './hours.js';
import type { InboundContext } from './inbound.js';
import { RECENT_MS } from './turn.js';

/**
 * Most customer messages find nothing for the connection behaviours to do: no queues to route,
 * no LGPD question, no integration, prompt, awaiting campaign, out-of-hours or greeting. Their
 * turn (take, ticket read, each step's read, end) was most of the statements per message
 * (docs/BENCHMARKS.md, beh10). Such a ticket's messages of a batch now end their turn in ONE
 * statement for the whole batch, without taking it; any ticket where a step may act takes the
 * turn as before (turn.ts), which still orders the steps that send or change things.
 */

/**
 * Whether a setting the connection row already holds (in memory, no statement) may make a step
 * act: the greeting of a new or reopened ticket, the collective vacation, the connection's
 * integration or prompt. Conservative: a step that then finds nothing to do costs a turn, never a miss.
 */
function connectionMayAct(c: InboundContext, now: Date): boolean {
  const { connection: k, found } = c;
  if ((found.created || found.reopened) && k.greetingMessage.trim()) return true;
  if (k.collectiveVacationMessage.trim() && isOnVacation(k.collectiveVacationStart, k.collectiveVacationEnd, now)) return true;
  return k.integrationId !== null || k.promptId !== null;
}

/** One ticket's messages of a batch. */
interface Candidate {
  ticket_id: number;
  whatsapp_id: number;
  /** The batch's customer messages of the ticket, and the last of them. */
  ids: number[];
  last_id: number;
  /** A connection setting may make a step act (`connectionMayAct`): the ticket takes its turn whatever the rest says. */
  eager: boolean;
  /** The connection has an out-of-hours message: closed when the company's scheduleType is `company` … */
  ooh_company: boolean;
  /** … or `connection` and its own hours are closed now. */
  ooh_connection: boolean;
}

/**
 * What the batch's read found for a ticket that takes its turn: the steps skip their own read when it
 * found nothing. Read before the turn: a campaign confirmation requested, LGPD switched on or a queue
 * added while the message waited for its turn is seen from the next message on.
 */
export interface Known {
  awaitingCampaign: boolean;
  lgpdOn: boolean;
  hasQueues: boolean;
  /** The contact's `disableBot` and the company's `botLanguage`, which the bot reads for every answer. */
  botDisabled: boolean;
  botLanguage: string | null;
}

/** No customer message of the ticket between `after` and the batch's last, outside the batch and recent, still waits for its turn. */
const noEarlierWaiting = (after: string) => `NOT EXISTS (
  SELECT 1 FROM messages m
  WHERE m.ticket_id = q.ticket_id AND NOT m.from_me AND m.id > ${after} AND m.id < q.last_id
    AND m.id <> ALL (q.ids) AND m.created_at > $2::timestamptz)`;

/**
 * The read and the quiet tickets' turn end in one statement. `f`: each ticket as it is now (not as the
 * store left it: an earlier message's behaviours may have changed it) with what the steps need to
 * decide. `q`: those where no step can act, each condition the mirror of its step in inbound.ts — the
 * rating answer and the LGPD question (statuses nps and lgpd, or LGPD on for an unattended pending
 * ticket whose contact has not accepted), an awaiting campaign confirmation of the contact,
 * out-of-hours, the ticket's integration, the queue chatbot (the connection has queues) and the
 * queue's prompt for an unattended pending ticket. Then, exactly where a turn could be taken (the
 * lease free, no earlier message of the ticket waiting), the turn row records the batch's last
 * message as done — as if each message had taken the turn, found nothing and ended it. Answers every
 * ticket: whether its turn ended here, and what the read found.
 */
const QUIET_TURNS = `
WITH f AS (
  SELECT b.ticket_id, b.last_id, b.ids, b.eager, b.ooh_company, b.ooh_connection, s.schedule_type,
    t.status, t.user_id, t.use_integration, t.integration_id, t.integration_stopped_at, t.is_group, t.company_id, t.contact_id, t.queue_id,
    coalesce(s.enable_lgpd = 'enabled' AND btrim(s.lgpd_message) <> '', false) AS lgpd_on,
    EXISTS (SELECT 1 FROM whatsapp_queues wq WHERE wq.whatsapp_id = b.whatsapp_id) AS has_queues,
    EXISTS (
      SELECT 1 FROM campaign_shipping cs JOIN campaigns cp ON cp.id = cs.campaign_id
      WHERE cs.contact_id = t.contact_id AND cs.company_id = t.company_id
        AND cs.confirmation_requested_at IS NOT NULL AND cs.confirmed_at IS NULL
        AND cp.status IN ('EM_ANDAMENTO', 'FINALIZADA')) AS awaiting,
    coalesce((SELECT c.disable_bot FROM contacts c WHERE c.id = t.contact_id), false) AS bot_disabled, s.bot_language
  FROM jsonb_to_recordset($1::jsonb) AS b(ticket_id int, whatsapp_id int, last_id int, ids int[], eager boolean, ooh_company boolean, ooh_connection boolean)
  JOIN tickets t ON t.id = b.ticket_id
  LEFT JOIN company_settings s ON s.company_id = t.company_id
), q AS (
  SELECT f.ticket_id, f.last_id, f.ids FROM f
  WHERE NOT f.eager AND NOT f.awaiting AND f.status NOT IN ('nps', 'lgpd') AND NOT f.is_group
    AND NOT (f.ooh_company AND f.schedule_type = 'company')
    AND NOT (f.ooh_connection AND f.schedule_type = 'connection')
    AND NOT (f.use_integration AND f.integration_id IS NOT NULL AND f.integration_stopped_at IS NULL)
    AND NOT (f.status = 'pending' AND f.user_id IS NULL AND (
      (f.lgpd_on AND (SELECT c.lgpd_accepted_at FROM contacts c WHERE c.id = f.contact_id) IS NULL)
      OR (NOT f.use_integration AND f.has_queues)
      OR EXISTS (SELECT 1 FROM prompts p WHERE p.company_id = f.company_id AND p.queue_id = f.queue_id)))
), ended AS (
  UPDATE ticket_turns tt SET last_message_id = GREATEST(coalesce(tt.last_message_id, 0), q.last_id)
  FROM q
  WHERE tt.ticket_id = q.ticket_id AND (tt.leased_until IS NULL OR tt.leased_until < now())
    -- The row as this statement's snapshot saw it: a turn ended meanwhile may have changed the ticket after \`f\` read it.
    AND tt.xmin = (SELECT o.xmin FROM ticket_turns o WHERE o.ticket_id = q.ticket_id)
    AND ${noEarlierWaiting('coalesce(tt.last_message_id, 0)')}
  RETURNING tt.ticket_id
), created AS (
  INSERT INTO ticket_turns (ticket_id, last_message_id)
  SELECT q.ticket_id, q.last_id FROM q
  WHERE NOT EXISTS (SELECT 1 FROM ticket_turns tt WHERE tt.ticket_id = q.ticket_id) AND ${noEarlierWaiting('0')}
  ON CONFLICT (ticket_id) DO NOTHING
  RETURNING ticket_id
)
SELECT f.ticket_id, f.ticket_id IN (SELECT ticket_id FROM ended UNION ALL SELECT ticket_id FROM created),
  f.awaiting, f.lgpd_on, f.has_queues, f.bot_disabled, f.bot_language FROM f`;
const quietTurns = { sql: QUIET_TURNS, params: [sql.placeholder('batch'), sql.placeholder('recent')] };

/** Per ticket id: whether its turn ended in the statement, and what the read found. */
type QuietRead = Map<number, { ended: boolean; known: Known }>;

/**
 * Group commit (commands/group-commit.ts, as the known customers' store): the lanes' batches handed in
 * while a read runs share the next one, so a busy node reads once per group of batches, not once per
 * batch (docs/BENCHMARKS.md, fold19). A ticket in two of them (a lane's next batch behind its previous
 * one) is read as one batch of both, in their order: what one batch of them all would have done.
 */
const grouped = groupCommitPerDb(
  (db: Db) =>
    new GroupCommit(
      async (batches: InboundContext[][][]): Promise<QuietRead[]> => {
        const byTicket = new Map<number, InboundContext[]>();
        for (const cs of batches.flat()) {
          const same = byTicket.get(cs[0]!.ticket.id);
          if (same) same.push(...cs);
          else byTicket.set(cs[0]!.ticket.id, [...cs]);
        }
        const read = await endQuietTurns({ db }, [...byTicket.values()], new Date());
        return batches.map(() => read);
      },
      // One read in flight: the behaviours trail the socket events anyway, and every batch behind it joins the next.
      { inFlight: 1, maxSize: 200, size: (tickets) => tickets.length },
    ),
);

/**
 * For `tickets` (each a batch's customer messages of one ticket, in order): ends, with the other
 * batches' waiting then, the turn of those where no step can act (`endQuietTurns`).
 */
export function readQuietTurns(ctx: Pick<AppContext, 'db'>, tickets: InboundContext[][]): Promise<QuietRead> {
  return grouped(ctx.db).run(tickets);
}

/**
 * For `tickets` (each its batch's customer messages, in order): ends, in one statement, the turn of
 * those where no step can act, and answers per ticket id whether it did, with what the read found
 * for those that take their turn (turn.ts).
 */
async function endQuietTurns(ctx: Pick<AppContext, 'db'>, tickets: InboundContext[][], now: Date): Promise<QuietRead> {
  const candidates = tickets.map((cs): Candidate => {
    const ids = cs.map((c) => c.messageId!);
    const { connection } = cs[0]!;
    const ooh = connection.outOfHoursMessage.trim() !== '';
    return {
      ticket_id: cs[0]!.ticket.id,
      whatsapp_id: connection.id,
      ids,
      last_id: Math.max(...ids),
      eager: cs.some((c) => connectionMayAct(c, now)),
      ooh_company: ooh,
      ooh_connection: ooh && !isWithinHours(connection.schedules, now),
    };
  });
  const recent = new Date(now.getTime() - RECENT_MS).toISOString();
  const rows = await runPrepared(ctx, 'behaviours_batch_read', quietTurns, { batch: JSON.stringify(candidates), recent });
  return new Map(
    rows.map(([ticketId, ended, awaitingCampaign, lgpdOn, hasQueues, botDisabled, botLanguage]) => [
      ticketId as number,
      {
        ended: ended === true,
        known: {
          awaitingCampaign: awaitingCampaign === true,
          lgpdOn: lgpdOn === true,
          hasQueues: hasQueues === true,
          botDisabled: botDisabled === true,
          botLanguage: (botLanguage as string | null) ?? null,
        },
      },
    ]),
  );
}
