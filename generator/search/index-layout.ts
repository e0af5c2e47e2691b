/**
 * The index's dictionary, postings shards and typo dictionaries laid out from the terms' encoded records,
 * cut where part-cutting.ts says. The writer lays out every block; an update (index-update.ts) lays out
 * again only the blocks and typo files its changed terms are in, with the same functions, so both give the
 * same bytes. Runtime-neutral.
 */
import { compareText } from '../shared/compare-text.ts';
import { dictionaryPath, type PostingsLocation, postingsPath, type TermEntry, toDictionaryBlock, typoPath } from './index-format.ts';
import { blockStarts, packShards, shardNumber, termHash } from './part-cutting.ts';
import { typoBody, typoGroups } from './typo-dictionary.ts';

/** A term's record as the index holds it: its bytes, its postings over all fields, and whether a typo may find it. */
export interface EncodedRecord {
  bytes: Uint8Array;
  postings: number;
  typo: boolean;
}

export type TermRecords = Map<string, EncodedRecord>;
export type Entries = Map<string, Omit<TermEntry, 'term'>>;

/** The parts laid out: sorted terms, where blocks start, each term's entry, and each block's and typo file's bodies. */
export interface IndexLayout {
  terms: string[];
  /** Each term's termHash, in the same order. */
  hashes: Uint32Array;
  starts: number[];
  /** The first term of each block (meta.json's `blocks`). */
  blocks: string[];
  entries: Entries;
  /** Per block: its dictionary file, then its shards. */
  blockFiles: { path: string; body: string | Uint8Array }[][];
  /** Typo file bodies by key. */
  typos: Map<string, Uint8Array>;
  /** The typo files' terms by key. */
  typoTerms: Map<string, { head: string[]; tail: string[] }>;
  files(): { path: string; body: string | Uint8Array }[];
}

/** Whether two locations are the same shard, offset and length. */
export const sameLocation = (a: PostingsLocation, b: PostingsLocation) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * Block `block` (terms `[start, end)` of `terms`): its records packed into shards, each term's entry set,
 * its files. Each record's bytes become a view of its shard, so an old shard is let go once rewritten.
 */
export function layBlock(
  block: number,
  terms: readonly string[],
  start: number,
  end: number,
  records: TermRecords,
  entries: Entries,
  previous?: ReadonlyMap<string, string | Uint8Array>,
  changed?: ReadonlySet<string>,
) {
  const slice = terms.slice(start, end);
  // An update's shard is the previous one when each of its records is unchanged, at the same place.
  const reuse = (j: number, first: number, last: number, at: readonly [number, number][]) => {
    const before = previous?.get(postingsPath(shardNumber(block, j)));
    if (!(before instanceof Uint8Array)) return undefined;
    let bytes = 0;
    const shard = shardNumber(block, j);
    for (let i = first; i < last; i++) {
      const location = entries.get(slice[i]!)?.location;
      const length = records.get(slice[i]!)!.bytes.length;
      if (changed!.has(slice[i]!) || location?.[0] !== shard || location[1] !== at[i]![1] || location[2] !== length) return undefined;
      bytes += length;
    }
    return bytes === before.length ? before : undefined;
  };
  const { at, shards } = packShards(
    slice.map((term) => records.get(term)!.bytes),
    previous && changed ? reuse : undefined,
  );
  slice.forEach((term, i) => {
    const record = records.get(term)!;
    const [j, offset] = at[i]!;
    const shard = shards[j]!;
    // A record of a shard kept as it was is a view of it already, with its entry (most of an update's block).
    if (record.bytes.buffer !== shard.buffer || record.bytes.byteOffset !== shard.byteOffset + offset) {
      record.bytes = shard.subarray(offset, offset + record.bytes.length);
    }
    const location: PostingsLocation = [shardNumber(block, j), offset, record.bytes.length];
    const entry = entries.get(term);
    if (entry?.postings !== record.postings || !sameLocation(entry.location, location))
      entries.set(term, { postings: record.postings, location });
  });
  return [
    { path: dictionaryPath(block), body: JSON.stringify(toDictionaryBlock(slice, entries)) },
    ...shards.map((body, j) => ({ path: postingsPath(shardNumber(block, j)), body })),
  ];
}

/** A layout from its parts: the blocks' first terms and the file list follow from them. */
export function layoutOf(parts: Omit<IndexLayout, 'blocks' | 'files'>): IndexLayout {
  return {
    ...parts,
    blocks: parts.starts.map((start) => parts.terms[start]!),
    files() {
      return [...this.blockFiles.flat(), ...[...this.typos].map(([key, body]) => ({ path: typoPath(key), body }))];
    },
  };
}

/** Every part of the dictionary, postings and typo files for `records`. */
export function assembleParts(records: TermRecords): IndexLayout {
  const terms = [...records.keys()].sort(compareText);
  const hashes = Uint32Array.from(terms, termHash);
  const starts = blockStarts(hashes);
  const entries: Entries = new Map();
  const blockFiles = starts.map((start, block) => layBlock(block, terms, start, starts[block + 1] ?? terms.length, records, entries));
  const typoTerms = typoGroups(terms.filter((term) => records.get(term)!.typo));
  const typos = new Map([...typoTerms].map(([key, group]) => [key, typoBody(group, entries)]));
  return layoutOf({ terms, hashes, starts, entries, blockFiles, typos, typoTerms });
}
