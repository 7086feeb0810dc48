/** Counts events per key in fixed windows, in this process's memory. */
class WindowCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  /** Seconds until `key` may try again, or undefined while under the limit. */
  retryAfter(key: string, now: number): number | undefined {
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now || w.count < this.max) return undefined;
    return Math.max(1, Math.ceil((w.resetAt - now) / 1000));
  }

  add(key: string, now: number): void {
    const w = this.windows.get(key);
    if (w && w.resetAt > now) w.count += 1;
    else this.windows.set(key, { count: 1, resetAt: now + this.windowMs });
    if (this.windows.size > 10_000) this.prune(now);
  }

  clear(key: string): void {
    this.windows.delete(key);
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}

export interface LoginLimitConfig {
  /** Attempts per client address per minute, whatever the e-mail or outcome. */
  perIpPerMinute: number;
  /** Failed attempts per e-mail from one client address per minute. */
  perEmailPerMinute: number;
  /** Failed attempts per e-mail from all addresses per hour: the slow cap against distributed guessing. */
  perAccountPerHour: number;
}

/**
 * Login throttling. Only failures count against an e-mail, and per source address: someone
 * guessing from one address cannot lock the owner out from another, and correct passwords
 * never count. The per-account cap is far slower, so a botnet gets few guesses per hour.
 */
export class LoginLimits {
  private readonly perIp: WindowCounter;
  private readonly perEmailIp: WindowCounter;
  private readonly perAccount: WindowCounter;

  constructor(config: LoginLimitConfig) {
    this.perIp = new WindowCounter(config.perIpPerMinute, 60_000);
    this.perEmailIp = new WindowCounter(config.perEmailPerMinute, 60_000);
    this.perAccount = new WindowCounter(config.perAccountPerHour, 3_600_000);
  }

  /** Counts the attempt against its address; the seconds to wait when any limit is reached, before any password hashing. */
  attempt(ip: string, email: string, now = Date.now()): number | undefined {
    const waits = [this.perIp.retryAfter(ip, now), this.perEmailIp.retryAfter(`${email}\n${ip}`, now), this.perAccount.retryAfter(email, now)];
    this.perIp.add(ip, now);
    const blocked = waits.filter((s): s is number => s !== undefined);
    return blocked.length ? Math.max(...blocked) : undefined;
  }

  failed(ip: string, email: string, now = Date.now()): void {
    this.perEmailIp.add(`${email}\n${ip}`, now);
    this.perAccount.add(email, now);
  }

  succeeded(ip: string, email: string): void {
    this.perEmailIp.clear(`${email}\n${ip}`);
  }
}
