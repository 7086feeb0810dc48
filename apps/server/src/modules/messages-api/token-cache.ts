import type { PlanFlag } from '@balcao/contracts';
import { eq } from 'drizzle-orm';
import { companies, plans, whatsapps } from '../../db/schema/index.js';
import type { AppContext } from '../../http/context.js';

type Connection = typeof whatsapps.$inferSelect;
export interface TokenEntry {
  connection: Connection;
  planAllows: boolean;
}

/**
 * Bounds how stale an entry can be when the change happened on another API node (the
 * event bus is per process): a revoked token or a plan without the API stops working
 * within this time there, at once on the node that made the change.
 */
const TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;
const FLAG: PlanFlag = 'useExternalApi';

/**
 * token → connection and the plan flag, so a call costs no look-up round trip. Dropped when
 * a connection of the company changes or goes (`whatsapp` records) and, wholesale, when a plan
 * or company changes (rare, and the company of a plan is not at hand).
 */
export class TokenCache {
  private readonly entries = new Map<string, TokenEntry & { at: number }>();

  constructor(private readonly ctx: AppContext) {
    ctx.events.subscribe((event) => {
      if (event.type === 'company.record' && event.name === 'whatsapp') this.dropCompany(event.companyId);
      else if (event.type === 'super.record') this.entries.clear();
    });
  }

  /** The connection of `token` and whether its company's plan has the API; undefined for an unknown token (not cached). */
  async get(token: string): Promise<TokenEntry | undefined> {
    const hit = this.entries.get(token);
    if (hit && Date.now() - hit.at < TTL_MS) return hit;
    const [row] = await this.ctx.db
      .select({ connection: whatsapps, planAllows: plans[FLAG] })
      .from(whatsapps)
      .leftJoin(companies, eq(companies.id, whatsapps.companyId))
      .leftJoin(plans, eq(plans.id, companies.planId))
      .where(eq(whatsapps.token, token));
    if (!row) {
      this.entries.delete(token);
      return undefined;
    }
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    const entry = { connection: row.connection, planAllows: row.planAllows === true, at: Date.now() };
    this.entries.set(token, entry);
    return entry;
  }

  private dropCompany(companyId: number): void {
    for (const [token, entry] of this.entries) if (entry.connection.companyId === companyId) this.entries.delete(token);
  }
}
