/**
 * The search side of bench/search.ts, run under Deno as on Netlify Edge, and under Node (through tsx) beside
 * it: one process is one fresh isolate. Files are read with each runtime's own API.
 *
 *   deno run --allow-read bench/search-deno.ts first DIST QUERY        one search in a fresh isolate
 *   deno run --allow-read bench/search-deno.ts phases DIST QUERY [OTHER]  CPU by step of one search (after OTHER words)
 *   deno run --allow-read bench/search-deno.ts warm DIST QUERIES ROUNDS  QUERIES: a JSON file of strings
 *   deno run --allow-read bench/search-deno.ts plain DIST QUERY        the same with a whole MiniSearch index
 *   deno run --allow-read bench/search-deno.ts rank DIST QUERIES       QUERIES: JSON `[{ q, type }]`; prints each one's top 10 ids
 *   deno run --allow-read bench/search-deno.ts exact DIST QUERIES      QUERIES: a JSON file of strings; how many skipping answers
 *                                                                      equal scoring every block (total, ids, order, scores)
 *
 * Prints one JSON line: CPU (user + system, from the process) and wall time around the search itself (warm:
 * the medians of each query's, wall and CPU), the bytes of index it read, and the isolate's memory.
 */
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { measure } from './cpu-measure.ts';
import MiniSearch from 'minisearch';
import { miniSearchOptions } from '../test/helpers/reference-search.ts';
import { createSearch } from '../generator/search/search.ts';
import { createIndexParts } from '../generator/search/index-reader.ts';
import { planQuery } from '../generator/search/query-plan.ts';
import { rank } from '../generator/search/scoring.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';

interface Runtime {
  args: string[];
  readTextFile(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  memoryUsage(): { rss: number; heapUsed: number };
}
const { Deno: deno } = globalThis as { Deno?: Runtime };
const Deno: Runtime = deno ?? {
  args: process.argv.slice(2),
  readTextFile: (path) => readFile(path, 'utf8'),
  readFile: async (path) => new Uint8Array(await readFile(path)),
  memoryUsage: () => process.memoryUsage(),
};

const [mode, dist, arg, rounds] = Deno.args;
let bytesRead = 0;
const orNull = async <T extends string | Uint8Array>(read: Promise<T>): Promise<T | null> => {
  try {
    const value = await read;
    bytesRead += typeof value === 'string' ? value.length : value.byteLength;
    return value;
  } catch {
    return null;
  }
};
const assets = {
  read: (path: string) => orNull(Deno.readTextFile(`${dist}/${path}`)),
  readBytes: (path: string) => orNull(Deno.readFile(`${dist}/${path}`)),
};

const query = (q: string) => ({ q, type: 'all', limit: 20, offset: 0 });

if (mode === 'first') {
  const search = createSearch(assets);
  const figures = await measure(() => search.search(query(arg!)));
  // The whole process's CPU so far too: loading the modules and the search, what a fresh isolate's first request pays.
  const used = process.cpuUsage();
  console.log(JSON.stringify({ ...figures, bytesRead, processCpuMs: (used.user + used.system) / 1000 }));
} else if (mode === 'phases') {
  // search.ts's steps called one by one, each one's CPU; after a search for other words when `rounds` names
  // them (the code then run and compiled, this query's own parts still unread).
  if (rounds) await createSearch(assets).search(query(rounds));
  const parts = createIndexParts(assets);
  const cpu: Record<string, number> = {};
  const step = async <T>(name: string, run: () => Promise<T> | T): Promise<T> => {
    let value: T | undefined;
    cpu[name] = (await measure(async () => (value = await run()))).cpuMs;
    return value as T;
  };
  const meta = await step('meta', () => parts.meta());
  const units = await step('plan', () => planQuery(parts, meta, arg!));
  const ranked = await step('rank', () => rank(units, meta, { range: [0, meta.documents], offset: 0, limit: 20 }));
  const { cardsPerFile } = meta;
  await step('cards', () =>
    Promise.all(ranked.page.map(({ document }) => parts.card(Math.floor(document / cardsPerFile), document % cardsPerFile))),
  );
  console.log(JSON.stringify(cpu));
} else if (mode === 'plain') {
  const figures = await measure(async () => {
    const index = MiniSearch.loadJSON<SearchDocument>((await assets.read('plain-index.json'))!, miniSearchOptions);
    index.search(arg!, { fuzzy: 0.2, prefix: true });
  });
  console.log(JSON.stringify({ ...figures, bytesRead }));
} else if (mode === 'rank') {
  // Relevance: each query's result ids in order, for the Node side to score.
  const queries: { q: string; type: string }[] = JSON.parse(await Deno.readTextFile(arg!));
  const search = createSearch(assets);
  const ids: string[][] = [];
  for (const { q, type } of queries)
    ids.push((await search.search({ q, type, limit: 10, offset: 0 })).items.map((item) => `${item.type}:${item.id}`));
  console.log(JSON.stringify({ ids }));
} else if (mode === 'exact') {
  // Quality beside speed: the skipping search must give what scoring every block gives, query for query.
  const queries: string[] = JSON.parse(await Deno.readTextFile(arg!));
  const search = createSearch(assets);
  const describe = ({ total, items }: { total: number; items: { type: string; id: string; score: number; raw: number }[] }) =>
    JSON.stringify([total, items.map(({ type, id, score, raw }) => [type, id, score, raw])]);
  let equal = 0;
  for (const q of queries)
    if (describe(await search.rank(query(q))) === describe(await search.rank(query(q), { exhaustive: true }))) equal++;
  console.log(JSON.stringify({ equal, queries: queries.length }));
} else if (mode === 'warm') {
  const queries: string[] = JSON.parse(await Deno.readTextFile(arg!));
  const search = createSearch(assets);
  for (const q of queries) await search.search(query(q));
  const times: number[][] = queries.map(() => []);
  const cpu: number[][] = queries.map(() => []);
  for (let round = 0; round < Number(rounds ?? 3); round++) {
    for (const [i, q] of queries.entries()) {
      const { wallMs, cpuMs } = await measure(() => search.search(query(q)));
      times[i]!.push(wallMs);
      cpu[i]!.push(cpuMs);
    }
  }
  const middle = (lists: number[][]) => lists.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
  const medians = middle(times);
  const cpuMedians = middle(cpu);
  // Live memory, as a long-lived isolate holds it: the garbage of 1,000 queries collected first.
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = Deno.memoryUsage();
  console.log(
    JSON.stringify({
      medians,
      cpuMedians,
      rssMb: rss / 1024 / 1024,
      heapMb: heapUsed / 1024 / 1024,
      cachedMb: search.cachedBytes() / 1024 / 1024,
    }),
  );
}
