import { z } from 'zod';

/** `GET /healthz`: the process answers (no dependency is checked). */
export const healthSchema = z.object({ status: z.literal('ok') });

export const readinessCheckNames = ['draining', 'database', 'jobs', 'redis'] as const;
export type ReadinessCheckName = (typeof readinessCheckNames)[number];

/** `GET /readyz`: 200 when every check is `ok` (or `skipped`), else 503 with the failing checks named. */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.record(z.enum(readinessCheckNames), z.enum(['ok', 'fail', 'skipped'])),
  failing: z.array(z.enum(readinessCheckNames)),
});
export type Readiness = z.infer<typeof readinessSchema>;
