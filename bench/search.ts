/**
 * Search at scale: synthetic article-like documents (a real vocabulary drawn from content/, Zipf-Mandelbrot
 * word frequencies, stop words as in prose) indexed as the build indexes them (serializeSearchIndex: the site's
 * options, bodies pruned), without the pruning, and with a plain default MiniSearch, measured side by side:
 * build time, size raw and gzipped, cold start in a fresh process, warm latency.
 * Run alone with `npx tsx bench/search.ts [docs...] [--body-terms=N,M]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import MiniSearch from 'minisearch';
// @ts-expect-error -- stopword ships no type declarations.
import { eng } from 'stopword';
import { serializeSearchIndex } from '../generator/search/index-writer.ts';
import { BODY_PRUNING, type BodyPruning } from '../generator/search/body-pruning.ts';
import { createSearch } from '../generator/search/search.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { CRAFTED_QUERIES } from '../test/helpers/crafted-queries.ts';

type Loader = 'site' | 'plain';
/** An index to measure: the site's (with the given body pruning, none when null) or MiniSearch's defaults. */
interface Variant {
  name: string;
  loader: Loader;
  pruning?: BodyPruning | null;
}

const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));
const PLAIN_OPTIONS = { fields: ['title', 'summary', 'body'] };
const STOP_WORDS = eng as string[];
const VOCABULARY_SIZE = 5000;
const BODY_WORDS = 400;
const QUERIES = 200;
/** The corpus size the crafted queries are measured at (the figure). */
const CRAFTED_AT = 10_000;
const COLD_RUNS = 5;
const WARM_ROUNDS = 3;
// Calibrated on content/: stopword's English list covers about 35% of its words.
const STOP_SHARE = 0.35;
const ZIPF_OFFSET = 10;
const REPEAT_SHARE = 0.3;

/**
 * The site's index as the build writes it, the same keeping other numbers of body terms per document (one
 * variant per count), the same without pruning, and plain.
 */
const createVariants = (bodyTerms: number[]): Variant[] => [
  { name: 'site', loader: 'site', pruning: BODY_PRUNING },
  ...bodyTerms.map(
    (terms): Variant => ({ name: `site, body ${terms} terms`, loader: 'site', pruning: { ...BODY_PRUNING, termsPerDocument: terms } }),
  ),
  { name: 'site, unpruned', loader: 'site', pruning: null },
  { name: 'plain', loader: 'plain' },
];

export interface SearchBenchRow {
  docs: number;
  variant: string;
  buildMs: number;
  rawBytes: number;
  gzipBytes: number;
  coldCpuMs: number;
  coldWallMs: number;
  warmP50Ms: number;
  warmP99Ms: number;
}

/** mulberry32: seeded, so every run measures the same documents and queries. */
function createRandom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Words of content/ by frequency, most frequent first, topped up with made-up words to VOCABULARY_SIZE. */
function loadVocabulary(random: () => number): string[] {
  const counts = new Map<string, number>();
  const files = readdirSync(CONTENT_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
  for (const file of files) {
    for (const word of readFileSync(path.join(CONTENT_DIR, file), 'utf8')
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const stop = new Set(STOP_WORDS);
  const words = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([word]) => word)
    .filter((word) => !stop.has(word));
  const syllables = ['ka', 'lo', 'mer', 'tin', 'sa', 'vo', 'ren', 'dal', 'pi', 'gor', 'ul', 'fen', 'bri', 'tas', 'mon'];
  const endings = ['', 's', 'ing', 'ed', 'er', 'tion', 'ment', 'ly', 'able', 'ness'];
  const seen = new Set(words);
  while (words.length < VOCABULARY_SIZE) {
    const stem = Array.from({ length: 2 + Math.floor(random() * 2) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
    const word = stem + endings[Math.floor(random() * endings.length)];
    if (!seen.has(word)) {
      words.push(word);
      seen.add(word);
    }
  }
  return words.slice(0, VOCABULARY_SIZE);
}

function createWriter(seed: number) {
  const random = createRandom(seed);
  const vocabulary = loadVocabulary(random);
  // Zipf-Mandelbrot, weight 1/(rank + ZIPF_OFFSET): with the offset the most frequent words take about the
  // share they take in content/ (the top one ~1.4% of content words); plain 1/rank would give it 11%.
  const cumulative: number[] = [];
  vocabulary.reduce((sum, _, rank) => (cumulative[rank] = sum + 1 / (rank + 1 + ZIPF_OFFSET)), 0);
  const total = cumulative[cumulative.length - 1]!;
  const zipfWord = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return vocabulary[low]!;
  };
  const stopWord = () => STOP_WORDS[Math.floor(random() * STOP_WORDS.length)]!;
  // Words recur within a document (a Polya urn: a used word is likelier to be used again), which gives
  // content/'s ~160 distinct words per 400-word body rather than the ~210 of independent draws.
  let used: string[] = [];
  const contentWord = () => {
    const word = used.length && random() < REPEAT_SHARE ? used[Math.floor(random() * used.length)]! : zipfWord();
    used.push(word);
    return word;
  };
  const startDocument = () => {
    used = [];
  };
  const prose = (words: number) => Array.from({ length: words }, () => (random() < STOP_SHARE ? stopWord() : contentWord())).join(' ');
  const words = (count: number) => Array.from({ length: count }, contentWord);
  return { random, vocabulary, startDocument, prose, words };
}

export function createDocuments(count: number): SearchDocument[] {
  const writer = createWriter(7);
  return Array.from({ length: count }, (_, index) => {
    const slug = `article-${index}`;
    writer.startDocument();
    const title = writer.words(5 + Math.floor(writer.random() * 5)).join(' ');
    const summary = writer.prose(30);
    return {
      id: `intelligence:${slug}`,
      title,
      tags: Array.from({ length: 4 }, () => writer.words(2).join('-')).join(' '),
      terms: 'Neural Core Measurement',
      summary,
      body: writer.prose(BODY_WORDS),
      stored: [slug, title, summary, `https://example.com/intelligence/${slug}/`],
    };
  });
}

/** One- to six-word queries: plain words, questions with stop words, a typo, a half-typed last word. */
export function createQueries(count: number): string[] {
  const writer = createWriter(11);
  const word = () => writer.vocabulary[10 + Math.floor(writer.random() ** 2 * 2000)]!;
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 1 + (index % 4) }, word);
    if (index % 5 === 1) return `how do I ${words.join(' the ')} for my store`;
    if (index % 5 === 2) words[0] = words[0]!.replace(/^(\w\w)(\w)/, '$1x');
    if (index % 5 === 3) words[words.length - 1] = words[words.length - 1]!.slice(0, 4);
    return words.join(' ');
  });
}

/** The site's variants through the build's own function, so the bench measures what the build writes. */
function buildIndex(variant: Variant, documents: SearchDocument[]): string {
  if (variant.loader === 'site') return serializeSearchIndex(documents, variant.pruning ?? null);
  const index = new MiniSearch<SearchDocument>(PLAIN_OPTIONS);
  index.addAll(documents);
  return JSON.stringify(index);
}

/** Loads an index and answers one query, as an isolate's first request does. Runs in the child process. */
async function answerCold(loader: Loader, file: string, q: string): Promise<{ cpuMs: number; wallMs: number }> {
  // A clean heap, as in a new isolate: tsx's own start-up garbage is not charged to the index.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage();
  const started = performance.now();
  if (loader === 'site') await createSearch(() => readFile(file, 'utf8')).search({ q, type: 'all', limit: 20, offset: 0 });
  else MiniSearch.loadJSON(await readFile(file, 'utf8'), PLAIN_OPTIONS).search(q);
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** Median of COLD_RUNS fresh processes: CPU of all threads (process.cpuUsage) and wall time. */
function measureColdStart(loader: Loader, file: string, q: string): { cpuMs: number; wallMs: number } {
  const args = ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--cold', loader, file, q];
  const runs = Array.from({ length: COLD_RUNS }, () => {
    const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`cold start child failed: ${child.stderr}`);
    return JSON.parse(child.stdout.trim().split('\n').pop()!) as { cpuMs: number; wallMs: number };
  });
  return { cpuMs: median(runs.map((run) => run.cpuMs)), wallMs: median(runs.map((run) => run.wallMs)) };
}

/** Per query, the median of `rounds` runs after a warm-up pass, so one noisy neighbour does not make a p99. */
async function timeQueries(run: (q: string) => Promise<unknown>, queries: string[], rounds = WARM_ROUNDS): Promise<number[]> {
  for (const q of queries) await run(q);
  const times = queries.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, q] of queries.entries()) {
      const started = performance.now();
      await run(q);
      times[i]!.push(performance.now() - started);
    }
  }
  return times.map(median);
}

/** Warm latency of one index: the site's through its own runner, or plain MiniSearch. */
function measureWarm(loader: Loader, json: string, queries: string[]): Promise<number[]> {
  if (loader === 'site') {
    const site = createSearch(async () => json);
    return timeQueries((q) => site.search({ q, type: 'all', limit: 20, offset: 0 }), queries);
  }
  const plain = MiniSearch.loadJSON(json, PLAIN_OPTIONS);
  return timeQueries(async (q) => plain.search(q), queries);
}

async function measureVariant(
  variant: Variant,
  docs: number,
  documents: SearchDocument[],
  queries: string[],
  dir: string,
): Promise<SearchBenchRow> {
  const started = performance.now();
  const json = buildIndex(variant, documents);
  const buildMs = performance.now() - started;
  const file = path.join(dir, 'index.json');
  writeFileSync(file, json);
  const cold = measureColdStart(variant.loader, file, queries[0]!);
  const warm = await measureWarm(variant.loader, json, queries);
  return {
    docs,
    variant: variant.name,
    buildMs,
    rawBytes: Buffer.byteLength(json),
    gzipBytes: gzipSync(json).byteLength,
    coldCpuMs: cold.cpuMs,
    coldWallMs: cold.wallMs,
    warmP50Ms: percentile(warm, 0.5),
    warmP99Ms: percentile(warm, 0.99),
  };
}

/**
 * Crafted queries (test/helpers/crafted-queries.ts) against the site's index: each one's warm time beside the
 * typical query's (the median of the ordinary set). Goal: the worst at most 3x the typical.
 */
async function benchCraftedQueries(json: string, queries: string[], docs: number): Promise<void> {
  const search = createSearch(async () => json);
  const run = (q: string) => search.search({ q, type: 'all', limit: 20, offset: 0 });
  const typical = median(await timeQueries(run, queries));
  const crafted = Object.entries(CRAFTED_QUERIES).map(([name, q]) => ({ name, ms: 0, q }));
  const times = await timeQueries(
    run,
    crafted.map(({ q }) => q),
    20,
  );
  crafted.forEach((entry, index) => {
    entry.ms = times[index]!;
  });
  console.log(
    `\ncrafted queries at ${docs.toLocaleString('en')} documents (warm, median of 20 runs each); typical query ${typical.toFixed(3)} ms`,
  );
  for (const { name, ms } of crafted) console.log(`  ${name.padEnd(34)} ${ms.toFixed(3).padStart(8)} ms  ${(ms / typical).toFixed(2)}x`);
  const worst = Math.max(...crafted.map(({ ms }) => ms));
  console.log(`worst crafted / typical: ${(worst / typical).toFixed(2)}x (goal <= 3x) ${worst / typical <= 3 ? 'ok' : 'MISSED'}`);
}

/** `bodyTerms`: also measure the site's index keeping N body terms per document, for each N. */
export async function benchSearch(sizes: number[] = [1000, 10_000], bodyTerms: number[] = []): Promise<SearchBenchRow[]> {
  const variants = createVariants(bodyTerms);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  const queries = createQueries(QUERIES);
  const rows: SearchBenchRow[] = [];
  let crafted: { json: string; docs: number } | undefined;
  try {
    // What a cold process costs whatever the index: the floor under every cold start figure.
    const floorFile = path.join(dir, 'floor.json');
    writeFileSync(floorFile, buildIndex(variants[0]!, createDocuments(10)));
    const floor = measureColdStart('site', floorFile, queries[0]!);
    for (const docs of sizes) {
      const documents = createDocuments(docs);
      for (const variant of variants) rows.push(await measureVariant(variant, docs, documents, queries, dir));
      if (docs === CRAFTED_AT) crafted = { json: buildIndex(variants[0]!, documents), docs };
    }
    printReport(rows, floor);
    if (crafted) await benchCraftedQueries(crafted.json, queries, crafted.docs);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

const GOALS: Record<number, { coldCpuMs: number; warmP99Ms: number; gzipMb?: number }> = {
  1000: { coldCpuMs: 50, warmP99Ms: 5 },
  10000: { coldCpuMs: 250, warmP99Ms: 20, gzipMb: 5 },
};

type Measure = Exclude<keyof SearchBenchRow, 'docs' | 'variant'>;
const COLUMNS: [Measure, string][] = [
  ['buildMs', 'build ms'],
  ['rawBytes', 'raw MB'],
  ['gzipBytes', 'gzip MB'],
  ['coldCpuMs', 'cold CPU ms'],
  ['coldWallMs', 'cold wall ms'],
  ['warmP50Ms', 'warm p50 ms'],
  ['warmP99Ms', 'warm p99 ms'],
];

function printReport(rows: SearchBenchRow[], floor: { cpuMs: number; wallMs: number }): void {
  const format = (key: Measure, value: number) =>
    key.endsWith('Bytes') ? (value / 1024 / 1024).toFixed(2) : value.toFixed(value < 10 ? 2 : 0);
  const lines = [['docs', 'index', ...COLUMNS.map(([, label]) => label)]];
  for (const docs of new Set(rows.map((row) => row.docs))) {
    const group = rows.filter((row) => row.docs === docs);
    const plain = group.find((row) => row.variant === 'plain')!;
    for (const row of group) lines.push([String(docs), row.variant, ...COLUMNS.map(([key]) => format(key, row[key]))]);
    for (const row of group.filter((row) => row !== plain)) {
      lines.push([String(docs), `${row.variant} / plain`, ...COLUMNS.map(([key]) => `${(row[key] / plain[key]).toFixed(2)}x`)]);
    }
  }
  const widths = lines[0]!.map((_, column) => Math.max(...lines.map((line) => line[column]!.length)));
  console.log(
    lines
      .map((line) => line.map((cell, column) => (column === 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  '))
      .join('\n'),
  );
  console.log(
    `cold start floor (10 documents): ${floor.cpuMs.toFixed(0)} ms CPU, ${floor.wallMs.toFixed(0)} ms wall; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs`,
  );
  console.log(
    `body pruning: ${BODY_PRUNING.termsPerDocument} terms per document, none in more than max(${BODY_PRUNING.cutShare * 100}% of documents, ${BODY_PRUNING.cutMinDocuments})`,
  );
  for (const row of rows.filter((row) => row.variant !== 'plain' && GOALS[row.docs])) {
    const goal = GOALS[row.docs]!;
    const check = (label: string, value: number, max: number, unit: string) =>
      `${label} ${value.toFixed(value < 10 ? 2 : 0)} < ${max} ${unit} ${value < max ? 'ok' : 'MISSED'}`;
    const checks = [check('cold CPU', row.coldCpuMs, goal.coldCpuMs, 'ms'), check('warm p99', row.warmP99Ms, goal.warmP99Ms, 'ms')];
    if (goal.gzipMb) checks.push(check('gzip', row.gzipBytes / 1024 / 1024, goal.gzipMb, 'MB'));
    console.log(`goals, ${row.docs} docs, ${row.variant}: ${checks.join('; ')}`);
  }
}

if (process.argv[2] === '--cold') {
  const [, , , loader, file, q] = process.argv;
  console.log(JSON.stringify(await answerCold(loader as Loader, file!, q!)));
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // npx tsx bench/search.ts [docs...] [--body-terms=N,M]
  const args = process.argv.slice(2);
  const sizes = args.map(Number).filter((n) => n > 0);
  const terms = args
    .find((arg) => arg.startsWith('--body-terms='))
    ?.slice('--body-terms='.length)
    .split(',')
    .map(Number);
  await benchSearch(sizes.length ? sizes : undefined, terms);
}
