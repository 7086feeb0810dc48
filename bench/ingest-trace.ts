// Where the steady phase's latency goes (BENCH_TRACE=1 in bench/ingest.ts): the pipeline's per-phase
// timestamps (`balcao:ingest` diagnostics channel of modules/conversations/ingest.ts), the event-loop
// delay, GC pauses and the pool's waiting queue, over the steady phase only.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type pg from 'pg';
import { PriorityPool } from '../apps/server/src/db/priority-pool.js';
import { ingestTrace, type IngestPhase, type IngestTrace } from '../apps/server/src/modules/conversations/ingest.js';

const PHASES: IngestPhase[] = ['received', 'stored', 'lane', 'committed', 'announced'];
const POOL_SAMPLE_MS = 5;

/** The message id of a one-message webhook body (the bench posts only those). */
const midOf = (payload: unknown) => (payload as { entry: { messaging: { message: { mid: string } }[] }[] }).entry[0]!.messaging[0]!.message.mid;

const q = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '–');

export function startIngestTrace(pool: pg.Pool) {
  const seen = new Map<string, Partial<Record<IngestPhase, number>>>();
  const onTrace = (m: unknown) => {
    const { phase, at, payloads } = m as IngestTrace;
    for (const p of payloads) {
      const mid = midOf(p);
      const row = seen.get(mid) ?? {};
      row[phase] ??= at;
      seen.set(mid, row);
    }
  };
  subscribe(ingestTrace.name, onTrace);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const gc: number[] = [];
  const gcObserver = new PerformanceObserver((list) => list.getEntries().forEach((e) => gc.push(e.duration)));
  let poolSamples = 0;
  let poolWaiting = 0;
  let poolMaxWaiting = 0;
  let backgroundWaiting = 0;
  let backgroundMaxWaiting = 0;
  /** Foreground waiters (all of them on a plain pool) and background ones. */
  const queued = () => (pool instanceof PriorityPool ? pool.queued() : { foreground: pool.waitingCount, background: 0 });
  let sampler: NodeJS.Timeout | undefined;
  // Statements run through pool.query (everything but transactions), by their first words: count and time incl. the pool wait.
  const statements = new Map<string, { n: number; ms: number }>();
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  const timedQuery = (...args: unknown[]) => {
    const text = typeof args[0] === 'string' ? args[0] : ((args[0] as { text?: string }).text ?? '?');
    const label = text.replace(/\s+/g, ' ').slice(0, 70);
    const started = performance.now();
    return query(...args).finally(() => {
      const s = statements.get(label) ?? { n: 0, ms: 0 };
      s.n++;
      s.ms += performance.now() - started;
      statements.set(label, s);
    });
  };

  return {
    /** From here on, event-loop delay, GC and the pool are counted. */
    steadyStart() {
      loop.enable();
      gcObserver.observe({ entryTypes: ['gc'] });
      (pool as { query: unknown }).query = timedQuery;
      sampler = setInterval(() => {
        poolSamples++;
        const { foreground, background } = queued();
        if (foreground > 0) poolWaiting++;
        if (background > 0) backgroundWaiting++;
        poolMaxWaiting = Math.max(poolMaxWaiting, foreground);
        backgroundMaxWaiting = Math.max(backgroundMaxWaiting, background);
      }, POOL_SAMPLE_MS);
    },
    steadyEnd() {
      loop.disable();
      gcObserver.disconnect();
      clearInterval(sampler);
      (pool as { query: unknown }).query = query;
    },
    /** Where the burst's acknowledgements went: post → received by the route → stored → 200 at the client, p50 / p99. */
    ackReport(mids: string[], sentAt: Map<string, number>, ackedAt: Map<string, number>, clientOrigin: number): string {
      const cols: number[][] = [[], [], []];
      for (const mid of mids) {
        const t = seen.get(mid);
        const sent = sentAt.get(mid);
        const acked = ackedAt.get(mid);
        if (t?.received === undefined || t.stored === undefined || sent === undefined || acked === undefined) continue;
        const points = [clientOrigin + sent, t.received, t.stored, clientOrigin + acked];
        points.slice(1).forEach((v, i) => cols[i]!.push(v - points[i]!));
      }
      const line = (name: string, col: number[]) => {
        col.sort((a, b) => a - b);
        return `  ${name.padEnd(20)} p50 ${ms(q(col, 0.5)).padStart(7)}  p99 ${ms(q(col, 0.99)).padStart(7)} ms`;
      };
      return [`burst acknowledgements, per step (${cols[0]!.length} traced):`, line('post → received', cols[0]!), line('received → stored', cols[1]!), line('stored → 200', cols[2]!)].join('\n');
    },
    /** The steady phase's messages: each step's p50/p99, and the mean of each step over the slowest 1 %. */
    report(mids: string[], sentAt: Map<string, number>, firstSeenAt: Map<string, number>, clientOrigin: number): string {
      unsubscribe(ingestTrace.name, onTrace);
      const steps = ['post → received', ...PHASES.slice(1).map((p, i) => `${PHASES[i]} → ${p}`), 'announced → first socket'];
      const rows = mids.flatMap((mid) => {
        const t = seen.get(mid);
        const sent = sentAt.get(mid);
        const first = firstSeenAt.get(mid);
        if (!t || sent === undefined || first === undefined || PHASES.some((p) => t[p] === undefined)) return [];
        const points = [clientOrigin + sent, ...PHASES.map((p) => t[p]!), clientOrigin + first];
        return [{ total: points.at(-1)! - points[0]!, steps: points.slice(1).map((v, i) => v - points[i]!) }];
      });
      rows.sort((a, b) => a.total - b.total);
      const tail = rows.slice(Math.floor(rows.length * 0.99));
      const lines = steps.map((name, i) => {
        const col = rows.map((r) => r.steps[i]!).sort((a, b) => a - b);
        const tailMean = tail.reduce((s, r) => s + r.steps[i]!, 0) / Math.max(tail.length, 1);
        return `  ${name.padEnd(26)} p50 ${ms(q(col, 0.5)).padStart(7)}  p99 ${ms(q(col, 0.99)).padStart(7)}  slowest 1 %: ${ms(tailMean).padStart(7)} ms`;
      });
      const gcSorted = [...gc].sort((a, b) => a - b);
      return [
        `steady phase, per step (${rows.length} traced messages, all times ms):`,
        ...lines,
        `  total                      p50 ${ms(q(rows.map((r) => r.total), 0.5))}  p99 ${ms(q(rows.map((r) => r.total), 0.99))}`,
        `event-loop delay: p50 ${ms(loop.percentile(50) / 1e6)}, p99 ${ms(loop.percentile(99) / 1e6)}, max ${ms(loop.max / 1e6)} ms`,
        `GC: ${gc.length} pauses, ${ms(gc.reduce((s, d) => s + d, 0))} ms in all, longest ${ms(gcSorted.at(-1) ?? 0)} ms`,
        `statements through pool.query (count, total ms incl. pool wait, mean):`,
        ...[...statements]
          .sort((a, b) => b[1].ms - a[1].ms)
          .slice(0, 12)
          .map(([label, { n, ms: t }]) => `  ${String(n).padStart(5)} ${ms(t).padStart(9)} ${ms(t / n).padStart(7)}  ${label}`),
        `pool, ${poolSamples} samples: foreground statements waiting in ${((100 * poolWaiting) / Math.max(poolSamples, 1)).toFixed(1)} % (at most ${poolMaxWaiting}), background in ${((100 * backgroundWaiting) / Math.max(poolSamples, 1)).toFixed(1)} % (at most ${backgroundMaxWaiting})`,
      ].join('\n');
    },
  };
}
