/**
 * Ranking variants measured outside the engine, before any is built: every document of a built index that
 * some variant may put in a query's top 10 is scored by each variant (ranking-lab-features.ts gives the
 * engine's own per-word figures and where the words sit), on the four relevance classes, and MRR@10 printed
 * per class and variant. `baseline` is the engine's rules and gives the engine's figures.
 *
 *   npx tsx bench/search.ts --build N DIR          an index of content/ plus N synthetic articles, and its probe
 *   npx tsx bench/ranking-lab.ts DIR N [CLASS]     CLASS: judged, questions, probe or synonyms (all by default)
 *
 * DISTRACTORS=titles or independent (test/helpers/synthetic-articles.ts), for both commands: distractors
 * written otherwise (docs/search-measurements.md compares them). VARIANTS=a,b picks variants by name; DETAIL=variant prints, for each query that variant does not put its
 * record first, its top three and the record asked about, with each word's BM25 part and fields.
 */
import path from 'node:path';
import { RANKING } from '../generator/search/ranking.ts';
import { type Judgement, judgements, synonymJudgements } from '../test/helpers/relevance-judgements.ts';
import { questionJudgements } from '../test/helpers/relevance-questions.ts';
import { type Features, featuresOf, type Held, type Lab } from './ranking-lab-features.ts';
import { chosenVariants, openLabOf, probeOf, reciprocalRanks } from './ranking-lab-runs.ts';

type Variant = (features: Features, words: number) => number;

const { upTo, word: wordTier, exact: exactTier } = RANKING.wordsRule;
const saturated = (s: number) => s / (s + RANKING.saturation);

/** The engine's rules (ranking.ts wordScore): the words rule up to 3 words, the complete-match tier above. */
const wordsOnlyOf = (words: (Held | null)[]) => {
  const complete = words.every((word) => word?.exact);
  let score = 0;
  for (const word of words) {
    if (!word) continue;
    score += words.length <= upTo ? wordTier + (word.exact ? exactTier : 0) : complete ? wordTier : 0;
    score += saturated(word.best);
  }
  return score;
};

interface Knobs {
  /** Times the share of the query's neighbouring word pairs found next to each other, queries of up to 3 words. */
  adjacentShort?: number;
  /** The same for longer questions. */
  adjacentLong?: number;
  /** Times the share of the query's words found within 10 terms of each other. */
  window?: number;
  /**
   * Times the query's words found in the title (exactly) over the title's terms, repeats counted (at least the
   * query's words): title coverage, with the title's length as the index keeps it.
   */
  title?: number;
  /** The same over the title's distinct tokens, stop words included (MiniSearch's field length). */
  titleTokens?: number;
  /** The same over the title's distinct terms, and over all its tokens (stop words and repeats in). */
  titleDistinct?: number;
  titleAll?: number;
}

/** The words' parts plus the parts `knobs` turn on, each below the exact tier (so the search rules keep holding). */
const variant =
  (knobs: Knobs): Variant =>
  (features, words) => {
    const pairs = Math.max(1, words - 1);
    const inTitle = features.words.filter((word) => word?.exact && word.fields & 1).length;
    const adjacent = (words <= upTo ? knobs.adjacentShort : knobs.adjacentLong) ?? 0;
    return (
      wordsOnlyOf(features.words) +
      (words > 1 ? (adjacent * features.adjacent) / pairs : 0) +
      ((knobs.window ?? 0) * features.window) / words +
      (features.titleLength ? ((knobs.title ?? 0) * inTitle) / Math.max(features.titleLength, words) : 0) +
      (features.titleTokens ? ((knobs.titleTokens ?? 0) * inTitle) / Math.max(features.titleTokens, words) : 0) +
      (features.titleDistinct ? ((knobs.titleDistinct ?? 0) * inTitle) / Math.max(features.titleDistinct, words) : 0) +
      (features.titleAll ? ((knobs.titleAll ?? 0) * inTitle) / Math.max(features.titleAll, words) : 0)
    );
  };

const grid = (name: string, values: number[], make: (value: number) => Knobs) =>
  Object.fromEntries(values.map((value) => [`${name}${value}`, variant(make(value))]));

const VARIANTS: Record<string, Variant> = {
  /** The engine's rules (ranking.ts wordScore). */
  baseline: (features) => wordsOnlyOf(features.words),
  ...grid('adjacentShort', [1, 2], (value) => ({ adjacentShort: value })),
  ...grid('adjacentLong', [0.5, 1], (value) => ({ adjacentLong: value })),
  ...grid('window', [0.5, 1], (value) => ({ window: value })),
  ...grid('title', [0.5, 1, 2], (value) => ({ title: value })),
  ...grid('titleDistinct', [0.2, 0.5], (value) => ({ titleDistinct: value })),
  ...grid('titleTokens', [0.2], (value) => ({ titleTokens: value })),
  ...grid('titleAll', [0.5], (value) => ({ titleAll: value })),
  ...grid('titleAdjacentShort', [0.5, 1], (value) => ({ title: value, adjacentShort: 1 })),
  ...grid('titleAdjacentBoth', [0.5], (value) => ({ title: 1, adjacentShort: 1, adjacentLong: value })),
};
/** Every variant adds less than this to the baseline: documents further below the tenth cannot reach the top 10. */
const MARGIN = 3.5;

function topTen(score: Variant, list: Features[], words: number): number[] {
  return list
    .map((features) => ({ document: features.document, units: Math.round(score(features, words) * 10_000) }))
    .sort((a, b) => b.units - a.units || a.document - b.document)
    .slice(0, 10)
    .map(({ document }) => document);
}

function describe(lab: Lab, features: Features, words: string[], score: number): string {
  const held = features.words
    .map((word, u) => (word ? `${words[u]}:${word.exact ? 'e' : 'n'}${word.best.toFixed(1)}/${word.fields.toString(2)}` : `${words[u]}:-`))
    .join(' ');
  const id = lab.sorted[features.document]!.id.slice(0, 48).padEnd(48);
  return `${id} ${score.toFixed(2).padStart(7)} adjacent ${features.adjacent} window ${features.window} title ${features.titleLength} | ${held}`;
}

/** MRR@10 per class and variant; DETAIL's misses printed with their top three and the record asked about. */
function measure(lab: Lab, classes: Record<string, Judgement[]>, variants: Record<string, Variant>) {
  const ask = (q: string, range: readonly [number, number]) => featuresOf(lab, q, range, wordsOnlyOf, MARGIN);
  return reciprocalRanks(lab, classes, variants, ask, ({ words, list }, score) => topTen(score, list, words.length), {
    name: process.env.DETAIL,
    missed: ({ className, variant: score, judgement, rank, top, question: { words, list }, expected }) => {
      const byDocument = new Map(list.map((f) => [f.document, f]));
      const line = (document: number) => describe(lab, byDocument.get(document)!, words, score(byDocument.get(document)!, words.length));
      console.log(`\n[${className}] rank ${rank < 0 ? '>10' : rank + 1} "${judgement.q}"`);
      for (const document of top.slice(0, 3)) console.log(`   ${line(document)}`);
      const asked = expected.find((document) => document !== undefined && byDocument.has(document));
      if (asked !== undefined && !top.slice(0, 3).includes(asked)) console.log(` * ${line(asked)}`);
    },
  });
}

if (import.meta.url.endsWith(path.basename(process.argv[1] ?? ''))) {
  const [dir, count, only] = process.argv.slice(2);
  const lab = await openLabOf(dir!, Number(count));
  const all: Record<string, Judgement[]> = {
    judged: judgements,
    questions: questionJudgements,
    probe: probeOf(dir!),
    synonyms: synonymJudgements,
  };
  const classes = only ? { [only]: all[only]! } : all;
  const totals = await measure(lab, classes, chosenVariants(VARIANTS));
  console.log(`\nMRR@10 at ${Number(count).toLocaleString('en')} distractors:`);
  for (const [name, byVariant] of Object.entries(totals)) {
    console.log(
      `${name.padEnd(10)} ${Object.entries(byVariant)
        .map(([variantName, mrr]) => `${variantName} ${mrr.toFixed(3)}`)
        .join('  ')}`,
    );
  }
}
