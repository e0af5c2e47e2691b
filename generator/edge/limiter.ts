/**
 * The rate limit (CONTRACT "Rate limit") behind a small interface, so a deployment that needs one global
 * count can plug in a shared store. The default is an exact sliding window in memory: one server, or one
 * edge isolate.
 */

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

/**
 * Sliding log: each address keeps the times of its counted requests in a ring of `limit` slots, so memory
 * per address is fixed and the whole is bounded by `maxKeys`. The Map's insertion order doubles as an
 * idle order (an address is re-inserted on each hit), so eviction is O(1).
 */
export interface MemoryLimiter extends RateLimiter {
  hit(key: string, now: number): RateLimitDecision;
  /** Addresses remembered now. */
  size(): number;
}

export function createMemoryLimiter(options: MemoryLimiterOptions = {}): MemoryLimiter {
  const limit = options.limit ?? 100;
  const windowMs = options.windowMs ?? 60_000;
  const maxKeys = options.maxKeys ?? 50_000;
  const windows = new Map<string, { times: Float64Array; start: number; count: number }>();

  /** Forgets idle addresses at the idle end of the Map, and the longest-idle ones while over the cap. */
  const sweep = (now: number) => {
    for (const [key, entry] of windows) {
      const newest = entry.times[(entry.start + entry.count - 1 + limit) % limit]!;
      const isActive = entry.count > 0 && newest > now - windowMs;
      if (isActive && windows.size <= maxKeys) break;
      windows.delete(key);
    }
  };

  return {
    limit,
    windowSeconds: windowMs / 1000,
    size: () => windows.size,
    hit(key, now) {
      let entry = windows.get(key);
      if (entry) windows.delete(key);
      else entry = { times: new Float64Array(limit), start: 0, count: 0 };
      windows.set(key, entry);
      // Drop the times that have slid out of the window.
      while (entry.count > 0 && entry.times[entry.start]! <= now - windowMs) {
        entry.start = (entry.start + 1) % limit;
        entry.count--;
      }
      const oldestExpiry = () => Math.max(1, Math.ceil((entry.times[entry.start]! + windowMs - now) / 1000));
      if (entry.count >= limit) {
        return { allowed: false, limit, remaining: 0, retryAfter: oldestExpiry() };
      }
      entry.times[(entry.start + entry.count) % limit] = now;
      entry.count++;
      sweep(now);
      const remaining = limit - entry.count;
      return { allowed: true, limit, remaining, retryAfter: remaining > 0 ? 0 : oldestExpiry() };
    },
  };
}
