/**
 * Typo dictionaries: the terms a misspelled query word may stand for, found without reading the whole
 * dictionary. Typo tolerance applies to the fields other than bodies (ranking.ts), with at most one edit, so
 * only terms that occur in those fields are listed, and a word of length L has its neighbours among terms of
 * length L - 1 to L + 1 that either begin with its first character (an edit after the first character) or,
 * for an edit of the first character itself, are found through their second character:
 *
 *   deleted first character      t = q[1..]       begins with q[1], length L - 1
 *   replaced first character     t[1..] = q[1..]  second character q[1], length L
 *   character inserted in front  t[1..] = q       second character q[0], length L + 1
 *   first two characters swapped t = q[1] q[0] q[2..]  begins with q[1], length L
 *
 * So each file, keyed by a length and a UTF-16 code unit, holds the terms of that length beginning with
 * that unit (`head`) and those whose second unit it is (`tail`); a word reads at most five. The distance is
 * Levenshtein's over UTF-16 code units (MiniSearch's fuzzy search) with a swap of two adjacent units
 * counted as one edit (optimal string alignment, as Typesense and Meilisearch count typos).
 */
import { type DictionaryBlock, entryAt, type TermEntry, toDictionaryBlock } from './index-format.ts';
import { RANKING } from './ranking.ts';

export interface TypoFile {
  head: DictionaryBlock;
  tail: DictionaryBlock;
}

type Entries = ReadonlyMap<string, Omit<TermEntry, 'term'>>;

/** The file name's key: a length and a code unit. */
const typoKey = (length: number, unit: number) => `${length}-${unit}`;

/** The typo files' terms for `terms` (sorted; those found in the typo-tolerant fields), by key. */
export function typoGroups(terms: Iterable<string>): Map<string, { head: string[]; tail: string[] }> {
  const files = new Map<string, { head: string[]; tail: string[] }>();
  const add = (key: string, part: 'head' | 'tail', term: string) => {
    const file = files.get(key) ?? { head: [], tail: [] };
    files.set(key, file);
    file[part].push(term);
  };
  for (const term of terms) {
    for (const [key, part] of typoKeysOf(term)) add(key, part, term);
  }
  return files;
}

/** The typo files (key, and head or tail) `term` is listed in: none for a term too short to be found by a typo. */
export function typoKeysOf(term: string): [key: string, part: 'head' | 'tail'][] {
  if (term.length < RANKING.typoMinLength - 1) return [];
  return [
    [typoKey(term.length, term.charCodeAt(0)), 'head'],
    [typoKey(term.length, term.charCodeAt(1)), 'tail'],
  ];
}

/** One typo file's body: its terms with their counts and locations from `entries`. */
export const typoBody = (group: { head: string[]; tail: string[] }, entries: Entries) =>
  JSON.stringify({ head: toDictionaryBlock(group.head, entries), tail: toDictionaryBlock(group.tail, entries) });

/** Whether `a` from `i` and `b` from `j` are the same to their ends (no substring is made: this runs per candidate). */
function sameFrom(a: string, i: number, b: string, j: number): boolean {
  if (a.length - i !== b.length - j) return false;
  for (let k = 0; i + k < a.length; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** Whether `a` and `b` differ by two adjacent units swapped at `i` and are the same after them. */
const swappedAt = (a: string, b: string, i: number) =>
  a.charCodeAt(i) === b.charCodeAt(i + 1) && a.charCodeAt(i + 1) === b.charCodeAt(i) && sameFrom(a, i + 2, b, i + 2);

/**
 * Whether `a` and `b` are exactly one insertion, deletion, substitution or swap of two adjacent units apart
 * (a swap counts as one typo, as Typesense and Meilisearch count it: "guardrial" finds "guardrail").
 */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (a.length === b.length) return sameFrom(a, i + 1, b, i + 1) || swappedAt(a, b, i);
  return a.length > b.length ? sameFrom(a, i + 1, b, i) : sameFrom(a, i, b, i + 1);
}

/**
 * The terms exactly one edit from `word` (length >= RANKING.typoMinLength) in the typo-tolerant fields, in code-unit
 * order. `read` gives a typo file by key, or null when the index has none (no term of that shape).
 */
export async function findTypos(word: string, read: (key: string) => Promise<TypoFile | null>): Promise<TermEntry[]> {
  const length = word.length;
  const first = word.charCodeAt(0);
  const second = word.charCodeAt(1);
  const keys = [
    typoKey(length - 1, first),
    typoKey(length, first),
    typoKey(length + 1, first),
    typoKey(length - 1, second),
    typoKey(length, second),
  ];
  const files = new Map(await Promise.all([...new Set(keys)].map(async (key) => [key, await read(key)] as const)));
  const found = new Map<string, TermEntry>();
  const scan = (key: string, part: 'head' | 'tail', matches: (term: string) => boolean) => {
    const block = files.get(key)?.[part];
    block?.terms.forEach((term, index) => {
      if (matches(term)) found.set(term, entryAt(block, index));
    });
  };
  for (const key of keys.slice(0, 3)) scan(key, 'head', (term) => oneEditApart(term, word));
  scan(typoKey(length - 1, second), 'head', (term) => sameFrom(term, 0, word, 1));
  scan(typoKey(length, second), 'tail', (term) => term !== word && sameFrom(term, 1, word, 1));
  // The first two units swapped: the term begins with the word's second unit.
  scan(typoKey(length, second), 'head', (term) => term !== word && swappedAt(term, word, 0));
  scan(typoKey(length + 1, first), 'tail', (term) => sameFrom(term, 1, word, 0));
  return [...found.values()].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}
