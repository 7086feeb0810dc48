// BENCH_BURSTS=1 of bench/messages-api.ts: what the server was doing in the half-seconds whose requests were slow.
// The tail of an open-loop run comes from bursts (a queue that builds while something else holds the CPU or the
// pool); this lines up, per window, the p95 of the requests started in it with the server process's GC pauses and
// event-loop lag, the pool's waiting queries, and PostgreSQL's autovacuum / autoanalyze workers then running.
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import type pg from 'pg';

const WINDOW_MS = 500;
const SAMPLE_MS = 20;
/** Windows listed at most (the slowest; a saturated run is slow in every window and says nothing more per line). */
const LISTED = 15;

interface Window {
  gcMs: number;
  maxWaiting: number;
  lagMs: number;
  vacuum: Set<string>;
}

export interface Bursts {
  /** Stops sampling; prints the windows whose p95 passed `slowMs`, and the run's totals. */
  report(timeline: [number, number][], slowMs: number): void;
}

/** Starts sampling the server process (GC, event loop, `pool`) and PostgreSQL's autovacuum workers (through `monitor`). */
export function watchBursts(pool: pg.Pool, monitor: pg.Pool): Bursts {
  const windows = new Map<number, Window>();
  const at = (epochMs: number) => {
    const key = Math.floor(epochMs / WINDOW_MS);
    let w = windows.get(key);
    if (!w) windows.set(key, (w = { gcMs: 0, maxWaiting: 0, lagMs: 0, vacuum: new Set() }));
    return w;
  };
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) at(performance.timeOrigin + entry.startTime).gcMs += entry.duration;
  });
  gc.observe({ entryTypes: ['gc'] });
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let sampling = false;
  const timer = setInterval(() => {
    const w = at(Date.now());
    w.maxWaiting = Math.max(w.maxWaiting, pool.waitingCount);
    w.lagMs = Math.max(w.lagMs, lag.max / 1e6);
    lag.reset();
    if (sampling) return;
    sampling = true;
    monitor
      .query<{ query: string }>(`select query from pg_stat_activity where backend_type = 'autovacuum worker' and query <> ''`)
      .then(({ rows }) => rows.forEach((r) => w.vacuum.add(r.query.replace(/^autovacuum: /, ''))))
      .catch(() => undefined)
      .finally(() => (sampling = false));
  }, SAMPLE_MS);

  return {
    report(timeline, slowMs) {
      clearInterval(timer);
      gc.disconnect();
      lag.disable();
      const started = new Map<number, number[]>();
      for (const [start, ms] of timeline) {
        const key = Math.floor(start / WINDOW_MS);
        started.set(key, [...(started.get(key) ?? []), ms]);
      }
      const keys = [...started.keys()].sort((a, b) => a - b);
      const first = keys[0] ?? 0;
      let slow = 0;
      let gcTotal = 0;
      const lines: { p95: number; line: string }[] = [];
      for (const key of keys) {
        const times = started.get(key)!.sort((a, b) => a - b);
        const p95 = times[Math.min(times.length - 1, Math.floor(0.95 * times.length))]!;
        const w = windows.get(key) ?? { gcMs: 0, maxWaiting: 0, lagMs: 0, vacuum: new Set<string>() };
        gcTotal += w.gcMs;
        if (p95 <= slowMs) continue;
        slow += 1;
        const vacuum = w.vacuum.size ? `, autovacuum: ${[...w.vacuum].join('; ')}` : '';
        lines.push({
          p95,
          line: `  +${(((key - first) * WINDOW_MS) / 1000).toFixed(1)} s: ${times.length} started, p95 ${p95.toFixed(0)} ms; GC ${w.gcMs.toFixed(0)} ms, loop lag ≤ ${w.lagMs.toFixed(0)} ms, pool waiting ≤ ${w.maxWaiting}${vacuum}`,
        });
      }
      console.log(`bursts: ${slow} of ${keys.length} half-seconds with p95 > ${slowMs} ms; GC ${gcTotal.toFixed(0)} ms in all`);
      const listed = new Set([...lines].sort((a, b) => b.p95 - a.p95).slice(0, LISTED));
      for (const entry of lines) if (listed.has(entry)) console.log(entry.line);
    },
  };
}
