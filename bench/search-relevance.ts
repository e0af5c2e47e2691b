/**
 * Relevance beside speed in the search benchmark: the judged questions on content/, the "words only its
 * body has" probe and the synonym class, answered under Deno by the same index the speed figures use (the
 * content's documents plus N synthetic distractors, with the site's synonyms), as MRR@10 and recall@10.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { synonymsSchema } from '../generator/schemas/synonyms.ts';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { createSynonymTable, type SynonymTable } from '../generator/search/synonyms.ts';
import { bodyWordsProbe, type Judgement, judgements, scoreRanking, synonymJudgements } from '../test/helpers/relevance-judgements.ts';
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
  probe: { mrr: number; recall: number; queries: number };
  synonyms: { mrr: number; recall: number };
}

/** Every class's queries answered by `rank` (ids in order per query), scored. */
export function measureClasses(dir: string, rank: (queries: { q: string; type: string }[]) => string[][]): Relevance {
  const probe: Judgement[] = JSON.parse(readFileSync(path.join(dir, PROBE_FILE), 'utf8'));
  const classes = [judgements, probe, synonymJudgements];
  const answers = rank(classes.flat().map(({ q, type }) => ({ q, type: type ?? 'all' })));
  const starts = classes.map((_, i) => classes.slice(0, i).reduce((sum, list) => sum + list.length, 0));
  const [judged, probed, synonyms] = classes.map((list, i) => scoreRanking(list, answers.slice(starts[i], starts[i]! + list.length)));
  return { judged: judged!, probe: { ...probed!, queries: probe.length }, synonyms: synonyms! };
}
