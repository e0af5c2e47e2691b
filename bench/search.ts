/**
 * Search at scale, under Deno as on Netlify Edge: synthetic article-like documents (a real vocabulary drawn
 * from content/ growing with the corpus, Zipf-Mandelbrot word frequencies, stop words as in prose, whole
 * 400-word bodies) indexed as the build indexes them, at 100, 10,000 and 100,000 documents. Measured side by
 * side with a plain MiniSearch index of the same documents and options, which an isolate must load whole:
 * index build time and peak memory, the first search's CPU in a fresh isolate and the bytes it reads, warm
 * p50/p99, and an isolate's memory after 1,000 varied queries.
 * Run alone with `npx tsx bench/search.ts [docs...]` (`SEARCH_BENCH_DIR=<folder>` keeps the indexes built, see KEPT).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { writeSearchIndex } from '../generator/search/index-writer.ts';
import { miniSearchOptions } from '../test/helpers/reference-search.ts';
import { CRAFTED_QUERIES } from '../test/helpers/crafted-queries.ts';
import { createDocuments, distractorStyle, createQueries } from '../test/helpers/synthetic-articles.ts';
import { figuresFromChild } from './child-figures.ts';
import { measureClasses, printRelevance, type Relevance, siteSynonyms, withContent } from './search-relevance.ts';

const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));
/** Fresh isolates per first-search figure (the median is printed, with the spread: 3 moved the worst by ~3 ms). */
const COLD_RUNS = 7;
export const WARM_QUERIES = 200;
const MEMORY_QUERIES = 1000;
/** The largest corpus a whole MiniSearch index is built and loaded for (past it, a single isolate cannot). */
const PLAIN_UP_TO = 10_000;

/**
 * First-search queries, as a person types them: a rare word, a common one, three words, a half-typed last
 * word, a misspelling. Their words come from the same vocabulary at every size.
 */
export const FIRST_QUERIES = ['reconciliation', 'commerce', 'agent checkout pricing', 'product catal', 'paymnets'];

interface BuildFigures {
  buildMs: number;
  peakRssMb: number;
  files: number;
  mb: number;
  plainMb: number;
}

/** Builds the index of `docs` documents into `dir` in a fresh Node process (so its peak memory is its own). */
export function buildIndex(docs: number, dir: string): BuildFigures {
  return figuresFromChild(import.meta.url, [String(docs), dir]);
}

/** The child's side of buildIndex: write the parts (and, for small corpora, a whole MiniSearch index). */
async function buildInChild(docs: number, dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const documents = await withContent(CONTENT_DIR, createDocuments(docs, distractorStyle()), dir);
  const synonyms = siteSynonyms(CONTENT_DIR);
  const started = performance.now();
  const files = writeSearchIndex(documents, undefined, synonyms);
  const buildMs = performance.now() - started;
  let bytes = 0;
  for (const { path: file, body } of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
    bytes += typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  }
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  let plainMb = 0;
  if (docs <= PLAIN_UP_TO) {
    const plain = new MiniSearch<SearchDocument>(miniSearchOptions);
    plain.addAll(documents);
    const json = JSON.stringify(plain);
    writeFileSync(path.join(dir, 'plain-index.json'), json);
    plainMb = Buffer.byteLength(json) / 1024 / 1024;
  }
  console.log(JSON.stringify({ buildMs, peakRssMb, files: files.length, mb: bytes / 1024 / 1024, plainMb }));
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

export const DENO = createRequire(import.meta.url)
  .resolve('deno/package.json')
  .replace(/package\.json$/, 'bin.cjs');
const DENO_SCRIPT = fileURLToPath(new URL('./search-deno.ts', import.meta.url));

/**
 * A new folder for files Deno reads: under the temporary folder, unless that is under `/dev` (`TMPDIR=/dev/shm`,
 * as the build benches suggest), where Deno 2 reads nothing without `--allow-all`; then under `/tmp`.
 */
export const denoScratch = (prefix: string) => {
  const base = os.tmpdir().startsWith('/dev/') ? '/tmp' : os.tmpdir();
  return mkdtempSync(path.join(base, prefix));
};

type Runtime = 'deno' | 'node';

/** One fresh isolate of `runtime` running search-deno.ts with `args`; its JSON line. */
export function runIn(runtime: Runtime, args: string[]): Record<string, number> & { medians?: number[]; cpuMedians?: number[] } {
  const command =
    runtime === 'deno'
      ? [DENO, 'run', '--allow-read', '--allow-env', '--no-prompt', '--v8-flags=--expose-gc', DENO_SCRIPT]
      : ['--expose-gc', '--import', 'tsx', DENO_SCRIPT];
  const child = spawnSync(process.execPath, [...command, ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (child.status !== 0) throw new Error(`${runtime} ${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

const runDeno = (args: string[]) => runIn('deno', args);

interface FirstFigures {
  /** Per query, the median of its isolates, then the least and the most of them. */
  cpuMs: number[];
  spread: [number, number][];
  bytesRead: number[];
}

/** Per query, the median of COLD_RUNS fresh isolates. */
function firstSearches(mode: 'first' | 'plain', dir: string, runtime: Runtime = 'deno'): FirstFigures {
  const runs = FIRST_QUERIES.map((q) => Array.from({ length: COLD_RUNS }, () => runIn(runtime, [mode, dir, q])));
  const cpu = runs.map((list) => list.map((run) => run.cpuMs!));
  return {
    cpuMs: cpu.map(median),
    spread: cpu.map((list) => [Math.min(...list), Math.max(...list)]),
    bytesRead: runs.map((list) => list[0]!.bytesRead!),
  };
}

/** The speed figures taken in one runtime. */
interface Speed {
  first: FirstFigures;
  /** Warm percentiles by wall time, and `cpuP99` by the process's CPU time, which other work on a shared machine inflates far less. */
  warm?: { p50: number; p99: number; cpuP99: number };
  /**
   * Warm median of each crafted query, and of the ordinary mix, by wall time; `cpu`: the same by the
   * process's CPU time, which other work on a shared machine inflates far less.
   */
  crafted?: { typical: number; times: Record<string, number>; cpu: { typical: number; times: Record<string, number> } };
}

interface Row extends Speed {
  docs: number;
  build: BuildFigures;
  plain?: FirstFigures;
  /** The same figures under Node, and whether Node's answers to the relevance queries equal Deno's. */
  node: Speed & { sameAnswers: boolean };
  memory?: { heapMb: number; rssMb: number; cachedMb: number };
  relevance: Relevance;
  /** The bench's own queries (first, warm and crafted) whose skipping answer equals scoring every block. */
  exact: { equal: number; queries: number };
}

/** First searches, and from 10,000 documents warm queries (and at 100,000 the crafted ones), in `runtime`. */
function measureSpeed(runtime: Runtime, docs: number, dir: string, root: string): Speed {
  const speed: Speed = { first: firstSearches('first', dir, runtime) };
  if (docs < 10_000) return speed;
  const queriesFile = path.join(root, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(createQueries(WARM_QUERIES)));
  const warm = runIn(runtime, ['warm', dir, queriesFile, '3']);
  speed.warm = { p50: percentile(warm.medians!, 0.5), p99: percentile(warm.medians!, 0.99), cpuP99: percentile(warm.cpuMedians!, 0.99) };
  if (docs === 100_000) {
    writeFileSync(queriesFile, JSON.stringify(Object.values(CRAFTED_QUERIES)));
    const crafted = runIn(runtime, ['warm', dir, queriesFile, '20']);
    const byName = (times: number[]) => Object.fromEntries(Object.keys(CRAFTED_QUERIES).map((name, i) => [name, times[i]!]));
    speed.crafted = {
      typical: median(warm.medians!),
      times: byName(crafted.medians!),
      cpu: { typical: median(warm.cpuMedians!), times: byName(crafted.cpuMedians!) },
    };
  }
  return speed;
}

/**
 * `SEARCH_BENCH_DIR`: where the indexes are built and kept between runs (with their build figures), so that
 * a change to the reader is measured again without building 100,000 documents again. Delete it when done:
 * the 100,000-document index is about 150 MB. Without it, each index is built in a temporary folder and deleted.
 */
const KEPT = process.env.SEARCH_BENCH_DIR;

/** The index of `docs` documents in `dir`, built now or, when kept, read back with its build's figures. */
function keptOrBuilt(docs: number, dir: string): BuildFigures {
  const figures = path.join(dir, 'build.json');
  if (KEPT && existsSync(figures)) return JSON.parse(readFileSync(figures, 'utf8'));
  const build = buildIndex(docs, dir);
  if (KEPT) writeFileSync(figures, JSON.stringify(build));
  return build;
}

function measureSize(docs: number, root: string): Row {
  const dir = path.join(KEPT ?? root, String(docs));
  const build = keptOrBuilt(docs, dir);
  const answers: Record<Runtime, string[][]> = { deno: [], node: [] };
  const rankIn = (runtime: Runtime) => (queries: { q: string; type: string }[]) => {
    const file = path.join(root, 'relevance-queries.json');
    writeFileSync(file, JSON.stringify(queries));
    answers[runtime] = (runIn(runtime, ['rank', dir, file]) as unknown as { ids: string[][] }).ids;
    return answers[runtime];
  };
  const exactFile = path.join(root, 'exact-queries.json');
  writeFileSync(exactFile, JSON.stringify([...FIRST_QUERIES, ...createQueries(WARM_QUERIES), ...Object.values(CRAFTED_QUERIES)]));
  const exact = runDeno(['exact', dir, exactFile]) as unknown as Row['exact'];
  const relevance = measureClasses(dir, rankIn('deno'));
  measureClasses(dir, rankIn('node'));
  const sameAnswers = JSON.stringify(answers.deno) === JSON.stringify(answers.node);
  const row: Row = {
    docs,
    build,
    ...measureSpeed('deno', docs, dir, root),
    relevance,
    exact,
    node: { ...measureSpeed('node', docs, dir, root), sameAnswers },
  };
  if (docs <= PLAIN_UP_TO) row.plain = firstSearches('plain', dir);
  if (docs >= 10_000) {
    const queriesFile = path.join(root, 'queries.json');
    writeFileSync(queriesFile, JSON.stringify(createQueries(MEMORY_QUERIES)));
    const { heapMb, rssMb, cachedMb } = runDeno(['warm', dir, queriesFile, '1']);
    row.memory = { heapMb: heapMb!, rssMb: rssMb!, cachedMb: cachedMb! };
  }
  if (!KEPT) rmSync(dir, { recursive: true, force: true });
  return row;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function printReport(rows: Row[]): void {
  const base = rows.find((row) => row.docs === 100) ?? rows[0]!;
  console.log(
    '| documents | index build | build peak RSS | index files | index MB | first search CPU, median (max) | vs first row | bytes read, median (max) | plain MiniSearch first search CPU | sharded / plain | warm p50 / p99 | isolate after 1,000 queries (garbage collected; its part cache) | skipping = scoring every block | judged MRR@10 |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const cpu = median(row.first.cpuMs);
    const plain = row.plain ? median(row.plain.cpuMs) : undefined;
    console.log(
      `| ${row.docs.toLocaleString('en')} | ${fixed(row.build.buildMs / 1000)} s | ${fixed(row.build.peakRssMb, 0)} MB | ${row.build.files} | ${fixed(row.build.mb)} | ` +
        `${fixed(cpu)} ms (${fixed(Math.max(...row.first.cpuMs))}) | ${fixed(cpu / median(base.first.cpuMs), 2)}x | ` +
        `${fixed(median(row.first.bytesRead) / 1024)} KB (${fixed(Math.max(...row.first.bytesRead) / 1024)} KB) | ` +
        `${plain === undefined ? 'n/a' : `${fixed(plain)} ms (index ${fixed(row.build.plainMb)} MB)`} | ${plain === undefined ? 'n/a' : `${fixed(cpu / plain, 2)}x`} | ` +
        `${row.warm ? `${fixed(row.warm.p50, 2)} / ${fixed(row.warm.p99, 2)} ms` : 'n/a'} | ${row.memory ? `${fixed(row.memory.heapMb, 0)} MB heap, ${fixed(row.memory.rssMb, 0)} MB RSS, ${fixed(row.memory.cachedMb, 0)} MB of parts cached` : 'n/a'} | ` +
        `${row.exact.equal} of ${row.exact.queries} | ${fixed(row.relevance.judged.mrr, 3)} |`,
    );
  }
  console.log(
    `\nFirst search CPU per query, ms (median of ${COLD_RUNS} fresh Deno isolates, least to most in brackets; the process's user + system time around the search):\n`,
  );
  console.log(`| documents | ${FIRST_QUERIES.map((q) => `"${q}"`).join(' | ')} |`);
  console.log(`|---:|${FIRST_QUERIES.map(() => '---:|').join('')}`);
  for (const { docs, first } of rows) {
    const cells = first.cpuMs.map((ms, i) => `${fixed(ms)} (${fixed(first.spread[i]![0])} to ${fixed(first.spread[i]![1])})`);
    console.log(`| ${docs.toLocaleString('en')} | ${cells.join(' | ')} |`);
  }
  const at = (docs: number) => rows.find((row) => row.docs === docs);
  const goal = (label: string, value: number | undefined, max: number, unit: string) =>
    value === undefined
      ? `${label}: not measured`
      : `${label} ${fixed(value, 2)}${unit} (goal <= ${max}${unit}) ${value <= max ? 'ok' : 'MISSED'}`;
  const ratio = (docs: number) => (at(docs) ? Math.max(...at(docs)!.first.cpuMs) / Math.max(...base.first.cpuMs) : undefined);
  console.log(
    [
      goal(`first search, worst query, 10,000 / ${base.docs}`, ratio(10_000), 2, 'x'),
      goal(`first search, worst query, 100,000 / ${base.docs}`, ratio(100_000), 3, 'x'),
      goal('first search at 100,000, worst query', at(100_000) && Math.max(...at(100_000)!.first.cpuMs), 20, ' ms'),
      goal('warm p99 at 100,000', at(100_000)?.warm?.p99, 5, ' ms'),
      goal('warm p99 at 100,000 by CPU', at(100_000)?.warm?.cpuP99, 5, ' ms'),
      goal('bytes read by a first query at 100,000 (median)', at(100_000) && median(at(100_000)!.first.bytesRead) / 1024, 512, ' KB'),
      goal('isolate heap after 1,000 queries at 100,000', at(100_000)?.memory?.heapMb, 128, ' MB'),
      ...rows.map(
        ({ docs, exact }) =>
          `skipping equals scoring every block at ${docs.toLocaleString('en')}: ${exact.equal} of ${exact.queries} queries ${exact.equal === exact.queries ? 'ok' : 'MISSED'}`,
      ),
    ].join('\n'),
  );
}

/** Crafted queries (test/helpers/crafted-queries.ts) beside the typical query: the worst at most 3x (goal). */
function printCrafted(rows: Row[]): void {
  for (const { docs, crafted } of rows) {
    if (!crafted) continue;
    console.log(
      `\nCrafted queries at ${docs.toLocaleString('en')} documents, warm (median of 20 runs each), typical query ${fixed(crafted.typical, 3)} ms:`,
    );
    for (const [name, ms] of Object.entries(crafted.times))
      console.log(`  ${name.padEnd(34)} ${fixed(ms, 3).padStart(8)} ms  ${fixed(ms / crafted.typical, 2)}x`);
    const worst = Math.max(...Object.values(crafted.times)) / crafted.typical;
    console.log(`worst crafted / typical: ${fixed(worst, 2)}x (goal <= 3x) ${worst <= 3 ? 'ok' : 'MISSED'}`);
    const { cpu } = crafted;
    const each = Object.entries(cpu.times).map(([name, ms]) => `${name} ${fixed(ms, 3)} ms`);
    const byCpu = Math.max(...Object.values(cpu.times)) / cpu.typical;
    console.log(`by CPU (typical ${fixed(cpu.typical, 3)} ms): ${each.join(', ')}`);
    console.log(`worst crafted / typical by CPU: ${fixed(byCpu, 2)}x (goal <= 3x) ${byCpu <= 3 ? 'ok' : 'MISSED'}`);
  }
}

/** Deno (the edge) beside Node (the local server) for the same index and queries, with each one's quality. */
function printRuntimes(rows: Row[]): void {
  console.log('\nThe same searches under Deno and under Node (each first search a fresh process; warm in one process):\n');
  console.log(
    '| documents | first search CPU, Deno median (max) | Node median (max) | warm p50 / p99, Deno | Node | worst crafted / typical, Deno | Node | Node answers = Deno answers | skipping = scoring every block | judged MRR@10 |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const first = ({ cpuMs }: FirstFigures) => `${fixed(median(cpuMs))} ms (${fixed(Math.max(...cpuMs))})`;
  const warm = (speed: Speed) => (speed.warm ? `${fixed(speed.warm.p50, 2)} / ${fixed(speed.warm.p99, 2)} ms` : 'n/a');
  const crafted = ({ crafted: c }: Speed) => (c ? `${fixed(Math.max(...Object.values(c.times)) / c.typical, 2)}x` : 'n/a');
  for (const row of rows) {
    console.log(
      `| ${row.docs.toLocaleString('en')} | ${first(row.first)} | ${first(row.node.first)} | ${warm(row)} | ${warm(row.node)} | ${crafted(row)} | ${crafted(row.node)} | ` +
        `${row.node.sameAnswers ? 'yes' : 'NO'} | ${row.exact.equal} of ${row.exact.queries} | ${fixed(row.relevance.judged.mrr, 3)} |`,
    );
  }
}

export async function benchSearch(sizes: number[] = [0, 100, 10_000, 100_000]): Promise<Row[]> {
  console.log('\n## Search at scale (under Deno, whole bodies)\n');
  const root = denoScratch('bench-search-');
  try {
    const rows = sizes.map((docs) => measureSize(docs, root));
    printReport(rows);
    printCrafted(rows);
    printRuntimes(rows);
    printRelevance(rows);
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--build') {
  await buildInChild(Number(process.argv[3]), process.argv[4]!);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n >= 0);
  await benchSearch(sizes.length ? sizes : undefined);
}
