/**
 * What both ranking labs (ranking-lab.ts, ranking-lab-fields.ts) do around their variants: open a built index
 * with the documents it was made from, pick the variants `VARIANTS` names, and add up MRR@10 per class of
 * questions and variant. Each lab brings how it reads one question and how a variant ranks it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Judgement } from '../test/helpers/relevance-judgements.ts';
import { loadSearchDocuments } from '../test/helpers/search-documents.ts';
import { createDocuments, distractorStyle } from '../test/helpers/synthetic-articles.ts';
import { type Lab, openLab } from './ranking-lab-features.ts';

/** The index in `dir`, with content/ and `count` synthetic articles as it was built from them. */
export async function openLabOf(dir: string, count: number): Promise<Lab> {
  const content = fileURLToPath(new URL('../content', import.meta.url));
  return openLab(dir, [...(await loadSearchDocuments(content)), ...createDocuments(count, distractorStyle())]);
}

/** The body-words probe that `bench/search.ts --build` wrote beside the index. */
export const probeOf = (dir: string): Judgement[] => JSON.parse(readFileSync(path.join(dir, 'probe.json'), 'utf8'));

/** The variants `VARIANTS=a,b` names, or all of them. */
export function chosenVariants<V>(all: Record<string, V>): Record<string, V> {
  const chosen = process.env.VARIANTS ? process.env.VARIANTS.split(',') : undefined;
  return chosen ? Object.fromEntries(chosen.map((name) => [name, all[name]!])) : all;
}

/** One question a variant did not put its record first for. */
export interface Miss<Question, V> {
  className: string;
  variant: V;
  judgement: Judgement;
  rank: number;
  top: number[];
  question: Question;
  expected: (number | undefined)[];
}

/**
 * MRR@10 per class and variant. `ask` reads a question once (its documents, in the judgement's collection);
 * `topTen` ranks them by one variant; `missed` hears each question the variant named `detail` does not put first.
 */
export async function reciprocalRanks<Question, V>(
  lab: Lab,
  classes: Record<string, Judgement[]>,
  variants: Record<string, V>,
  ask: (q: string, range: readonly [number, number]) => Promise<Question>,
  topTen: (question: Question, variant: V, expected: (number | undefined)[]) => number[],
  detail?: { name: string | undefined; missed: (miss: Miss<Question, V>) => void },
) {
  const numbers = new Map(lab.sorted.map((document, i) => [document.id, i]));
  const totals: Record<string, Record<string, number>> = {};
  for (const [className, list] of Object.entries(classes)) {
    totals[className] = {};
    for (const judgement of list) {
      const type = lab.meta.types.find(([typeName]) => typeName === (judgement.type ?? 'all'));
      const range = type ? ([type[1], type[2]] as const) : ([0, lab.meta.documents] as const);
      const question = await ask(judgement.q, range);
      const expected = judgement.expect.map((id) => numbers.get(id));
      for (const [variantName, variant] of Object.entries(variants)) {
        const top = topTen(question, variant, expected);
        const rank = top.findIndex((document) => expected.includes(document));
        totals[className]![variantName] = (totals[className]![variantName] ?? 0) + (rank < 0 ? 0 : 1 / (rank + 1)) / list.length;
        if (variantName === detail?.name && rank !== 0) detail.missed({ className, variant, judgement, rank, top, question, expected });
      }
    }
  }
  return totals;
}
