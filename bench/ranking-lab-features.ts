/**
 * What bench/ranking-lab.ts scores variants from: for every document holding some form of a query's words,
 * the engine's own per-word figures (each form's weighted BM25 part, read from a built index with the
 * engine's query plan, so they equal what scoring gives) and where the words sit in the document (from the
 * same text analysis as the writer: positions of the words' own terms, field by field, stop words dropped).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { createIndexParts } from '../generator/search/index-reader.ts';
import { PreparedForm } from '../generator/search/prepared-form.ts';
import { planQuery } from '../generator/search/query-plan.ts';
import { SEARCH_FIELDS } from '../generator/search/ranking.ts';
import { processTerm, tokenize } from '../generator/search/text-analysis.ts';
import { compareText } from '../generator/shared/compare-text.ts';

/** How one query word is held by one document. */
export interface Held {
  /** The best form's weighted BM25 part. */
  best: number;
  /** The word's own term is there. */
  exact: boolean;
  /** Fields (bit 0 the title) its own term is in. */
  fields: number;
}

export interface Features {
  document: number;
  words: (Held | null)[];
  /** Neighbouring words of the query found next to each other (in query order, in one field). */
  adjacent: number;
  /** The most distinct words of the query within WINDOW terms of one field. */
  window: number;
  /** Terms in the title, repeats counted (the title's length as the index keeps it: index-writer.ts withTitleLength). */
  titleLength: number;
  /** The title's length as the index keeps it (distinct tokens, stop words included: MiniSearch's field length). */
  titleTokens: number;
  /** Other measures of a title's length: distinct terms (stop words out); every token, repeats and stop words in. */
  titleDistinct: number;
  titleAll: number;
}

/** The window `Features.window` counts words in. */
const WINDOW = 10;

/** A built index read from `dir`, and the documents it was built from (content first), in its numbering, as terms. */
export async function openLab(dir: string, documents: SearchDocument[]) {
  const orNull = async <T>(read: Promise<T>) => read.catch(() => null);
  const parts = createIndexParts(
    {
      read: (file) => orNull(readFile(path.join(dir, file), 'utf8')),
      readBytes: (file) => orNull(readFile(path.join(dir, file)).then((bytes) => new Uint8Array(bytes))),
    },
    1 << 30,
  );
  const meta = await parts.meta();
  const sorted = [...documents].sort((a, b) => compareText(a.id, b.id));
  const ids = new Map<string, number>();
  const byToken = new Map<string, number>();
  const idOf = (token: string) => {
    let id = byToken.get(token);
    if (id === undefined) {
      const term = processTerm(token);
      id = term === null ? -1 : (ids.get(term) ?? ids.size);
      if (term !== null && !ids.has(term)) ids.set(term, id);
      byToken.set(token, id);
    }
    return id;
  };
  // Per document: its terms field after field, and where each field starts (six offsets).
  const tokens = sorted.map((document) => {
    const terms: number[] = [];
    const starts = [0];
    for (const field of SEARCH_FIELDS) {
      for (const token of tokenize(document[field])) {
        const id = idOf(token);
        if (id >= 0) terms.push(id);
      }
      starts.push(terms.length);
    }
    const title = tokenize(document.title);
    const titleDistinct = new Set(terms.slice(0, starts[1])).size;
    return { terms: Int32Array.from(terms), starts, titleTokens: new Set(title).size, titleDistinct, titleAll: title.length };
  });
  return { parts, meta, sorted, ids, tokens };
}

export type Lab = Awaited<ReturnType<typeof openLab>>;

/** Each word's best form and exactness in every document some form of it is in (the engine's figures). */
async function wordsHeld(lab: Lab, q: string) {
  const units = await planQuery(lab.parts, lab.meta, q);
  const held = new Map<number, (Held | null)[]>();
  units.forEach((unit, u) => {
    for (const form of unit.forms) {
      const prepared = new PreparedForm(form, lab.meta);
      for (let i = 0; i < prepared.blocks.length; i++) {
        const { docs, scores } = prepared.postingsAt(i);
        docs.forEach((document, j) => {
          if (scores[j] === 0) return;
          const words = held.get(document) ?? units.map(() => null);
          held.set(document, words);
          const word = words[u] ?? { best: 0, exact: false, fields: 0 };
          words[u] = word;
          if (form.kind === 'exact') word.exact = true;
          word.best = Math.max(word.best, scores[j]!);
        });
      }
    }
  });
  return { units, held };
}

/** Positions of the words' own terms in `document`: adjacency, the best window, the fields each is in. */
function positions(lab: Lab, document: number, words: (Held | null)[], owner: Map<number, number>): Omit<Features, 'document' | 'words'> {
  const { terms, starts, titleTokens, titleDistinct, titleAll } = lab.tokens[document]!;
  const last = new Array<number>(words.length);
  let adjacent = 0;
  let window = 0;
  for (let field = 0; field < SEARCH_FIELDS.length; field++) {
    last.fill(Number.NEGATIVE_INFINITY);
    for (let p = starts[field]!; p < starts[field + 1]!; p++) {
      const u = owner.get(terms[p]!);
      if (u === undefined) continue;
      if (words[u]) words[u].fields |= 1 << field;
      if (u > 0 && last[u - 1] === p - 1) adjacent |= 1 << u;
      last[u] = p;
      const near = last.filter((at) => p - at < WINDOW).length;
      if (near > window) window = near;
    }
  }
  let pairs = 0;
  for (let bits = adjacent; bits; bits &= bits - 1) pairs++;
  return { adjacent: pairs, window, titleLength: starts[1]! - starts[0]!, titleTokens, titleDistinct, titleAll };
}

/**
 * The features of the documents of `range` some variant may put in the top 10 for `q`: those within `margin`
 * of the tenth best by `baseline` (every variant measured adds less than that to it).
 */
export async function featuresOf(
  lab: Lab,
  q: string,
  range: readonly [number, number],
  baseline: (words: (Held | null)[]) => number,
  margin: number,
): Promise<{ words: string[]; list: Features[] }> {
  const { units, held } = await wordsHeld(lab, q);
  const owner = new Map<number, number>();
  units.forEach((unit, u) => {
    // A synonym phrase of the query ("market mix model") is placed by its first word.
    const id = lab.ids.get(unit.word.split(' ')[0]!);
    if (id !== undefined && !owner.has(id)) owner.set(id, u);
  });
  const inRange = [...held].filter(([document]) => document >= range[0] && document < range[1]);
  const scores = inRange.map(([, words]) => baseline(words));
  const bar = ([...scores].sort((a, b) => b - a)[Math.min(9, scores.length - 1)] ?? 0) - margin;
  const list = inRange
    .filter((_, i) => scores[i]! >= bar)
    .map(([document, words]) => ({ document, words, ...positions(lab, document, words, owner) }));
  return { words: units.map((unit) => unit.word), list };
}
