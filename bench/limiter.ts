/**
 * Rate limiter: microseconds per hit and memory with 1, 1,000, 50,000 and 1,000,000 distinct clients sending
 * requests round-robin inside one window. Goal: the cost per hit does not grow with the number of clients,
 * and memory stays bounded (at most DEFAULT_MAX_KEYS clients are remembered). Run alone with
 * `node --expose-gc --import tsx bench/limiter.ts`.
 */
import { fileURLToPath } from 'node:url';
import { clientKey } from '../generator/edge/client-address.ts';
import { createMemoryLimiter, DEFAULT_MAX_KEYS } from '../generator/edge/limiter.ts';

const HITS = 2_000_000;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** An IPv4 address per client number, as the handler would key it. */
const address = (n: number) => clientKey(`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);

function measure(clients: number): { usPerHit: number; heapMb: number; remembered: number; distinct: number } {
  const keys = Array.from({ length: Math.min(clients, HITS) }, (_, n) => address(n));
  // Each client sends one request every 0.61 s of clock: under the limit of 100 a minute, so every hit is an
  // allowed, counted one (the refused path is cheaper), and each client keeps up to 100 times in its window.
  const step = 610 / keys.length;
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const limiter = createMemoryLimiter();
  const started = performance.now();
  for (let i = 0; i < HITS; i++) limiter.hit(keys[i % keys.length]!, i * step);
  const usPerHit = ((performance.now() - started) * 1000) / HITS;
  gc();
  gc();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  // Reading `keys` here keeps it alive through the collections above, so freeing it cannot skew the heap figure.
  return { usPerHit, heapMb, remembered: limiter.size(), distinct: keys.length };
}

export async function benchLimiter(): Promise<void> {
  console.log(
    `\n## Rate limiter (${HITS.toLocaleString('en')} hits per row; at most ${DEFAULT_MAX_KEYS.toLocaleString('en')} clients remembered)`,
  );
  console.log('clients     µs/hit  heap MB  remembered');
  const rows = [1, 1000, 50_000, 1_000_000].map((clients) => ({ clients, ...measure(clients) }));
  for (const row of rows) {
    console.log(
      `${row.clients.toLocaleString('en').padStart(9)}  ${row.usPerHit.toFixed(3).padStart(7)}  ${row.heapMb.toFixed(1).padStart(7)}  ${row.remembered.toLocaleString('en').padStart(10)}`,
    );
  }
  const ratio = rows.at(-1)!.usPerHit / rows[0]!.usPerHit;
  console.log(
    `cost per hit at 1,000,000 clients / at 1 client: ${ratio.toFixed(2)}x (every hit there is a new client and an eviction; nothing walks the table)`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await benchLimiter();
