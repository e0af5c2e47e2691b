/**
 * The page of results a search returns: matched documents ranked by rounded score, then by document number
 * (which is `type:id` order, CONTRACT "Ordering"), cut to `[offset, offset + limit)`. Runtime-neutral.
 */
import { roundScore } from './ranking.ts';

export interface Ranked {
  document: number;
  /** Rounded as clients see it (ranking.ts `roundScore`). */
  score: number;
  /** Before rounding. */
  raw: number;
}

/**
 * Ranks `documents` by `scoreOf` and returns the window. Each document becomes one number, its score in
 * ten-thousandths above its inverted document number, so that the engine's numeric typed-array sort ranks
 * them (several times faster than a comparator); a score too large for that exactness falls back to one.
 */
export function selectWindow(documents: Int32Array, scoreOf: (document: number) => number, offset: number, limit: number): Ranked[] {
  const count = documents.length;
  if (offset >= count || limit <= 0) return [];
  const units = new Float64Array(count);
  let maxUnits = 0;
  let maxDocument = 0;
  for (let i = 0; i < count; i++) {
    units[i] = Math.round(roundScore(scoreOf(documents[i]!)) * 10_000);
    maxUnits = Math.max(maxUnits, units[i]!);
    maxDocument = Math.max(maxDocument, documents[i]!);
  }
  const span = 2 ** Math.ceil(Math.log2(maxDocument + 2));
  const end = Math.min(count, offset + limit);
  const window: Ranked[] = [];
  const at = (document: number, scoreUnits: number) => ({ document, score: scoreUnits / 10_000, raw: scoreOf(document) });
  if (maxUnits * span < Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(count);
    for (let i = 0; i < count; i++) keys[i] = units[i]! * span + (span - 1 - documents[i]!);
    keys.sort();
    for (let rank = offset; rank < end; rank++) {
      const key = keys[count - 1 - rank]!;
      const scoreUnits = Math.floor(key / span);
      window.push(at(span - 1 - (key - scoreUnits * span), scoreUnits));
    }
    return window;
  }
  const order = Array.from(documents.keys()).sort((a, b) => units[b]! - units[a]! || documents[a]! - documents[b]!);
  for (let rank = offset; rank < end; rank++) window.push(at(documents[order[rank]!]!, units[order[rank]!]!));
  return window;
}
