import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';
import type { DomainEvent, TxFact } from './types.js';

export type EventHandler = (event: DomainEvent) => Promise<void> | void;
/** Runs inside the transaction of the change; throwing rolls it back. */
export type TxHandler = (tx: DbOrTx, facts: TxFact[]) => Promise<void>;
/** Whether a TxHandler would write anything for a fact of this type and company (from memory). */
export type TxInterest = (type: TxFact['type'], companyId: number) => Promise<boolean>;
/** How to present an event once its transaction has committed; `fact`: what it announces, known in the transaction. */
export type LazyEvent = (() => Promise<DomainEvent | undefined>) & { fact?: TxFact };
/** An event, or how to present it once its transaction has committed. */
export type PendingEvent = DomainEvent | LazyEvent;

/** The fact of an event presented in the transaction. */
function factOf(event: DomainEvent): TxFact | undefined {
  switch (event.type) {
    case 'message.created':
      return { type: 'message.created', messageIds: [event.message.id] };
    case 'ticket.updated':
      return event.previous?.status ? { type: 'ticket.status', changes: [{ ticketId: event.ticket.id, previousStatus: event.previous.status }] } : undefined;
    case 'contact.saved':
      return event.action === 'create' ? { type: 'contact.created', contactIds: [event.contact.id] } : undefined;
    case 'campaign.finished':
      return { type: 'campaign.finished', campaignIds: [event.campaign.id] };
    default:
      return undefined;
  }
}

/**
 * The after-commit event bus: commands publish what they changed once it is committed
 * (or collect it inside a transaction with `inTransaction`), subscribers turn it into
 * socket emits and the like. A subscriber's failure is logged; it never fails the command.
 */
export class EventBus {
  private readonly handlers: EventHandler[] = [];
  private readonly txHandlers: TxHandler[] = [];
  private readonly txInterests: (TxInterest | undefined)[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  subscribe(handler: EventHandler): void {
    this.handlers.push(handler);
  }

  /**
   * `handler` runs in every transaction that records facts (an outbox); it must stay set-based and cheap.
   * `interest`: which facts it writes for; without it, every fact counts as wanted.
   */
  subscribeInTransaction(handler: TxHandler, interest?: TxInterest): void {
    this.txHandlers.push(handler);
    this.txInterests.push(interest);
  }

  /** Whether recording a fact of this type and company would write anything: a writer of one statement needs no transaction when not. */
  async wantsInTransaction(type: TxFact['type'], companyId: number): Promise<boolean> {
    for (const interest of this.txInterests) if (!interest || (await interest(type, companyId))) return true;
    return false;
  }

  /** Hands `facts` to the in-transaction subscribers, in `tx` (for writers that commit outside `inTransaction`). */
  async record(tx: DbOrTx, ...facts: TxFact[]): Promise<void> {
    if (facts.length === 0) return;
    for (const handler of this.txHandlers) await handler(tx, facts);
  }

  /** Hands committed events to every subscriber, in order. */
  async publish(...events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      for (const handler of this.handlers) {
        try {
          await handler(event);
        } catch (err) {
          this.log.warn({ err, event: event.type }, 'event subscriber failed');
        }
      }
    }
  }

  /**
   * Runs `work` in one transaction; the events it publishes reach subscribers only
   * after the commit, and never when it rolls back. An event may be given as a function
   * that presents it: it runs after the commit, on the pool (the transaction holds no
   * lock while the rows are presented, and sees what was committed). The events' facts reach
   * the in-transaction subscribers before the commit.
   */
  async inTransaction<T>(db: Db, work: (tx: DbOrTx, publish: (event: PendingEvent) => void) => Promise<T>): Promise<T> {
    const events: PendingEvent[] = [];
    const result = await db.transaction(async (tx) => {
      const out = await work(tx, (event) => events.push(event));
      const facts = events.map((e) => (typeof e === 'function' ? e.fact : factOf(e))).filter((f): f is TxFact => f !== undefined);
      await this.record(tx, ...facts);
      return out;
    });
    for (const pending of events) {
      const event = await this.present(pending);
      if (event) await this.publish(event);
    }
    return result;
  }

  private async present(pending: PendingEvent): Promise<DomainEvent | undefined> {
    if (typeof pending !== 'function') return pending;
    try {
      return await pending();
    } catch (err) {
      this.log.warn({ err }, 'presenting a committed event failed');
      return undefined;
    }
  }
}
