/**
 * Static index pruning of the body field. Loading the index costs time in proportion to its entries (term x
 * field x document), and bodies made most of them, so each body is indexed by its most distinctive terms
 * only: at most BODY_TERMS_PER_DOCUMENT of them, rarest first, so that rare details ("DMARC", "Walmart")
 * survive and a body's cost is bounded whatever its length; and none found in a large share of the documents
 * (they weigh little in a score, and such words usually stand in the titles, summaries and tags, which are
 * indexed whole).
 *
 * The index is built with the shared options unchanged (the edge loads it with the same ones): a pruned body
 * is plain text of one original word per kept term, repeated by its frequency (up to BODY_TERM_REPEAT), which
 * the index's tokenize and processTerm turn back into the same terms.
 */
import type { SearchDocument } from './index-format.ts';
import { memoize } from '../shared/memoize.ts';
import { processTerm, tokenize } from './text-analysis.ts';

/**
 * Body terms kept per document. Chosen with bench/search.ts (400-word bodies, ~160 distinct terms each) and
 * the relevance suite (content/: 125 to 182 distinct body terms a document). Cold start, CPU ms at 1,000 /
 * 10,000 documents: whole bodies 96 / 538, 64 terms 71 / 360, 48 terms 65 / 307, 32 terms 62 / 271, 16 terms
 * 55 / 229, no body at all 41 / 192 (titles, summaries, tags and stored fields cost the rest). MRR@10 on
 * content/: whole bodies 0.971, 64 terms 0.980, 32 and 48 terms 0.959, 16 to 28 terms 0.953 with recall@10
 * below 1 ("business associate agreement" no longer finds the HIPAA page). 32 is the fewest that keep every
 * expected page in the first ten. (Those cold starts were measured on MiniSearch's own JSON; the site's format,
 * SerializedSearchIndex, loads the same index at 32 terms in 42 / 150 ms and whole bodies in 59 / 260 ms.)
 */
export const BODY_TERMS_PER_DOCUMENT = 32;

/**
 * A body term found in more than this share of the documents is left out of bodies (20%: 162 terms at 10,000
 * synthetic documents). As bodies keep their rarest terms first, this changes only bodies with fewer than
 * BODY_TERMS_PER_DOCUMENT less common terms (short ones), which would otherwise be filled with words that
 * match a fifth of the corpus and make long posting lists; at 10,000 documents warm p99 stayed within noise
 * (7 to 9 ms) for any share from 5% to no cut.
 */
export const BODY_CUT_SHARE = 0.2;

/**
 * ...and in more than this many documents: in a small corpus a term in 20% of it is a term in a handful of
 * documents, which still tells them apart, and such an index loads in a few milliseconds anyway. With
 * content/'s 52 documents nothing is cut; below 500 documents a term must be in more than 100 to be cut.
 */
export const BODY_CUT_MIN_DOCUMENTS = 100;

/**
 * Times a kept term's word is repeated, at most, so its term frequency in the index is min(tf, 3). BM25
 * saturates (MiniSearch's k1 = 1.2: tf 3 scores 80% of tf 10), and a capped tf keeps a word a body repeats
 * from outweighing the title and summary, where the subject of a page is said.
 */
export const BODY_TERM_REPEAT = 3;

/** A body's processed terms: frequency and the first word that gave each, in order of first appearance. */
export interface BodyTerms {
  frequency: Map<string, number>;
  word: Map<string, string>;
}

/**
 * processTerm with a memory of the words it has seen: a corpus repeats its vocabulary, and the stemmer was
 * most of the index build's time. Same results as processTerm, so the index is the same.
 */
export function createTermCache(): (token: string) => string | null {
  return memoize(processTerm);
}

/** The same tokenize and processTerm the index uses, so that a term here is a term there. */
export function bodyTerms(body: string, process: (token: string) => string | null = processTerm): BodyTerms {
  const frequency = new Map<string, number>();
  const word = new Map<string, string>();
  for (const token of tokenize(body)) {
    const term = process(token);
    if (!term) continue;
    const count = frequency.get(term);
    if (count === undefined) {
      frequency.set(term, 1);
      word.set(term, token.toLowerCase());
    } else frequency.set(term, count + 1);
  }
  return { frequency, word };
}

export interface BodyPruning {
  /** Terms kept per body, at most. */
  termsPerDocument: number;
  /** Terms in more than max(cutShare x documents, cutMinDocuments) documents are left out. */
  cutShare: number;
  cutMinDocuments: number;
}

export const BODY_PRUNING: BodyPruning = {
  termsPerDocument: BODY_TERMS_PER_DOCUMENT,
  cutShare: BODY_CUT_SHARE,
  cutMinDocuments: BODY_CUT_MIN_DOCUMENTS,
};

interface Candidate {
  term: string;
  df: number;
  tf: number;
  position: number;
}

/**
 * Most distinctive first: by idf (fewest documents), then tf, then first appearance (so builds match).
 * idf leads rather than tf x idf: ranked by tf x idf, words a body repeats (usually its subject, which the
 * title and summary carry anyway) crowded out rare words said once; at 32 terms "business associate
 * agreement" then lost the HIPAA page from the first ten and "Walmart Connect" put its page fourth (third and
 * second with idf first). The tf tie-break still prefers, among equally rare words, what a body dwells on.
 */
const byDistinctiveness = (a: Candidate, b: Candidate) => a.df - b.df || b.tf - a.tf || a.position - b.position;

/** The documents with pruned bodies, in the same order; the other fields are untouched. A pure function of the documents. */
export function pruneSearchBodies(
  documents: readonly SearchDocument[],
  pruning: BodyPruning = BODY_PRUNING,
  /** A body's terms; the build may pass one that remembers them across builds (the result is the same). */
  termsOf?: (body: string) => BodyTerms,
): SearchDocument[] {
  const process = createTermCache();
  const bodies = documents.map((document) => (termsOf ? termsOf(document.body) : bodyTerms(document.body, process)));
  const documentFrequency = new Map<string, number>();
  for (const { frequency } of bodies) {
    for (const term of frequency.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const count = documents.length;
  const maxDocuments = Math.max(pruning.cutShare * count, pruning.cutMinDocuments);

  return documents.map((document, index) => {
    const { frequency, word } = bodies[index]!;
    const candidates: Candidate[] = [];
    let position = 0;
    for (const [term, tf] of frequency) {
      const df = documentFrequency.get(term)!;
      if (df <= maxDocuments) candidates.push({ term, df, tf, position });
      position++;
    }
    candidates.sort(byDistinctiveness);
    const kept = candidates.slice(0, pruning.termsPerDocument).sort((a, b) => a.position - b.position);
    const words = kept.flatMap(({ term, tf }) => Array<string>(Math.min(tf, BODY_TERM_REPEAT)).fill(word.get(term)!));
    return { ...document, body: words.join(' ') };
  });
}
