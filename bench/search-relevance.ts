/**
 * Relevance beside speed in the search benchmark: the judged questions on content/, the second, independent
 * set of questions asked in natural language, the "words only its body has" probe and the synonym class,
 * answered under Deno by the same index the speed figures use (the content's documents plus N synthetic
 * distractors, with the site's synonyms), as MRR@10 and recall@10, and the goals at 100,000 distractors.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { synonymsSchema } from '../generator/schemas/synonyms.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { createSynonymTable, type SynonymTable } from '../generator/search/synonyms.ts';
import { bodyWordsProbe, type Judgement, judgements, scoreRanking, synonymJudgements } from '../test/helpers/relevance-judgements.ts';
import { questionJudgements } from '../test/helpers/relevance-questions.ts';
import { loadSearchDocuments } from '../test/helpers/search-documents.ts';

const PROBE_FILE = 'probe.json';

/** The site's synonyms, as the build reads them. */
export function siteSynonyms(contentDir: string): SynonymTable {
  return createSynonymTable(synonymsSchema.parse(parse(readFileSync(path.join(contentDir, 'synonyms.yaml'), 'utf8'))));
}

/** The content's documents followed by the distractors; the probe over the distractors written beside the index. */
export async function withContent(contentDir: string, synthetic: SearchDocument[], dir: string): Promise<SearchDocument[]> {
  const all = [...(await loadSearchDocuments(contentDir)), ...synthetic];
  writeFileSync(path.join(dir, PROBE_FILE), JSON.stringify(synthetic.length ? bodyWordsProbe(all, synthetic) : []));
  return all;
}

export interface Relevance {
  judged: { mrr: number; recall: number };
  questions: { mrr: number; recall: number };
  probe: { mrr: number; recall: number; queries: number };
  synonyms: { mrr: number; recall: number };
}

/** Every class's queries answered by `rank` (ids in order per query), scored. */
export function measureClasses(dir: string, rank: (queries: { q: string; type: string }[]) => string[][]): Relevance {
  const probe: Judgement[] = JSON.parse(readFileSync(path.join(dir, PROBE_FILE), 'utf8'));
  const classes = [judgements, questionJudgements, probe, synonymJudgements];
  const answers = rank(classes.flat().map(({ q, type }) => ({ q, type: type ?? 'all' })));
  const starts = classes.map((_, i) => classes.slice(0, i).reduce((sum, list) => sum + list.length, 0));
  const [judged, questions, probed, synonyms] = classes.map((list, i) =>
    scoreRanking(list, answers.slice(starts[i], starts[i]! + list.length)),
  );
  return { judged: judged!, questions: questions!, probe: { ...probed!, queries: probe.length }, synonyms: synonyms! };
}

const fixed = (value: number, digits = 3) => value.toFixed(digits);
const pair = ({ mrr, recall }: { mrr: number; recall: number }) => `${fixed(mrr)} / ${fixed(recall)}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * The relevance table, one row per size, with the first search's CPU beside it (what a ranking rule costs
 * shows there), and the goals at 100,000 distractors against the row with none.
 */
export function printRelevance(rows: { docs: number; relevance: Relevance; first?: { cpuMs: number[] } }[]): void {
  console.log(
    '\nRelevance at each size, answered under Deno by the same index (content/ plus the synthetic documents, with content/synonyms.yaml):\n',
  );
  console.log(
    `| distractors | judged questions (${judgements.length}) MRR@10 / recall@10 | natural-language questions (${questionJudgements.length}) MRR@10 / recall@10 | body-words probe in top 10 (MRR@10) | synonym class MRR@10 / recall@10 | first search CPU, Deno, median (max) |`,
  );
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const { docs, relevance: r, first } of rows) {
    const probe = r.probe.queries ? `${fixed(r.probe.recall * 100, 0)}% of ${r.probe.queries} (${fixed(r.probe.mrr)})` : 'n/a';
    const cpu = first ? `${fixed(median(first.cpuMs), 1)} ms (${fixed(Math.max(...first.cpuMs), 1)})` : 'n/a';
    console.log(`| ${docs.toLocaleString('en')} | ${pair(r.judged)} | ${pair(r.questions)} | ${probe} | ${pair(r.synonyms)} | ${cpu} |`);
  }
  const none = rows.find((row) => row.docs === 0)?.relevance;
  const big = rows.find((row) => row.docs === 100_000)?.relevance;
  if (!none || !big) return;
  const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const lines = (['judged', 'questions'] as const).map((suite) => {
    const drop = none[suite].mrr - big[suite].mrr;
    return `${suite} MRR@10 at 100,000 is ${fixed(drop)} below no distractors (goal <= 0.02) ${verdict(drop <= 0.02)}`;
  });
  lines.push(
    `body-words probe at 100,000: ${fixed(big.probe.recall * 100, 0)}% (goal >= 95%) ${verdict(big.probe.recall >= 0.95)}`,
    `synonym class at 100,000: MRR@10 ${fixed(big.synonyms.mrr)} (goal >= 0.9) ${verdict(big.synonyms.mrr >= 0.9)}`,
  );
  console.log(lines.join('\n'));
}
