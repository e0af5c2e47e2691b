/**
 * Why a result has its score: per query word, whether it was found, by which form (its own term, a synonym,
 * a prefix or a typo neighbour), and the parts ranking.ts adds up. The parts sum to the score before
 * rounding, added in the same order as scoring.ts adds them. Runtime-neutral.
 */
import { findBlock, type FormKind, type PreparedForm } from './prepared-form.ts';
import { RANKING, wordScore } from './ranking.ts';

export interface WordExplanation {
  word: string;
  /** The form whose score counts (the best one), or null when no form of the word is in the document. */
  form: { term: string; kind: FormKind } | null;
  /** The word's own term is in the document. */
  exact: boolean;
  /** The best form's weight * Σ boost * BM25+ over its fields. */
  bm25: number;
  /** What the word adds (ranking.ts wordScore): bm25 / (bm25 + saturation), and its tiers (the words rule's, or a complete match's share). */
  score: number;
}

/** The explanation of `document`'s score for the prepared words. */
export function explainDocument(units: { word: string; forms: PreparedForm[] }[], document: number): WordExplanation[] {
  const block = Math.floor(document / RANKING.blockSize);
  const found = units.map(({ word, forms }) => {
    let best = 0;
    let exact = false;
    let form: WordExplanation['form'] = null;
    for (const prepared of forms) {
      const at = findBlock(prepared.blocks, block);
      if (at < 0) continue;
      const { docs, scores } = prepared.postingsAt(at);
      const i = docs.indexOf(document);
      const score = i < 0 ? 0 : scores[i]!;
      if (score === 0) continue;
      if (prepared.form.kind === 'exact') exact = true;
      if (score > best) {
        best = score;
        form = { term: prepared.form.term, kind: prepared.form.kind };
      }
    }
    return { word, form, exact, bm25: best };
  });
  const complete = found.every(({ exact, bm25 }) => exact && bm25 > 0);
  return found.map((part) => ({ ...part, score: part.bm25 > 0 ? wordScore(units.length, part.exact, part.bm25, complete) : 0 }));
}
