import { describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';

describe('createMemoryLimiter', () => {
  it('allows `limit` requests in any rolling window and refuses the next without counting it', () => {
    const limiter = createMemoryLimiter({ limit: 3, windowMs: 1000 });
    expect([0, 10, 20].map((t) => limiter.hit('a', t).allowed)).toEqual([true, true, true]);
    const refused = limiter.hit('a', 30);
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfter: 1 });
    // At 1000 the request at 0 has slid out: exactly one more is allowed.
    expect(limiter.hit('a', 1000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.hit('a', 1005).allowed).toBe(false);
    expect(limiter.hit('a', 1010)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('reports the seconds until a request is allowed again', () => {
    const limiter = createMemoryLimiter({ limit: 2, windowMs: 60_000 });
    expect(limiter.hit('a', 0)).toMatchObject({ remaining: 1, retryAfter: 0 });
    expect(limiter.hit('a', 30_000)).toMatchObject({ remaining: 0, retryAfter: 30 });
    expect(limiter.hit('a', 45_500)).toMatchObject({ allowed: false, retryAfter: 15 });
    expect(limiter.hit('a', 59_999)).toMatchObject({ allowed: false, retryAfter: 1 });
  });

  it('counts each address on its own', () => {
    const limiter = createMemoryLimiter({ limit: 1, windowMs: 1000 });
    expect(limiter.hit('a', 0).allowed).toBe(true);
    expect(limiter.hit('a', 1).allowed).toBe(false);
    expect(limiter.hit('b', 2).allowed).toBe(true);
  });

  it('keeps memory bounded whatever the number of addresses', () => {
    const limiter = createMemoryLimiter({ limit: 100, windowMs: 60_000, maxKeys: 1000 });
    for (let i = 0; i < 50_000; i++) limiter.hit(`10.0.${i >> 8}.${i & 255}`, i);
    expect(limiter.size()).toBeLessThanOrEqual(1000);
  });

  it('forgets idle addresses as time passes', () => {
    const limiter = createMemoryLimiter({ limit: 10, windowMs: 1000 });
    for (let i = 0; i < 500; i++) limiter.hit(`a${i}`, i);
    expect(limiter.size()).toBe(500);
    limiter.hit('late', 10_000);
    expect(limiter.size()).toBe(1);
  });

  it('keeps the most recently active addresses when it must evict', () => {
    const limiter = createMemoryLimiter({ limit: 1, windowMs: 60_000, maxKeys: 2 });
    limiter.hit('old', 0);
    limiter.hit('busy', 1);
    limiter.hit('new', 2);
    // 'old' was evicted, 'busy' and 'new' still count.
    expect(limiter.hit('busy', 3).allowed).toBe(false);
    expect(limiter.hit('new', 4).allowed).toBe(false);
  });
});

describe('createMemoryLimiter at scale', () => {
  it('stays exact for one client while a million others come and go', () => {
    const limiter = createMemoryLimiter({ limit: 100, windowMs: 60_000, maxKeys: 10_000 });
    let allowed = 0;
    for (let i = 0; i < 1_000_000; i++) {
      limiter.hit(`c${i}`, i / 100);
      if (i % 5000 === 0 && limiter.hit('steady', i / 100).allowed) allowed++;
    }
    // 200 tries over 10 s of clock: the first 100 are allowed, the rest refused, whatever the churn around it.
    expect(allowed).toBe(100);
    expect(limiter.size()).toBeLessThanOrEqual(10_000);
  });
});
