import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** The connections a background task of this async context holds (its statements and transactions). */
interface BackgroundScope {
  held: number;
}
const background = new AsyncLocalStorage<BackgroundScope>();

/**
 * Runs work started without waiting for it (connection behaviours, follow-up sends) as background
 * for the pool: when connections are short, everything else is served first. Measured before: ~8
 * behaviour statements per inbound message queued 200+ deep in front of the webhook
 * acknowledgements and the inbound lanes, every statement of the pipeline waiting ~60 ms.
 */
export function asBackground<T>(task: () => Promise<T>): Promise<T> {
  return background.run({ held: 0 }, task);
}

/** Work that must keep the foreground's place even when a background task set it going (the inbound lanes). */
export function asForeground<T>(work: () => T): T {
  return background.exit(work);
}

/**
 * A pool that hands out its `max` connections by priority: a free connection goes to the oldest
 * foreground waiter, and to background work when no foreground statement waits, or while
 * background holds less than its reserved half (so a flood of requests never starves it). A
 * background task that already holds a connection (a statement beside its open transaction)
 * is served at once, as before, so the priority never deadlocks it.
 */
export class PriorityPool extends pg.Pool {
  private readonly slots: number;
  /** Connections background work may always have (when it asks for them). */
  private readonly reserved: number;
  private busy = 0;
  private backgroundBusy = 0;
  private readonly waiting = { foreground: [] as (() => void)[], background: [] as (() => void)[] };

  constructor(config: pg.PoolConfig & { max: number }) {
    super(config);
    this.slots = config.max;
    this.reserved = Math.floor(config.max / 2);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: Error | boolean) => void) => void): Promise<pg.PoolClient> | void {
    const scope = background.getStore();
    const granted = this.take(scope)
      .then(() => super.connect())
      .then(
        (client) => {
          if (scope) scope.held++;
          const release = client.release;
          let released = false;
          client.release = (err?: Error | boolean) => {
            if (!released) {
              released = true;
              if (scope) scope.held--;
              this.give(scope !== undefined);
            }
            return release.call(client, err);
          };
          return client;
        },
        (err: unknown) => {
          this.give(scope !== undefined);
          throw err;
        },
      );
    if (!callback) return granted;
    granted.then(
      (client) => callback(undefined, client, client.release),
      (err: Error) => callback(err, undefined, () => undefined),
    );
  }

  /** Statements waiting for a connection here, by priority (pg-pool's own `waitingCount` stays ~0). */
  queued(): { foreground: number; background: number } {
    return { foreground: this.waiting.foreground.length, background: this.waiting.background.length };
  }

  private take(scope: BackgroundScope | undefined): Promise<void> {
    if (this.busy < this.slots || (scope && scope.held > 0)) {
      this.grant(scope !== undefined);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting[scope ? 'background' : 'foreground'].push(resolve));
  }

  private grant(toBackground: boolean): void {
    this.busy++;
    if (toBackground) this.backgroundBusy++;
  }

  /** A connection is back: to background while it holds less than its reserve, else to the oldest foreground waiter, else background. */
  private give(fromBackground: boolean): void {
    this.busy--;
    if (fromBackground) this.backgroundBusy--;
    if (this.busy >= this.slots) return;
    const toBackground = this.waiting.background.length > 0 && (this.backgroundBusy < this.reserved || this.waiting.foreground.length === 0);
    const next = toBackground ? this.waiting.background.shift() : this.waiting.foreground.shift();
    if (next) {
      this.grant(toBackground);
      next();
    }
  }
}
