/**
 * Search at scale, under Deno as on Netlify Edge: synthetic article-like documents (a real vocabulary drawn
 * from content/ growing with the corpus, Zipf-Mandelbrot word frequencies, stop words as in prose, whole
 * 400-word bodies) indexed as the build indexes them, at 100, 10,000 and 100,000 documents. Measured side by
 * side with a plain MiniSearch index of the same documents and options, which an isolate must load whole:
 * index build time and peak memory, the first search's CPU in a fresh isolate and the bytes it reads, warm
 * p50/p99, and an isolate's memory after 1,000 varied queries.
 * Run alone with `npx tsx bench/search.ts [docs...]`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import MiniSearch from 'minisearch';
// @ts-expect-error -- stopword ships no type declarations.
import { eng } from 'stopword';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { writeSearchIndex } from '../generator/search/index-writer.ts';
import { buildSite } from '../generator/pipeline/build-site.ts';
import { miniSearchOptions } from '../test/helpers/reference-search.ts';
import { createSearch } from '../generator/search/search.ts';
import { createFileAssets } from '../generator/server/file-assets.ts';
import { CRAFTED_QUERIES } from '../test/helpers/crafted-queries.ts';
import { createRandom } from '../test/helpers/synthetic-content.ts';
import { measureRelevance, MRR_BEFORE_SHARDS } from '../test/helpers/relevance-judgements.ts';

const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));
const STOP_WORDS = eng as string[];
const VOCABULARY_SIZE = 5000;
const BODY_WORDS = 400;
// Calibrated on content/: stopword's English list covers about 35% of its words.
const STOP_SHARE = 0.35;
const ZIPF_OFFSET = 10;
const REPEAT_SHARE = 0.3;
/** Fresh isolates per first-search figure (the median is printed). */
const COLD_RUNS = 3;
const WARM_QUERIES = 200;
const MEMORY_QUERIES = 1000;
/** The largest corpus a whole MiniSearch index is built and loaded for (past it, a single isolate cannot). */
const PLAIN_UP_TO = 10_000;

/** Words of content/ by frequency, most frequent first, topped up with made-up words to `size`. */
function loadVocabulary(random: () => number, size: number): string[] {
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
  while (words.length < size) {
    const stem = Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
    const word = stem + endings[Math.floor(random() * endings.length)];
    if (!seen.has(word)) {
      words.push(word);
      seen.add(word);
    }
  }
  return words.slice(0, size);
}

function createWriter(seed: number, vocabularySize = VOCABULARY_SIZE) {
  const random = createRandom(seed);
  const vocabulary = loadVocabulary(random, vocabularySize);
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

/** A larger corpus has a larger vocabulary (Heaps' law); the made-up words are its long tail. */
export function createDocuments(count: number): SearchDocument[] {
  const writer = createWriter(7, VOCABULARY_SIZE + Math.floor(count / 2));
  return Array.from({ length: count }, (_, index) => {
    const slug = `article-${index}`;
    const type = index % 10 === 0 ? 'services' : index % 10 === 1 ? 'expertise' : 'intelligence';
    writer.startDocument();
    const title = writer.words(5 + Math.floor(writer.random() * 5)).join(' ');
    const summary = writer.prose(30);
    return {
      id: `${type}:${slug}`,
      title,
      tags: Array.from({ length: 4 }, () => writer.words(2).join('-')).join(' '),
      terms: 'Neural Core Measurement',
      summary,
      body: writer.prose(BODY_WORDS),
      stored: [slug, title, summary, `https://example.com/${type}/${slug}/`],
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

/**
 * First-search queries, as a person types them: a rare word, a common one, three words, a half-typed last
 * word, a misspelling. Their words come from the same vocabulary at every size.
 */
const FIRST_QUERIES = ['reconciliation', 'commerce', 'agent checkout pricing', 'product catal', 'paymnets'];

interface BuildFigures {
  buildMs: number;
  peakRssMb: number;
  files: number;
  mb: number;
  plainMb: number;
}

/** Builds the index of `docs` documents into `dir` in a fresh Node process (so its peak memory is its own). */
function buildIndex(docs: number, dir: string): BuildFigures {
  const args = ['--max-old-space-size=6144', '--import', 'tsx', fileURLToPath(import.meta.url), '--build', String(docs), dir];
  return JSON.parse(
    execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 })
      .trim()
      .split('\n')
      .pop()!,
  );
}

/** The child's side of buildIndex: write the parts (and, for small corpora, a whole MiniSearch index). */
function buildInChild(docs: number, dir: string): void {
  const documents = createDocuments(docs);
  const started = performance.now();
  const files = writeSearchIndex(documents);
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

const DENO = createRequire(import.meta.url)
  .resolve('deno/package.json')
  .replace(/package\.json$/, 'bin.cjs');
const DENO_SCRIPT = fileURLToPath(new URL('./search-deno.ts', import.meta.url));

function runDeno(args: string[]): Record<string, number> & { medians?: number[] } {
  const flags = ['--allow-read', '--allow-env', '--no-prompt', '--v8-flags=--expose-gc'];
  const child = spawnSync(process.execPath, [DENO, 'run', ...flags, DENO_SCRIPT, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (child.status !== 0) throw new Error(`deno ${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

interface FirstFigures {
  cpuMs: number[];
  bytesRead: number[];
}

/** Per query, the median of COLD_RUNS fresh isolates. */
function firstSearches(mode: 'first' | 'plain', dir: string): FirstFigures {
  const runs = FIRST_QUERIES.map((q) => Array.from({ length: COLD_RUNS }, () => runDeno([mode, dir, q])));
  return { cpuMs: runs.map((list) => median(list.map((run) => run.cpuMs!))), bytesRead: runs.map((list) => list[0]!.bytesRead!) };
}

interface Row {
  docs: number;
  build: BuildFigures;
  first: FirstFigures;
  plain?: FirstFigures;
  warm?: { p50: number; p99: number };
  /** Warm median of each crafted query, and of the ordinary mix. */
  crafted?: { typical: number; times: Record<string, number> };
  memory?: { heapMb: number; rssMb: number };
}

function measureSize(docs: number, root: string): Row {
  const dir = path.join(root, String(docs));
  const build = buildIndex(docs, dir);
  const row: Row = { docs, build, first: firstSearches('first', dir) };
  if (docs <= PLAIN_UP_TO) row.plain = firstSearches('plain', dir);
  if (docs >= 10_000) {
    const queriesFile = path.join(root, 'queries.json');
    writeFileSync(queriesFile, JSON.stringify(createQueries(WARM_QUERIES)));
    const warm = runDeno(['warm', dir, queriesFile, '3']).medians!;
    row.warm = { p50: percentile(warm, 0.5), p99: percentile(warm, 0.99) };
    if (docs === 10_000) {
      writeFileSync(queriesFile, JSON.stringify(Object.values(CRAFTED_QUERIES)));
      const crafted = runDeno(['warm', dir, queriesFile, '20']).medians!;
      row.crafted = {
        typical: median(warm),
        times: Object.fromEntries(Object.keys(CRAFTED_QUERIES).map((name, i) => [name, crafted[i]!])),
      };
    }
    writeFileSync(queriesFile, JSON.stringify(createQueries(MEMORY_QUERIES)));
    const { heapMb, rssMb } = runDeno(['warm', dir, queriesFile, '1']);
    row.memory = { heapMb: heapMb!, rssMb: rssMb! };
  }
  rmSync(dir, { recursive: true, force: true });
  return row;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function printReport(rows: Row[]): void {
  const base = rows[0]!;
  console.log(
    '| documents | index build | build peak RSS | index files | index MB | first search CPU, median (max) | vs first row | bytes read, median (max) | plain MiniSearch first search CPU | sharded / plain | warm p50 / p99 | isolate after 1,000 queries (garbage collected) |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    const cpu = median(row.first.cpuMs);
    const plain = row.plain ? median(row.plain.cpuMs) : undefined;
    console.log(
      `| ${row.docs.toLocaleString('en')} | ${fixed(row.build.buildMs / 1000)} s | ${fixed(row.build.peakRssMb, 0)} MB | ${row.build.files} | ${fixed(row.build.mb)} | ` +
        `${fixed(cpu)} ms (${fixed(Math.max(...row.first.cpuMs))}) | ${fixed(cpu / median(base.first.cpuMs), 2)}x | ` +
        `${fixed(median(row.first.bytesRead) / 1024)} KB (${fixed(Math.max(...row.first.bytesRead) / 1024)} KB) | ` +
        `${plain === undefined ? 'n/a' : `${fixed(plain)} ms (index ${fixed(row.build.plainMb)} MB)`} | ${plain === undefined ? 'n/a' : `${fixed(cpu / plain, 2)}x`} | ` +
        `${row.warm ? `${fixed(row.warm.p50, 2)} / ${fixed(row.warm.p99, 2)} ms` : 'n/a'} | ${row.memory ? `${fixed(row.memory.heapMb, 0)} MB heap, ${fixed(row.memory.rssMb, 0)} MB RSS` : 'n/a'} |`,
    );
  }
  console.log(
    `\nFirst search CPU per query, ms (median of ${COLD_RUNS} fresh Deno isolates; the process's user + system time around the search):\n`,
  );
  console.log(`| documents | ${FIRST_QUERIES.map((q) => `"${q}"`).join(' | ')} |`);
  console.log(`|---:|${FIRST_QUERIES.map(() => '---:|').join('')}`);
  for (const row of rows) console.log(`| ${row.docs.toLocaleString('en')} | ${row.first.cpuMs.map((ms) => fixed(ms)).join(' | ')} |`);
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
      goal('first search at 100,000, worst query', at(100_000) && Math.max(...at(100_000)!.first.cpuMs), 50, ' ms'),
      goal('warm p99 at 10,000', at(10_000)?.warm?.p99, 10, ' ms'),
      goal('warm p99 at 100,000', at(100_000)?.warm?.p99, 30, ' ms'),
      goal('bytes read by a first query at 100,000 (median)', at(100_000) && median(at(100_000)!.first.bytesRead) / 1024 / 1024, 1, ' MB'),
      goal('isolate heap after 1,000 queries at 100,000', at(100_000)?.memory?.heapMb, 128, ' MB'),
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
  }
}

/** MRR@10 of the relevance judgements on content/, beside the figure before the sharded index. */
async function printRelevance(root: string): Promise<void> {
  const dir = path.join(root, 'content-build');
  await buildSite({ contentDir: CONTENT_DIR, outDir: dir, env: { SOURCE_DATE_EPOCH: '1795000000' } });
  const { mrr, recall } = await measureRelevance(createSearch(createFileAssets(dir)));
  console.log(
    `\nRelevance on content/: MRR@10 ${fixed(mrr, 3)} (before the sharded index, bodies cut to 32 terms: ${fixed(MRR_BEFORE_SHARDS, 3)}), recall@10 ${fixed(recall, 3)}`,
  );
}

export async function benchSearch(sizes: number[] = [100, 10_000, 100_000]): Promise<Row[]> {
  console.log('\n## Search at scale (under Deno, whole bodies)\n');
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  try {
    const rows = sizes.map((docs) => measureSize(docs, root));
    printReport(rows);
    printCrafted(rows);
    await printRelevance(root);
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--build') {
  buildInChild(Number(process.argv[3]), process.argv[4]!);
} else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  await benchSearch(sizes.length ? sizes : undefined);
}
