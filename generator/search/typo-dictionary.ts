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
 *
 * A file is bytes (writer and reader side by side here), scanned by the WebAssembly module
 * (wasm/typo-scan.as.ts) without being decoded; only the entries that match are:
 *
 *   file   = headCount, tailCount, headBytes, entry* (the head's, then the tail's)     varints
 *   entry  = units, unit* (two bytes each, little-endian), postings, shard, offset, length
 */
import { align8, blockPasses, reserve, scratchStart } from './block-passes.ts';
import type { PostingsLocation, TermEntry } from './index-format.ts';
import { ByteReader, ByteWriter } from './postings-codec.ts';
import { RANKING } from './ranking.ts';

const CORRUPT = 'not a typo file; rebuild the site';

/** A typo file's bytes, and where its head's and its tail's entries are: `[start, end, count]`. */
export interface TypoFile {
  bytes: Uint8Array;
  head: [start: number, end: number, count: number];
  tail: [start: number, end: number, count: number];
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
export function typoBody(group: { head: string[]; tail: string[] }, entries: Entries): Uint8Array {
  const part = (terms: string[]) => {
    const out = new ByteWriter();
    for (const term of terms) {
      out.varint(term.length);
      for (let i = 0; i < term.length; i++) {
        out.byte(term.charCodeAt(i) & 0xff);
        out.byte(term.charCodeAt(i) >> 8);
      }
      const { postings, location } = entries.get(term)!;
      out.varint(postings);
      for (const value of location) out.varint(value);
    }
    return out.result();
  };
  const head = part(group.head);
  const out = new ByteWriter();
  for (const value of [group.head.length, group.tail.length, head.length]) out.varint(value);
  out.raw(head);
  out.raw(part(group.tail));
  return out.result();
}

/** A typo file's parts, or an error when its header does not add up. */
export function readTypoFile(bytes: Uint8Array): TypoFile {
  const reader = new ByteReader(bytes, 0, bytes.length);
  const [headCount, tailCount, headBytes] = [reader.varint(), reader.varint(), reader.varint()];
  const start = reader.position;
  // An entry takes 7 bytes at least: a term of one unit and four one-byte varints.
  if (start + headBytes > bytes.length || headCount * 7 > headBytes || tailCount * 7 > bytes.length - start - headBytes)
    throw new Error(CORRUPT);
  return { bytes, head: [start, start + headBytes, headCount], tail: [start + headBytes, bytes.length, tailCount] };
}

/** The entry that starts at `at` of a typo file, and where the next one starts. */
function entryFrom(bytes: Uint8Array, at: number): TermEntry & { next: number } {
  const reader = new ByteReader(bytes, at, bytes.length);
  const units = reader.varint();
  const from = reader.position;
  if (from + units * 2 > bytes.length) throw new Error(CORRUPT);
  let term = '';
  for (let i = 0; i < units; i++) term += String.fromCharCode(bytes[from + 2 * i]! | (bytes[from + 2 * i + 1]! << 8));
  reader.position = from + units * 2;
  const postings = reader.varint();
  const location = [reader.varint(), reader.varint(), reader.varint()] as PostingsLocation;
  return { term, postings, location, next: reader.position };
}

/** A typo file's terms, head and tail (what an update of the index starts from). */
export function typoFileTerms(bytes: Uint8Array): { head: string[]; tail: string[] } {
  const { head, tail } = readTypoFile(bytes);
  const terms = ([start, end, count]: TypoFile['head']) => {
    const found: string[] = [];
    let at = start;
    for (let i = 0; i < count; i++) {
      const entry = entryFrom(bytes, at);
      found.push(entry.term);
      at = entry.next;
    }
    if (at !== end) throw new Error(CORRUPT);
    return found;
  };
  return { head: terms(head), tail: terms(tail) };
}

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

/** The comparisons of wasm/typo-scan.as.ts `matches`, by what each finds. */
const TYPO_MODES = { oneEdit: 0, firstDeleted: 1, firstReplaced: 2, firstSwapped: 3, insertedInFront: 4 } as const;

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
  const scans: [key: string, part: 'head' | 'tail', mode: number][] = [
    ...keys.slice(0, 3).map((key): [string, 'head', number] => [key, 'head', TYPO_MODES.oneEdit]),
    [typoKey(length - 1, second), 'head', TYPO_MODES.firstDeleted],
    [typoKey(length, second), 'tail', TYPO_MODES.firstReplaced],
    [typoKey(length, second), 'head', TYPO_MODES.firstSwapped],
    [typoKey(length + 1, first), 'tail', TYPO_MODES.insertedInFront],
  ];
  const found = new Map<string, TermEntry>();
  for (const [key, part, mode] of scans) {
    const file = files.get(key);
    if (file) for (const entry of scanPart(file, part, word, mode)) found.set(entry.term, entry);
  }
  return [...found.values()].sort((a, b) => (a.term < b.term ? -1 : a.term > b.term ? 1 : 0));
}

/** The entries of `file`'s `part` that `mode` finds for `word`, scanned by the WebAssembly module. */
function scanPart(file: TypoFile, part: 'head' | 'tail', word: string, mode: number): TermEntry[] {
  const [start, end, count] = file[part];
  if (count === 0) return [];
  const span = end - start;
  const base = scratchStart();
  const wordAt = base + align8(span);
  const out = wordAt + align8(word.length * 2);
  const memory = reserve(out + count * 4);
  new Uint8Array(memory, base, span).set(file.bytes.subarray(start, end));
  const units = new Uint16Array(memory, wordAt, word.length);
  for (let i = 0; i < word.length; i++) units[i] = word.charCodeAt(i);
  const matched = blockPasses().typoScan(base, base + span, count, wordAt, word.length, mode, out);
  if (matched < 0) throw new Error(CORRUPT);
  return Array.from(new Int32Array(memory, out, matched), (at) => {
    const { term, postings, location } = entryFrom(file.bytes, start + at - base);
    return { term, postings, location };
  });
}
