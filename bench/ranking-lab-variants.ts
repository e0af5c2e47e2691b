/**
 * The variants bench/ranking-lab-fields.ts scores: each takes a document's hits (per query word, each form's
 * fields with their (tf, length) pairs) and returns its score. `baseline` is the engine's rules
 * (ranking.ts wordScore over postings-codec.ts blockScore) and gives the engine's figures.
 */
import type { Form } from '../generator/search/prepared-form.ts';
import { idfOf, RANKING, SEARCH_FIELDS, wordScore, wordsRuleFor } from '../generator/search/ranking.ts';

export interface Word {
  word: string;
  forms: Form[];
  /** Per form, per type, per field: documents holding it (all fields, whatever the form's). */
  dfByType: number[][][];
}

/** One form of a word in one document: its fields (mask, already limited to the form's) and their pairs. */
export interface Hit {
  form: number;
  /** The document's type (index in the index's types). */
  type: number;
  mask: number;
  tf: number[];
  lengths: number[];
}

export interface Context {
  averages: readonly number[];
  documents: number;
  /** Per document its terms field after field and where each field starts (ranking-lab-features.ts openLab). */
  titles: { terms: Int32Array; starts: number[] }[];
  ids: Map<string, number>;
  typeSizes: number[];
}

export type Variant = (words: Word[], hits: Hit[][], context: Context, document: number, expected: boolean) => number;

const BOOSTS = SEARCH_FIELDS.map((field) => RANKING.boosts[field]);
const { k, b, d } = RANKING.bm25;

/** How one form's fields are weighed into its word's part s. */
type FieldScore = (word: Word, hit: Hit, context: Context) => number;

/** The engine's: Σ over fields of boost * per-field idf * BM25+ (weights already hold boost * idf, capped for neighbours). */
const perField =
  (bs: readonly number[] = SEARCH_FIELDS.map(() => b), ks: readonly number[] = SEARCH_FIELDS.map(() => k)): FieldScore =>
  (word, hit, { averages }) => {
    const form = word.forms[hit.form]!;
    let sum = 0;
    for (let field = 0; field < 5; field++) {
      if (!(hit.mask & (1 << field))) continue;
      const tf = hit.tf[field]!;
      const norm = 1 - bs[field]! + (bs[field]! * hit.lengths[field]!) / averages[field]!;
      sum += form.record.weights[field]! * (d + (tf * (ks[field]! + 1)) / (tf + ks[field]! * norm));
    }
    return form.weight * sum;
  };

/** The idf of the word's own term over whole documents (a neighbour's capped at it). */
function documentIdf(word: Word, form: Form, documents: number): number {
  const own = word.forms.find((candidate) => candidate.kind === 'exact');
  const idf = idfOf(documents, form.record.docCount);
  return own ? Math.min(idf, idfOf(documents, own.record.docCount)) : idf;
}

/**
 * BM25F (Robertson, Zaragoza): each field's tf normalised by its own length, weighted by its boost and summed
 * before one saturation, times the document-level idf; BM25+'s delta once.
 */
const bm25f =
  (kk: number, bs: readonly number[], scale: number): FieldScore =>
  (word, hit, { averages, documents }) => {
    const form = word.forms[hit.form]!;
    let pseudo = 0;
    for (let field = 0; field < 5; field++) {
      if (!(hit.mask & (1 << field))) continue;
      pseudo += (BOOSTS[field]! * hit.tf[field]!) / (1 - bs[field]! + (bs[field]! * hit.lengths[field]!) / averages[field]!);
    }
    return scale * form.weight * documentIdf(word, form, documents) * (d + (pseudo * (kk + 1)) / (pseudo + kk));
  };

/** Per field as the engine, but with the document-level idf in every field (no field's rarity of its own). */
const perFieldDocumentIdf: FieldScore = (word, hit, { averages, documents }) => {
  const form = word.forms[hit.form]!;
  const idf = documentIdf(word, form, documents);
  let sum = 0;
  for (let field = 0; field < 5; field++) {
    if (!(hit.mask & (1 << field))) continue;
    const tf = hit.tf[field]!;
    sum += BOOSTS[field]! * idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * hit.lengths[field]!) / averages[field]!)));
  }
  return form.weight * sum;
};

/** Per field as the engine, with each field's idf taken within the document's own type (a large type no longer sets a small one's). */
const perFieldTypeIdf: FieldScore = (word, hit, { averages, typeSizes }) => {
  const form = word.forms[hit.form]!;
  const own = word.forms.findIndex((candidate) => candidate.kind === 'exact');
  const size = typeSizes[hit.type]!;
  let sum = 0;
  for (let field = 0; field < 5; field++) {
    if (!(hit.mask & (1 << field))) continue;
    let idf = idfOf(size, word.dfByType[hit.form]![hit.type]![field]!);
    if (own >= 0 && own !== hit.form) idf = Math.min(idf, idfOf(size, Math.max(1, word.dfByType[own]![hit.type]![field]!)));
    const tf = hit.tf[field]!;
    sum += BOOSTS[field]! * idf * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * hit.lengths[field]!) / averages[field]!)));
  }
  return form.weight * sum;
};

interface Part {
  best: number;
  exact: boolean;
  /** Fields the own term is in. */
  exactFields: number;
}

function partsOf(words: Word[], hits: Hit[][], context: Context, field: FieldScore): Part[] {
  return words.map((word, u) => {
    const part: Part = { best: 0, exact: false, exactFields: 0 };
    for (const hit of hits[u]!) {
      const s = field(word, hit, context);
      if (s <= 0) continue;
      if (word.forms[hit.form]!.kind === 'exact') {
        part.exact = true;
        part.exactFields |= hit.mask;
      }
      part.best = Math.max(part.best, s);
    }
    return part;
  });
}

/** The engine's tiers over the parts, with `saturation`. */
function tiers(parts: Part[], saturation: number): number {
  const complete = parts.every((part) => part.exact && part.best > 0);
  let score = 0;
  for (const part of parts) {
    if (part.best <= 0) continue;
    const engine = wordScore(parts.length, part.exact, part.best, complete);
    score += engine - part.best / (part.best + RANKING.saturation) + part.best / (part.best + saturation);
  }
  return score;
}

/** Meilisearch's attribute rule as a bucket below the exact tier: per word, a / 5 times its best field's rank (title 5 .. body 1). */
const attribute = (parts: Part[], a: number, shortOnly: boolean) => {
  if (shortOnly && !wordsRuleFor(parts.length)) return 0;
  let sum = 0;
  for (const part of parts) if (part.exactFields) sum += (5 - Math.log2(part.exactFields & -part.exactFields)) / 5;
  return (a * sum) / parts.length;
};

/**
 * Meilisearch's exactness rule on the title: the title starts with the query's words in order (a), or holds
 * them next to each other in order anywhere (a / 2); queries of more than one word.
 */
function titlePhrase(words: Word[], context: Context, document: number, a: number): number {
  if (words.length < 2) return 0;
  const { terms, starts } = context.titles[document]!;
  const ids = words.map((word) => context.ids.get(word.word) ?? -2);
  const title = terms.subarray(starts[0]!, starts[1]!);
  for (let at = 0; at + ids.length <= title.length; at++) {
    if (ids.every((id, i) => title[at + i] === id)) return at === 0 ? a : a / 2;
  }
  return 0;
}

interface Knobs {
  field?: FieldScore;
  saturation?: number;
  attribute?: number;
  attributeAll?: boolean;
  phrase?: number;
}

const variant =
  (knobs: Knobs): Variant =>
  (words, hits, context, document) => {
    const parts = partsOf(words, hits, context, knobs.field ?? perField());
    let score = tiers(parts, knobs.saturation ?? RANKING.saturation);
    if (knobs.attribute) score += attribute(parts, knobs.attribute, !knobs.attributeAll);
    if (knobs.phrase) score += titlePhrase(words, context, document, knobs.phrase);
    return score;
  };

const grid = (name: string, values: number[], make: (value: number) => Knobs) =>
  Object.fromEntries(values.map((value) => [`${name}${value}`, variant(make(value))]));

const bs = (title: number, others: number = b) => [title, others, others, others, others];

/**
 * The best any ordering inside the search rules can do: the rules' tiers alone (words found, found exactly, a
 * complete match), and among records of one tier the one asked about first. No BM25 part, field weight or
 * other feature below the tiers can rank it higher than this.
 */
const ceiling: Variant = (words, hits, context, _document, expected) => {
  const parts = partsOf(words, hits, context, perField());
  return (
    Math.floor(
      tiers(parts, RANKING.saturation) -
        parts.reduce((sum, part) => sum + (part.best > 0 ? part.best / (part.best + RANKING.saturation) : 0), 0) +
        1e-6,
    ) + (expected ? 0.5 : 0)
  );
};

/** The same ceiling with the complete-match tier of longer questions dropped: what that rule costs at most. */
const ceilingWithoutComplete: Variant = (words, hits, context, document, expected) =>
  wordsRuleFor(words.length) ? ceiling(words, hits, context, document, expected) : expected ? 1 : 0;

export const VARIANTS: Record<string, Variant> = {
  baseline: variant({}),
  ceiling,
  ceilingWithoutComplete,
  ...grid('bTitle', [0, 0.3, 1], (value) => ({ field: perField(bs(value)) })),
  ...grid('titleK0.3B', [0.7, 1], (value) => ({ field: perField(bs(value), [0.3, k, k, k, k]) })),
  ...grid('bAll', [0.3, 1], (value) => ({ field: perField(bs(value, value)) })),
  ...grid('docIdf', [1], () => ({ field: perFieldDocumentIdf })),
  ...grid('typeIdf', [1], () => ({ field: perFieldTypeIdf })),
  ...grid('bm25fSat', [0.5, 1, 2, 4], (value) => ({ field: bm25f(k, bs(b), 1), saturation: value })),
  ...grid('bm25fK3Sat', [1, 2], (value) => ({ field: bm25f(3, bs(b), 1), saturation: value })),
  ...grid('bm25fB1Sat', [1, 2], (value) => ({ field: bm25f(k, bs(1), 1), saturation: value })),
  ...grid('attribute', [0.3, 0.9], (value) => ({ attribute: value })),
  ...grid('attributeAll', [0.3], (value) => ({ attribute: value, attributeAll: true })),
  ...grid('phrase', [0.3, 1], (value) => ({ phrase: value })),
  ...grid('saturation', [3, 10], (value) => ({ saturation: value })),
};
