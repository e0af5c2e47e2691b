/**
 * The rate limit (CONTRACT "Rate limit") behind a small interface, so a deployment that needs one global
 * count can plug in a shared store. The default is an exact sliding window in memory: one server, or one
 * edge isolate.
 */
import { RATE_LIMIT } from '../shared/policy.ts';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Seconds until a request is allowed again (0 while requests are left). */
  retryAfter: number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly windowSeconds: number;
  /** Counts a request from `key` at `now` (ms), unless it is refused: a refused request is not counted. */
  hit(key: string, now: number): RateLimitDecision | Promise<RateLimitDecision>;
}

export interface MemoryLimiterOptions {
  limit?: number;
  windowMs?: number;
  /** Most addresses remembered at once; beyond it the longest-idle address is forgotten. */
  maxKeys?: number;
}

export interface MemoryLimiter extends RateLimiter {
  hit(key: string, now: number): RateLimitDecision;
  /** Addresses remembered now. */
  size(): number;
}

/** The counted request times of one address, oldest first, from `times[start]` on. */
interface Log {
  times: number[];
  start: number;
}

/**
 * Sliding log: each address keeps the times of its counted requests in the window, at most `limit`, so
 * memory per address is bounded and the whole by `maxKeys`. The Map's insertion order doubles as an idle
 * order (an address is re-inserted on each hit), so eviction is O(1).
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): MemoryLimiter {
  const limit = options.limit ?? RATE_LIMIT.requests;
  const windowMs = options.windowMs ?? RATE_LIMIT.windowSeconds * 1000;
  const maxKeys = options.maxKeys ?? 50_000;
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`rate limit must be a whole number of requests >= 1, not ${limit}`);
  const logs = new Map<string, Log>();
  const countOf = (log: Log) => log.times.length - log.start;

  /** Forgets idle addresses at the idle end of the Map, and the longest-idle ones while over the cap. */
  const sweep = (now: number) => {
    for (const [key, log] of logs) {
      const isActive = countOf(log) > 0 && log.times[log.times.length - 1]! > now - windowMs;
      if (isActive && logs.size <= maxKeys) break;
      logs.delete(key);
    }
  };

  /** Drops the times that have slid out of the window; compacts once the dead prefix is large. */
  const slide = (log: Log, now: number) => {
    while (log.start < log.times.length && log.times[log.start]! <= now - windowMs) log.start++;
    if (log.start > 64 && log.start * 2 > log.times.length) {
      log.times = log.times.slice(log.start);
      log.start = 0;
    }
  };

  return {
    limit,
    windowSeconds: windowMs / 1000,
    size: () => logs.size,
    hit(key, now) {
      let log = logs.get(key);
      if (log) logs.delete(key);
      else log = { times: [], start: 0 };
      logs.set(key, log);
      slide(log, now);
      const oldestExpiry = () => Math.max(1, Math.ceil((log.times[log.start]! + windowMs - now) / 1000));
      if (countOf(log) >= limit) return { allowed: false, limit, remaining: 0, retryAfter: oldestExpiry() };
      log.times.push(now);
      sweep(now);
      const remaining = limit - countOf(log);
      return { allowed: true, limit, remaining, retryAfter: remaining > 0 ? 0 : oldestExpiry() };
    },
  };
}
