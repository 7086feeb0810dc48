import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client.js';
import type { DomainEvent } from './types.js';

export type EventHandler = (event: DomainEvent) => Promise<void> | void;
/** An event, or how to present it once its transaction has committed. */
export type PendingEvent = DomainEvent | (() => Promise<DomainEvent | undefined>);

/**
 * The after-commit event bus: commands publish what they changed once it is committed
 * (or collect it inside a transaction with `inTransaction`), subscribers turn it into
 * socket emits and the like. A subscriber's failure is logged; it never fails the command.
 */
export class EventBus {
  private readonly handlers: EventHandler[] = [];

  constructor(private readonly log: FastifyBaseLogger) {}

  subscribe(handler: EventHandler): void {
    this.handlers.push(handler);
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
   * lock while the rows are presented, and sees what was committed).
   */
  async inTransaction<T>(db: Db, work: (tx: DbOrTx, publish: (event: PendingEvent) => void) => Promise<T>): Promise<T> {
    const events: PendingEvent[] = [];
    const result = await db.transaction((tx) => work(tx, (event) => events.push(event)));
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
