/**
 * The measurements bench/semantic.ts prints: the indexes built in a child process (the vector step's time and
 * peak memory its own), relevance and cost under Deno, the encoder against the full model, recall of the
 * approximate neighbour search, the edge bundle's size.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { buildSemanticFiles, writeSemanticIndex } from '../generator/pipeline/outputs/semantic/semantic-files.ts';
import { createIndexParts } from '../generator/search/index-reader.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { writeSearchIndex } from '../generator/search/index-writer.ts';
import { SEMANTIC_FORMAT, SEMANTIC_META_PATH } from '../generator/semantic/semantic-format.ts';
import { encodeQuery } from '../generator/semantic/query-encoder.ts';
import { createSemanticParts } from '../generator/semantic/semantic-reader.ts';
import { type Projection, project } from '../generator/semantic/projection.ts';
import { normalize } from '../generator/semantic/vector-part.ts';
import { nearestDocuments } from '../generator/semantic/vector-search.ts';
import { loadSentenceModel } from '../generator/pipeline/outputs/semantic/sentence-model.ts';
import { compareText } from '../generator/shared/compare-text.ts';
import { paraphraseJudgements } from '../test/helpers/paraphrase-judgements.ts';
import { type Judgement, judgements, scoreRanking, synonymJudgements } from '../test/helpers/relevance-judgements.ts';
import { loadSearchDocuments } from '../test/helpers/search-documents.ts';
import { createDocuments } from '../test/helpers/synthetic-articles.ts';
import { siteSynonyms } from './search-relevance.ts';
import { prefillProxyVectors } from './semantic-proxy.ts';

const PROJECTION_FILE = 'projection.json';
const isDistractor = ({ id }: SearchDocument) => /^\w+:article-\d+$/.test(id);

/** The projection the child wrote, or null when the index keeps the model's dimensions. */
function readProjection(root: string): Projection | null {
  try {
    const { size, dimensions, axes } = JSON.parse(readFileSync(path.join(root, PROJECTION_FILE), 'utf8'));
    return { size, dimensions, axes: Float64Array.from(axes) };
  } catch {
    return null;
  }
}

export const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));
const DENO = createRequire(import.meta.url)
  .resolve('deno/package.json')
  .replace(/package\.json$/, 'bin.cjs');
const DENO_SCRIPT = fileURLToPath(new URL('./search-deno.ts', import.meta.url));
const COLD_RUNS = 3;
export const FIRST_QUERIES = ['making chat popups usable for blind people', 'retail media', 'how can AI agents pay for things in my store'];
const CLASSES: [string, Judgement[]][] = [
  ['paraphrase', paraphraseJudgements],
  ['judged', judgements],
  ['synonyms', synonymJudgements],
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

async function writeFiles(dir: string, files: { path: string; body: string | Uint8Array }[]) {
  for (const { path: file, body } of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
}

/** Distractors past which the bench gives them proxy vectors (semantic-proxy.ts) rather than the model's (SEMANTIC_BENCH_PROXY_FROM). */
export const PROXY_FROM = Number(process.env.SEMANTIC_BENCH_PROXY_FROM ?? 4000);

/**
 * The child's side: both indexes written, the vector step timed cold and after a one-record edit, the
 * projection written to `root` for the parent (which projects the model's query vectors the same way).
 */
export async function buildInChild(distractors: number, root: string): Promise<void> {
  const documents = await benchDocuments(distractors);
  const lexical = writeSearchIndex(documents, undefined, siteSynonyms(CONTENT_DIR)) as { path: string; body: string | Uint8Array }[];
  const [hybridDir, lexicalDir, cacheDir] = ['hybrid', 'lexical', 'cache'].map((name) => path.join(root, name)) as [string, string, string];
  await writeFiles(lexicalDir, [
    ...lexical,
    { path: SEMANTIC_META_PATH, body: JSON.stringify({ format: SEMANTIC_FORMAT, enabled: false }) },
  ]);
  const cpu = () => process.cpuUsage().user / 1000;
  const proxy = distractors > PROXY_FROM ? await prefillProxyVectors(documents.filter(isDistractor), cacheDir) : null;
  let started = performance.now();
  const written = await writeSemanticIndex(documents, { enabled: true, cacheDir });
  const semantic = written.files as { path: string; body: Uint8Array | string }[];
  const coldMs = performance.now() - started;
  if (written.projection)
    writeFileSync(path.join(root, PROJECTION_FILE), JSON.stringify({ ...written.projection, axes: [...written.projection.axes] }));
  const coldRssMb = process.resourceUsage().maxRSS / 1024;
  await writeFiles(hybridDir, [...lexical, ...semantic]);
  const edited = documents.map((document, i) => (i === 3 ? { ...document, summary: `${document.summary} One more sentence.` } : document));
  const cpuBefore = cpu();
  started = performance.now();
  await buildSemanticFiles(edited, { enabled: true, cacheDir });
  const editMs = performance.now() - started;
  const bytes = semantic.reduce((sum, { body }) => sum + (typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength), 0);
  const figures = { coldMs, coldRssMb, editMs, editCpuMs: cpu() - cpuBefore, files: semantic.length, mb: bytes / 1024 / 1024, proxy };
  console.log(JSON.stringify(figures));
}

function runDeno(args: string[]): { cpuMs?: number; bytesRead?: number; medians?: number[]; ids?: string[][] } {
  const flags = ['--allow-read', '--allow-env', '--no-prompt', '--v8-flags=--expose-gc'];
  const child = spawnSync(process.execPath, [DENO, 'run', ...flags, DENO_SCRIPT, ...args], { encoding: 'utf8', maxBuffer: 16 << 20 });
  if (child.status !== 0) throw new Error(`deno ${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

/** MRR@10 per class, answered under Deno from `dir`. */
export function relevanceUnderDeno(dir: string, root: string): Record<string, number> {
  const queries = CLASSES.flatMap(([, list]) => list.map(({ q, type }) => ({ q, type: type ?? 'all' })));
  const file = path.join(root, 'queries.json');
  writeFileSync(file, JSON.stringify(queries));
  const { ids } = runDeno(['rank', dir, file]);
  let start = 0;
  return Object.fromEntries(
    CLASSES.map(([name, list]) => {
      const answers = ids!.slice(start, start + list.length);
      start += list.length;
      return [name, scoreRanking(list, answers).mrr];
    }),
  );
}

/** First search (median of fresh isolates) and warm median per query, under Deno. */
export function costUnderDeno(dir: string, root: string) {
  const first = FIRST_QUERIES.map((q) => Array.from({ length: COLD_RUNS }, () => runDeno(['first', dir, q])));
  const file = path.join(root, 'warm.json');
  writeFileSync(file, JSON.stringify(FIRST_QUERIES));
  const warm = runDeno(['warm', dir, file, '20']).medians!;
  return {
    cpuMs: first.map((runs) => median(runs.map(({ cpuMs }) => cpuMs!))),
    bytes: first.map((runs) => runs[0]!.bytesRead!),
    warmMs: warm,
  };
}

/** The documents of a run, numbered as both indexes number them. */
export async function benchDocuments(distractors: number): Promise<SearchDocument[]> {
  const documents = [...(await loadSearchDocuments(CONTENT_DIR)), ...createDocuments(distractors)];
  return documents.sort((a, b) => compareText(a.id, b.id));
}

/**
 * The semantic ranking alone (exact neighbours, no floor) with the full model's query vectors and with the
 * edge encoder's, as MRR@10 on the paraphrase and judged questions; and recall@10 of the approximate search
 * (the probes the edge reads) against the exact one, over the same questions' encoder vectors.
 */
export async function encoderAndRecall(dir: string, documents: readonly SearchDocument[], root: string) {
  const projection = readProjection(root);
  const read = (file: string) => {
    try {
      return new Uint8Array(readFileSync(path.join(dir, file)));
    } catch {
      return null;
    }
  };
  const assets = {
    read: async (file: string) => (read(file) ? new TextDecoder().decode(read(file)!) : null),
    readBytes: async (file: string) => read(file),
  };
  const parts = createSemanticParts(createIndexParts(assets));
  const meta = (await parts.meta())!;
  const model = await loadSentenceModel();
  const range = [0, meta.documents] as const;
  const ids = (near: { document: number }[]) => near.map(({ document }) => documents[document]!.id);
  const exact = (vector: Float64Array | null) =>
    vector ? nearestDocuments(parts, meta, vector, { range, probes: meta.clusters, count: 10, minSimilarity: -1 }) : Promise.resolve([]);
  const quality: Record<string, { full: number; encoder: number }> = {};
  let found = 0;
  let wanted = 0;
  for (const [name, list] of [
    ['paraphrase', paraphraseJudgements],
    ['judged', judgements],
  ] as const) {
    const full = (await model.embed(list.map(({ q }) => q))).map((vector) => normalize(projection ? project(projection, vector) : vector));
    const encoded = await Promise.all(list.map(({ q }) => encodeQuery(parts, meta, q)));
    const fullAnswers = await Promise.all(full.map(async (vector) => ids(await exact(vector))));
    const encoderAnswers = await Promise.all(encoded.map(async (vector) => ids(await exact(vector))));
    quality[name] = { full: scoreRanking(list, fullAnswers).mrr, encoder: scoreRanking(list, encoderAnswers).mrr };
    for (const vector of encoded) {
      if (!vector) continue;
      const truth = await exact(vector);
      const approximate = new Set(
        (await nearestDocuments(parts, meta, vector, { range, count: 10, minSimilarity: -1 })).map(({ document }) => document),
      );
      found += truth.filter(({ document }) => approximate.has(document)).length;
      wanted += truth.length;
    }
  }
  return { quality, recall: found / Math.max(wanted, 1), clusters: meta.clusters };
}

/** Bytes of the edge function bundled whole (esbuild, as a Deno bundler would: every import inlined, minified). */
export async function edgeBundleBytes(): Promise<number> {
  const entry = fileURLToPath(new URL('../netlify/edge-functions/api.ts', import.meta.url));
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  return result.outputFiles.reduce((sum, file) => sum + file.contents.byteLength, 0);
}

export { kb, median };
