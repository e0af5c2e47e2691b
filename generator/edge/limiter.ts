/**
 * The rate limit (docs/api.md "Rate limit") behind a small interface, so a deployment that needs one global
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
  /**
   * What `hit` would decide, counting nothing: lets a caller refuse a client that has no requests left
   * before reading its body, and count only once it knows what the request asks for (the MCP endpoint).
   */
  peek(key: string, now: number): RateLimitDecision | Promise<RateLimitDecision>;
}

export interface MemoryLimiterOptions {
  limit?: number;
  windowMs?: number;
  /** Most clients remembered at once; beyond it the longest-idle client is forgotten. */
  maxKeys?: number;
}

export interface MemoryLimiter extends RateLimiter {
  hit(key: string, now: number): RateLimitDecision;
  peek(key: string, now: number): RateLimitDecision;
  /** Clients remembered now. */
  size(): number;
}

/** Clients remembered at most by default: about 300 bytes each while they send little, so some 30 MB at most. */
export const DEFAULT_MAX_KEYS = 100_000;

/**
 * One client: the times of its counted requests in the window, oldest first from `times[start]`, at most
 * `limit` of them; and its place in the idle order (a doubly linked list, least recently seen first).
 */
interface Client {
  key: string;
  times: number[];
  start: number;
  older: Client | null;
  newer: Client | null;
}

/** Drops the times that have slid out of the window; compacts once the dead prefix is large. */
function slide(client: Client, now: number, windowMs: number): void {
  while (client.start < client.times.length && client.times[client.start]! <= now - windowMs) client.start++;
  if (client.start > 64 && client.start * 2 > client.times.length) {
    client.times = client.times.slice(client.start);
    client.start = 0;
  }
}

/** Seconds until the oldest counted request slides out of the window. */
const oldestExpiry = (client: Client, now: number, windowMs: number) =>
  Math.max(1, Math.ceil((client.times[client.start]! + windowMs - now) / 1000));

/** The clients in the order they were last seen (a doubly linked list): O(1) to move one to the end or drop the first. */
function createIdleOrder() {
  const ends: { oldest: Client | null; newest: Client | null } = { oldest: null, newest: null };
  return {
    oldest: () => ends.oldest,
    unlink(client: Client) {
      if (client.older) client.older.newer = client.newer;
      else ends.oldest = client.newer;
      if (client.newer) client.newer.older = client.older;
      else ends.newest = client.older;
      client.older = null;
      client.newer = null;
    },
    append(client: Client) {
      client.older = ends.newest;
      if (ends.newest) ends.newest.newer = client;
      else ends.oldest = client;
      ends.newest = client;
    },
  };
}

/**
 * Sliding log per client, exact. Every operation is O(1) whatever the number of clients: the clients form a
 * list in the order they were last seen, so a hit moves one to the end and the idle ones are dropped from
 * the front, each once; nothing walks the table. Memory is bounded by `maxKeys` clients of at most `limit`
 * times each.
 */
export function createMemoryLimiter(options: MemoryLimiterOptions = {}): MemoryLimiter {
  const limit = options.limit ?? RATE_LIMIT.requests;
  const windowMs = options.windowMs ?? RATE_LIMIT.windowSeconds * 1000;
  const maxKeys = options.maxKeys ?? DEFAULT_MAX_KEYS;
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`rate limit must be a whole number of requests >= 1, not ${limit}`);
  const clients = new Map<string, Client>();
  const order = createIdleOrder();
  const lastTime = (client: Client) => (client.times.length > client.start ? client.times[client.times.length - 1]! : -Infinity);

  /** Drops clients idle for a whole window from the front, and the longest-idle while there are too many. */
  const forget = (now: number) => {
    for (let oldest = order.oldest(); oldest; oldest = order.oldest()) {
      if (lastTime(oldest) > now - windowMs && clients.size <= maxKeys) break;
      order.unlink(oldest);
      clients.delete(oldest.key);
    }
  };

  return {
    limit,
    windowSeconds: windowMs / 1000,
    size: () => clients.size,
    peek(key, now) {
      const client = clients.get(key);
      if (!client) return { allowed: true, limit, remaining: limit, retryAfter: 0 };
      slide(client, now, windowMs);
      const counted = client.times.length - client.start;
      if (counted < limit) return { allowed: true, limit, remaining: limit - counted, retryAfter: 0 };
      return { allowed: false, limit, remaining: 0, retryAfter: oldestExpiry(client, now, windowMs) };
    },
    hit(key, now) {
      let client = clients.get(key);
      if (client) order.unlink(client);
      else {
        client = { key, times: [], start: 0, older: null, newer: null };
        clients.set(key, client);
      }
      order.append(client);
      slide(client, now, windowMs);
      const counted = client.times.length - client.start;
      if (counted >= limit) return { allowed: false, limit, remaining: 0, retryAfter: oldestExpiry(client, now, windowMs) };
      client.times.push(now);
      forget(now);
      const remaining = limit - counted - 1;
      return { allowed: true, limit, remaining, retryAfter: remaining > 0 ? 0 : oldestExpiry(client, now, windowMs) };
    },
  };
}
