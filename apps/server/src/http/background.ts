import type { FastifyBaseLogger } from 'fastify';
import { asBackground } from '../db/priority-pool.js';

/**
 * Work started without waiting for it (a send right after storing the row,
 * connection behaviours, follow-up events). Closing the app drains it first, so
 * nothing runs against a closed pool; a failure is logged, never unhandled. When
 * connections are short, its statements wait behind everything else's (db/priority-pool.ts).
 */
export class BackgroundTasks {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  run(label: string, task: () => Promise<unknown>): void {
    const done: Promise<void> = asBackground(task)
      .then(() => undefined)
      .catch((err: unknown) => this.log.warn({ err }, `${label} failed`))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
