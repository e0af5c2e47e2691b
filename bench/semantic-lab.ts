/**
 * The levers of semantic search measured in one process over `content/` (no distractors): the fusion's knobs,
 * the query vector (the edge encoder's or the full model's), the writer's knobs, and per question where its
 * record ranks lexically, by meaning and fused. Prints MRR@10 of the paraphrase and judged questions side by
 * side with lexical-only search. The vector cache is copied to a temporary folder first, so texts embedded
 * for a variant never enter the build's own cache.
 *
 *   npx tsx bench/semantic-lab.ts [fusion|writer|questions]...   (all three by default)
 *
 * LAB_DISTRACTORS=N adds N synthetic distractors (the model embeds each: minutes per thousand here);
 * LAB_CACHE=DIR keeps the copied vector cache in DIR between runs.
 */
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryAssets } from '../generator/edge/assets.ts';
import { writeSemanticIndex } from '../generator/pipeline/outputs/semantic/semantic-files.ts';
import { loadSentenceModel, type SentenceModel } from '../generator/pipeline/outputs/semantic/sentence-model.ts';
import { VECTOR_CACHE_DIR } from '../generator/pipeline/outputs/semantic/vector-cache.ts';
import { createIndexParts } from '../generator/search/index-reader.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { writeSearchIndex } from '../generator/search/index-writer.ts';
import { planQuery } from '../generator/search/query-plan.ts';
import { rank } from '../generator/search/scoring.ts';
import { fuseWithLexical } from '../generator/semantic/hybrid-rank.ts';
import { type Projection, project } from '../generator/semantic/projection.ts';
import { encodeQuery } from '../generator/semantic/query-encoder.ts';
import { SEMANTIC } from '../generator/semantic/semantic-ranking.ts';
import { createSemanticParts } from '../generator/semantic/semantic-reader.ts';
import { normalize } from '../generator/semantic/vector-part.ts';
import { nearestDocuments } from '../generator/semantic/vector-search.ts';
import { paraphraseJudgements } from '../test/helpers/paraphrase-judgements.ts';
import { type Judgement, judgements, scoreRanking } from '../test/helpers/relevance-judgements.ts';
import { siteSynonyms } from './search-relevance.ts';
import { benchDocuments, CONTENT_DIR } from './semantic-measures.ts';

type Knobs = Partial<Record<keyof typeof SEMANTIC, number>>;
/**
 * The query's vector: the edge encoder's, the full model's, none (lexical only), or `oracle`: the encoder's
 * neighbours with the question's record put first at similarity 1, as a perfect model would: the most any
 * model can give under the fusion's rules.
 */
type QueryVector = 'encoder' | 'model' | 'none' | 'oracle';

const TOP = 10;
const CLASSES = [
  ['paraphrase', paraphraseJudgements],
  ['judged', judgements],
] as const;
const defaults = { ...SEMANTIC };
const setKnobs = (knobs: Knobs) => Object.assign(SEMANTIC as Knobs, defaults, knobs);

interface Lab {
  documents: SearchDocument[];
  files: Map<string, string | Uint8Array>;
  projection: Projection | null;
}

/** `documents` as the semantic index sees them: each body cut to its first `bodyWords` words (all when null). */
const cutBodies = (documents: SearchDocument[], bodyWords: number | null) =>
  bodyWords === null ? documents : documents.map((d) => ({ ...d, body: d.body.split(/\s+/).slice(0, bodyWords).join(' ') }));

async function buildLab(documents: SearchDocument[], cacheDir: string, knobs: Knobs = {}, bodyWords: number | null = null): Promise<Lab> {
  setKnobs(knobs);
  const files = new Map<string, string | Uint8Array>();
  for (const { path: file, body } of writeSearchIndex(documents, undefined, siteSynonyms(CONTENT_DIR))) files.set(file, body);
  const semantic = await writeSemanticIndex(cutBodies(documents, bodyWords), { enabled: true, cacheDir });
  for (const file of semantic.files) if ('body' in file) files.set(file.path, file.body);
  setKnobs({});
  return { documents, files, projection: semantic.projection };
}

/** Each question's top ten ids: lexical only, or fused with the encoder's or the full model's query vector. */
async function answers(lab: Lab, list: readonly Judgement[], query: QueryVector, model: SentenceModel | null): Promise<string[][]> {
  const parts = createIndexParts(createMemoryAssets(lab.files));
  const semantic = createSemanticParts(parts);
  const meta = await parts.meta();
  const semanticMeta = (await semantic.meta())!;
  const full = query === 'model' ? await model!.embed(list.map(({ q }) => q)) : [];
  const out: string[][] = [];
  const numberOf = new Map(lab.documents.map(({ id }, document) => [id, document]));
  for (const [i, { q, type, expect }] of list.entries()) {
    const t = meta.types.findIndex(([name]) => name === type);
    const range: [number, number] = !type || type === 'all' ? [0, meta.documents] : [meta.types[t]![1], meta.types[t]![2]];
    const units = await planQuery(parts, meta, q);
    const options = { range, offset: 0, limit: TOP };
    let page = rank(units, meta, options).page;
    const vector =
      query === 'encoder' || query === 'oracle'
        ? await encodeQuery(semantic, semanticMeta, q)
        : query === 'model'
          ? normalize(lab.projection ? project(lab.projection, full[i]!) : Float64Array.from(full[i]!))
          : null;
    if (vector) {
      let neighbours = await nearestDocuments(semantic, semanticMeta, vector, { range });
      const wanted = numberOf.get(expect[0]!);
      if (query === 'oracle' && wanted !== undefined) {
        neighbours = [{ document: wanted, similarity: 1 }, ...neighbours.filter(({ document }) => document !== wanted)];
      }
      page = fuseWithLexical(meta, units, neighbours, options).page;
    }
    out.push(page.map(({ document }) => lab.documents[document]!.id));
  }
  return out;
}

async function mrr(lab: Lab, query: QueryVector, model: SentenceModel | null, knobs: Knobs = {}) {
  setKnobs(knobs);
  const scores: number[] = [];
  for (const [, list] of CLASSES) scores.push(scoreRanking(list, await answers(lab, list, query, model)).mrr);
  setKnobs({});
  return scores;
}

const f3 = (value: number) => value.toFixed(3);

async function fusionTable(lab: Lab, model: SentenceModel) {
  console.log('\n| variant | paraphrase, encoder | judged, encoder | paraphrase, full model | judged, full model |');
  console.log('|---|---:|---:|---:|---:|');
  const [lexParaphrase, lexJudged] = await mrr(lab, 'none', null);
  console.log(`| lexical-only | ${f3(lexParaphrase!)} | ${f3(lexJudged!)} | | |`);
  const variants: [string, Knobs][] = [
    ['kept knobs', {}],
    ...[0.55, 0.6, 0.65, 0.7, 0.8].map((share): [string, Knobs] => [`lexical share ${share}`, { lexicalShare: share }]),
    ['40 candidates', { candidates: 40 }],
    ['floor 0.05', { minSimilarity: 0.05 }],
    ['floor 0.2', { minSimilarity: 0.2 }],
    ['lexical depth 40', { lexicalDepth: 40 }],
    ['lexical share 0.7, floor 0.2', { lexicalShare: 0.7, minSimilarity: 0.2 }],
    ['lexical share 0.65, floor 0.2', { lexicalShare: 0.65, minSimilarity: 0.2 }],
    ['lexical share 0.7, floor 0.15', { lexicalShare: 0.7, minSimilarity: 0.15 }],
  ];
  for (const share of [defaults.lexicalShare, 0.6, 0.5, 0]) {
    const oracle = await mrr(lab, 'oracle', model, { lexicalShare: share });
    console.log(`| a perfect model (its record first by meaning), lexical share ${share} | ${f3(oracle[0]!)} | ${f3(oracle[1]!)} | | |`);
  }
  for (const [name, knobs] of variants) {
    const encoder = await mrr(lab, 'encoder', model, knobs);
    const full = await mrr(lab, 'model', model, knobs);
    console.log(`| ${name} | ${f3(encoder[0]!)} | ${f3(encoder[1]!)} | ${f3(full[0]!)} | ${f3(full[1]!)} |`);
  }
}

async function writerTable(documents: SearchDocument[], cacheDir: string, model: SentenceModel) {
  console.log('\n| writer knobs | paraphrase, encoder | judged, encoder | paraphrase, full model | judged, full model |');
  console.log('|---|---:|---:|---:|---:|');
  const variants: [string, Knobs, number | null][] = [
    ['kept', {}, null],
    ['record text: title, summary, tags, terms (no body)', {}, 0],
    ['record text: 30 body words', {}, 30],
    ['context weight 0.2', { contextWeight: 0.2 }, null],
    ['context weight 0.6', { contextWeight: 0.6 }, null],
    ['context weight 0.8', { contextWeight: 0.8 }, null],
    ['256 dimensions', { projectedDimensions: 256 }, null],
    ['512 dimensions (none cut)', { projectedDimensions: 0 }, null],
  ];
  for (const [name, knobs, bodyWords] of variants) {
    const lab = await buildLab(documents, cacheDir, knobs, bodyWords ?? null);
    const encoder = await mrr(lab, 'encoder', model, knobs);
    const full = await mrr(lab, 'model', model, knobs);
    console.log(`| ${name} | ${f3(encoder[0]!)} | ${f3(encoder[1]!)} | ${f3(full[0]!)} | ${f3(full[1]!)} |`);
  }
}

/** Per paraphrase question: its record's rank (1-based, - past 10) lexically, fused with the encoder, fused with the model. */
async function questionTable(lab: Lab, model: SentenceModel) {
  const list = paraphraseJudgements;
  const lexical = await answers(lab, list, 'none', model);
  const encoder = await answers(lab, list, 'encoder', model);
  const full = await answers(lab, list, 'model', model);
  const at = (ids: string[], expect: readonly string[]) => {
    const i = ids.findIndex((id) => expect.includes(id));
    return i < 0 ? '-' : String(i + 1);
  };
  console.log('\n| question | lexical | hybrid, encoder | hybrid, full model | first by the encoder |');
  console.log('|---|---:|---:|---:|---|');
  for (const [i, { q, expect }] of list.entries())
    console.log(`| ${q} | ${at(lexical[i]!, expect)} | ${at(encoder[i]!, expect)} | ${at(full[i]!, expect)} | ${encoder[i]![0] ?? ''} |`);
}

const chosen = process.argv.slice(2);
const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);
const distractors = Number(process.env.LAB_DISTRACTORS ?? 0);
const cacheDir = process.env.LAB_CACHE ?? mkdtempSync(path.join(os.tmpdir(), 'semantic-lab-'));
try {
  if (!existsSync(path.join(cacheDir, 'copied'))) {
    cpSync(VECTOR_CACHE_DIR, cacheDir, { recursive: true });
    writeFileSync(path.join(cacheDir, 'copied'), '');
  }
  const documents = await benchDocuments(distractors);
  const model = await loadSentenceModel();
  console.log(
    `## Semantic levers on content/ plus ${distractors} distractors (${documents.length} records; load average ${os.loadavg()[0]!.toFixed(1)})`,
  );
  const lab = await buildLab(documents, cacheDir);
  if (wanted('fusion')) await fusionTable(lab, model);
  if (wanted('questions')) await questionTable(lab, model);
  if (wanted('writer')) await writerTable(documents, cacheDir, model);
} finally {
  if (!process.env.LAB_CACHE) rmSync(cacheDir, { recursive: true, force: true });
}
