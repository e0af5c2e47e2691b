/**
 * Ranking variants that change how a word's fields are weighed (BM25F, length normalisation per field, idf,
 * attribute and exactness buckets), measured outside the engine: every document holding some form of a
 * query's words is scored by each variant from the postings' own (tf, length) pairs, read from a built index
 * with the engine's query plan. The judged questions are split in two halves, a tuning half (even positions)
 * and a held-out half (odd), printed apart, so a knob chosen on one half is checked on the other.
 *
 *   npx tsx bench/search.ts --build N DIR                 an index of content/ plus N synthetic articles
 *   npx tsx bench/ranking-lab-fields.ts DIR N             every class, every variant (VARIANTS=a,b to pick)
 *
 * DISTRACTORS as for bench/ranking-lab.ts. DETAIL=variant prints, for each judged question that variant does
 * not put its record first, the records above it with each word's per-field BM25 parts and form.
 */
import path from 'node:path';
import { blockTable, readBlock } from '../generator/search/record-reader.ts';
import { planQuery } from '../generator/search/query-plan.ts';
import type { DecodedPostings } from '../generator/search/postings-codec.ts';
import { type Judgement, judgements, synonymJudgements } from '../test/helpers/relevance-judgements.ts';
import { questionJudgements } from '../test/helpers/relevance-questions.ts';
import { distractorStyle } from '../test/helpers/synthetic-articles.ts';
import type { Lab } from './ranking-lab-features.ts';
import { chosenVariants, openLabOf, probeOf, reciprocalRanks } from './ranking-lab-runs.ts';
import { VARIANTS, type Hit, type Variant, type Word } from './ranking-lab-variants.ts';

/** Every document of `range` holding some form of `q`'s words: per word, its forms' hits. */
async function hitsOf(lab: Lab, q: string, range: readonly [number, number]) {
  const units = await planQuery(lab.parts, lab.meta, q);
  const types = lab.meta.types;
  const typeOf = (document: number) => types.findIndex(([, first, end]) => document >= first && document < end);
  const words: Word[] = units.map((unit) => ({
    word: unit.word,
    forms: unit.forms,
    dfByType: unit.forms.map(() => types.map(() => [0, 0, 0, 0, 0])),
  }));
  const held = new Map<number, Hit[][]>();
  const add = (u: number, f: number, document: number, { masks, tf, lengths }: DecodedPostings, j: number) => {
    const form = units[u]!.forms[f]!;
    const mask = masks[j]!;
    const type = typeOf(document);
    for (let field = 0; field < 5; field++) if (mask & (1 << field)) words[u]!.dfByType[f]![type]![field]!++;
    if (document < range[0] || document >= range[1] || !(mask & form.fields)) return;
    let perWord = held.get(document);
    if (!perWord) {
      perWord = units.map(() => []);
      held.set(document, perWord);
    }
    const pairs = (column: ArrayLike<number>) => Array.from({ length: 5 }, (_, i) => column[j * 5 + i]!);
    perWord[u]!.push({ form: f, type, mask: mask & form.fields, tf: pairs(tf), lengths: pairs(lengths) });
  };
  units.forEach((unit, u) => {
    unit.forms.forEach((form, f) => {
      const { record } = form;
      const decoded = record.postings ? [record.postings] : Array.from(blockTable(record).block, (_, i) => readBlock(record, i));
      for (const postings of decoded) {
        for (let j = 0; j < postings.docs.length; j++) add(u, f, postings.docs[j]!, postings, j);
      }
    });
  });
  return { words, held };
}

type Split = 'tune' | 'held';
const halves = (list: Judgement[]): Record<Split, Judgement[]> => ({
  tune: list.filter((_, i) => i % 2 === 0),
  held: list.filter((_, i) => i % 2 === 1),
});

/** What a variant reads of the index besides a document's hits: field averages, sizes, titles and ids. */
function scoringContext(lab: Lab) {
  return {
    averages: lab.meta.averageFieldLength,
    documents: lab.meta.documents,
    titles: lab.tokens,
    ids: lab.ids,
    typeSizes: lab.meta.types.map(([, first, end]) => end - first),
  };
}

function topTen(lab: Lab, score: Variant, words: Word[], held: Map<number, Hit[][]>, expected: (number | undefined)[]) {
  const context = scoringContext(lab);
  return [...held]
    .map(([document, hits]) => ({
      document,
      units: Math.round(score(words, hits, context, document, expected.includes(document)) * 10_000),
    }))
    .sort((a, b) => b.units - a.units || a.document - b.document)
    .slice(0, 10)
    .map(({ document }) => document);
}

/** MRR@10 per class and variant; DETAIL's misses explained word by word. */
function measure(lab: Lab, classes: Record<string, Judgement[]>, variants: Record<string, Variant>) {
  const ask = (q: string, range: readonly [number, number]) => hitsOf(lab, q, range);
  return reciprocalRanks(lab, classes, variants, ask, ({ words, held }, score, expected) => topTen(lab, score, words, held, expected), {
    name: process.env.DETAIL,
    missed: ({ variant, judgement, rank, top, question: { words, held }, expected }) =>
      explain(lab, judgement, rank, top, expected, words, held, variant),
  });
}

function explain(
  lab: Lab,
  judgement: Judgement,
  rank: number,
  top: number[],
  expected: (number | undefined)[],
  words: Word[],
  held: Map<number, Hit[][]>,
  score: Variant,
) {
  const context = scoringContext(lab);
  const fieldNames = ['ti', 'tg', 'te', 'su', 'bo'];
  const line = (document: number) => {
    const hits = held.get(document)!;
    const parts = words.map((word, u) => {
      const forms = hits[u]!.map((hit) => {
        const form = word.forms[hit.form]!;
        const fields = fieldNames
          .filter((_, field) => hit.mask & (1 << field))
          .map((name) => {
            const field = fieldNames.indexOf(name);
            return `${name}${hit.tf[field]}/${hit.lengths[field]}`;
          });
        return `${form.kind[0]}:${form.term}[${fields.join(',')}]`;
      });
      return `${word.word}{${forms.join(' ') || '-'}}`;
    });
    const title = lab.sorted[document]!.title.slice(0, 50);
    return `${lab.sorted[document]!.id.slice(0, 40).padEnd(40)} ${score(words, hits, context, document, false).toFixed(2).padStart(7)} "${title}" ${parts.join(' ')}`;
  };
  console.log(`\nrank ${rank < 0 ? '>10' : rank + 1} "${judgement.q}"${judgement.type ? ` (${judgement.type})` : ''}`);
  for (const document of top.slice(0, rank < 0 ? 3 : rank)) console.log(`   ${line(document)}`);
  const asked = expected.find((document) => document !== undefined && held.has(document));
  if (asked !== undefined) console.log(` * ${line(asked)}`);
  else console.log(' * the record asked about holds no form of any word');
}

if (import.meta.url.endsWith(path.basename(process.argv[1] ?? ''))) {
  const [dir, count, only] = process.argv.slice(2);
  const lab = await openLabOf(dir!, Number(count));
  const judged = halves(judgements);
  const all: Record<string, Judgement[]> = {
    tune: judged.tune,
    held: judged.held,
    questions: questionJudgements,
    probe: probeOf(dir!),
    synonyms: synonymJudgements,
  };
  const classes = only ? { [only]: all[only]! } : all;
  const variants = chosenVariants(VARIANTS);
  const totals = await measure(lab, classes, variants);
  console.log(`\nMRR@10 at ${Number(count).toLocaleString('en')} distractors (${distractorStyle()}); judged = (tune + held) / 2:`);
  const names = Object.keys(variants);
  console.log(['variant'.padEnd(28), 'judged', ...Object.keys(classes).map((name) => name.padStart(9))].join(' '));
  for (const name of names) {
    const judgedMrr =
      totals.tune && totals.held
        ? (totals.tune[name]! * judged.tune.length + totals.held[name]! * judged.held.length) / judgements.length
        : Number.NaN;
    console.log(
      [
        name.padEnd(28),
        judgedMrr.toFixed(3).padStart(6),
        ...Object.keys(classes).map((c) => (totals[c]![name] ?? Number.NaN).toFixed(3).padStart(9)),
      ].join(' '),
    );
  }
}
