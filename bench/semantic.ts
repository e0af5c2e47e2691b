/**
 * Semantic search beside lexical-only search, in one run: the content's documents plus N synthetic
 * distractors, indexed as the build indexes them (lexical parts, and the semantic parts made with the real
 * model), answered under Deno as on Netlify Edge. Prints, per size: MRR@10 of the paraphrase questions, the
 * judged questions and the synonym class (lexical-only, hybrid); the query encoder against the full model on
 * the same questions (semantic ranking alone); recall@10 of the approximate neighbour search against the exact
 * one; the first search's CPU in a fresh isolate, bytes read and warm time (both engines); the vector step's
 * build time and peak memory, cold and after a one-record edit; the edge bundle's size.
 * Run alone with `npx tsx bench/semantic.ts [distractors...]` (default 0 1000). Past 4,000 distractors
 * their vectors are proxies (semantic-proxy.ts): the model embeds a few records a second a core here, so
 * 100,000 would take hours cold.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  benchDocuments,
  buildInChild,
  costUnderDeno,
  edgeBundleBytes,
  encoderAndRecall,
  FIRST_QUERIES,
  kb,
  median,
  relevanceUnderDeno,
} from './semantic-measures.ts';
import { figuresFromChild } from './child-figures.ts';

interface BuildFigures {
  coldMs: number;
  coldRssMb: number;
  editMs: number;
  editCpuMs: number;
  files: number;
  mb: number;
  proxy: { perSecond: number; cores: number; words: number; wordMs: number } | null;
}

function buildIndexes(distractors: number, root: string): BuildFigures {
  return figuresFromChild(import.meta.url, [String(distractors), root]);
}

const f3 = (value: number) => value.toFixed(3);
const ms = (values: number[]) => values.map((value) => value.toFixed(1)).join(' / ');

async function measureSize(distractors: number): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-semantic-'));
  try {
    const build = buildIndexes(distractors, root);
    const [hybrid, lexical] = [path.join(root, 'hybrid'), path.join(root, 'lexical')];
    const relevance = { lexical: relevanceUnderDeno(lexical, root), hybrid: relevanceUnderDeno(hybrid, root) };
    const { quality, recall, clusters } = await encoderAndRecall(hybrid, await benchDocuments(distractors), root);
    const cost = { lexical: costUnderDeno(lexical, root), hybrid: costUnderDeno(hybrid, root) };
    console.log(
      `\n### ${distractors.toLocaleString('en')} distractors (${clusters} clusters; load average ${os.loadavg()[0]!.toFixed(1)})`,
    );
    if (build.proxy)
      console.log(
        `Distractor vectors: bag-of-words proxies of the model's word vectors (bench/semantic-proxy.ts), not the model's: ` +
          "relevance below is an estimate; sizes, bytes, times and recall are the index's own.",
      );
    console.log('| MRR@10 | lexical-only | hybrid | ratio |');
    console.log('|---|---:|---:|---:|');
    for (const name of ['paraphrase', 'judged', 'synonyms'])
      console.log(
        `| ${name} | ${f3(relevance.lexical[name]!)} | ${f3(relevance.hybrid[name]!)} | ${(relevance.hybrid[name]! / relevance.lexical[name]!).toFixed(2)}x |`,
      );
    console.log('\nSemantic ranking alone (exact neighbours), MRR@10: query vectors from the full model vs the edge encoder');
    for (const [name, { full, encoder }] of Object.entries(quality))
      console.log(`- ${name}: full model ${f3(full)}, edge encoder ${f3(encoder)} (${((100 * encoder) / full).toFixed(0)}% of the model)`);
    console.log(`- recall@10 of the approximate search (4 clusters read) against the exact one: ${f3(recall)}`);
    console.log(`\nUnder Deno, per query (${FIRST_QUERIES.join('; ')}):`);
    for (const engine of ['lexical', 'hybrid'] as const) {
      const { cpuMs, bytes, warmMs } = cost[engine];
      console.log(
        `- ${engine}: first search CPU ${ms(cpuMs)} ms (median ${median(cpuMs).toFixed(1)}), read ${bytes.map(kb).join(' / ')}, warm ${ms(warmMs)} ms`,
      );
    }
    const ratio = median(cost.hybrid.cpuMs) / median(cost.lexical.cpuMs);
    console.log(`- hybrid / lexical first-search CPU (medians): ${ratio.toFixed(2)}x`);
    console.log(
      `\nVector step (model, encoder, index): cold ${(build.coldMs / 1000).toFixed(1)} s at ${Math.round(build.coldRssMb)} MB peak RSS; ` +
        `after a one-record edit ${(build.editMs / 1000).toFixed(1)} s; ${build.files} files, ${build.mb.toFixed(1)} MB`,
    );
    if (build.proxy) {
      const { perSecond, cores, words, wordMs } = build.proxy;
      const hours = distractors / perSecond / 3600;
      console.log(
        `- with the distractors' vectors given: the model embedded ${words.toLocaleString('en')} of their words beforehand in ${(wordMs / 1000).toFixed(0)} s; ` +
          `it embeds ${perSecond.toFixed(1)} records a second on ${cores} threads, so their own vectors would add about ${hours.toFixed(1)} h cold`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export async function benchSemantic(sizes: number[] = [0, 1000]): Promise<void> {
  console.log('\n## Semantic search (content plus synthetic distractors, under Deno)');
  console.log(`Edge bundle (esbuild of netlify/edge-functions/api.ts, minified): ${kb(await edgeBundleBytes())}`);
  for (const size of sizes) await measureSize(size);
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const [flag, ...rest] = process.argv.slice(2);
  if (flag === '--build') await buildInChild(Number(rest[0]), rest[1]!);
  else await benchSemantic([flag, ...rest].filter(Boolean).map(Number).length ? [flag, ...rest].filter(Boolean).map(Number) : undefined);
}
