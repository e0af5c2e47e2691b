/**
 * Where the index's numbered parts are cut, chosen so that an edit moves no boundary but near what it
 * changes (index-update.ts relies on it): the dictionary is cut at terms picked by their own hash, and each
 * dictionary block's postings records are packed into shards of their own, numbered within the block.
 *
 * - A term starts a dictionary block when its hash is the smallest among the BLOCK_REACH terms on either
 *   side (a local minimum, as content-defined chunking picks cut points), so whether it does depends on
 *   those neighbours only: a term added or removed can move the cut points within BLOCK_REACH terms of it,
 *   and none elsewhere. Blocks hold at least BLOCK_REACH + 1 terms, about 2 * BLOCK_REACH on average; a run
 *   longer than MAX_BLOCK_TERMS (rare) is cut into equal parts.
 * - A block's records fill shards of about SHARD_BYTES in term order (a larger record gets its own), and
 *   shard `j` of block `b` is numbered `b * PARTS_PER_FOLDER + j`: the block's shards sit in folder `b`
 *   (partPath), and a record that grows or shrinks moves only the shards of its own block.
 *
 * Runtime-neutral.
 */
import { PARTS_PER_FOLDER } from '../shared/data-paths.ts';

/** Terms on either side a block's first term must have a larger hash than: blocks of about 512 terms (15 KB of JSON). */
export const BLOCK_REACH = 256;
/** At most this many terms a block, so its shards (one record at least each) number fewer than a folder holds. */
export const MAX_BLOCK_TERMS = PARTS_PER_FOLDER;
/** Postings bytes a shard is filled to (a larger record gets a shard of its own): what a rare term's read costs. */
export const SHARD_BYTES = 16 * 1024;

/** A 32-bit hash of `term`: FNV-1a over its UTF-16 units, mixed (murmur3's finalizer) so that terms alike spread. */
export function termHash(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) hash = Math.imul(hash ^ term.charCodeAt(i), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) >>> 0;
}

/**
 * The index of each dictionary block's first term, ascending, 0 first, given the sorted terms' hashes
 * (termHash; the caller keeps them, hashing is most of the cost). Ties of hashes go to the earlier term, so
 * the order is total. Linear.
 */
export function blockStarts(hashes: Uint32Array): number[] {
  const count = hashes.length;
  if (count === 0) return [];
  // For each term, the distance to the nearest term before and after it whose hash is smaller (ties: the
  // earlier term is smaller), from a stack of increasing hashes; no smaller one: further than any reach.
  const far = count + BLOCK_REACH + 1;
  const before = new Int32Array(count).fill(far);
  const after = new Int32Array(count).fill(far);
  const stack = new Int32Array(count);
  let top = 0;
  for (let i = 0; i < count; i++) {
    const hash = hashes[i]!;
    while (top > 0 && hash < hashes[stack[top - 1]!]!) {
      const j = stack[--top]!;
      after[j] = i - j;
    }
    if (top > 0) before[i] = i - stack[top - 1]!;
    stack[top++] = i;
  }
  const cuts = [0];
  for (let i = 1; i < count; i++) {
    if (before[i]! > BLOCK_REACH && after[i]! > BLOCK_REACH) cuts.push(i);
  }
  return splitLong(cuts, count);
}

/** `cuts` with every run longer than MAX_BLOCK_TERMS cut into equal parts (a rule of the run alone). */
function splitLong(cuts: number[], count: number): number[] {
  const out: number[] = [];
  cuts.forEach((start, i) => {
    const end = cuts[i + 1] ?? count;
    const parts = Math.ceil((end - start) / MAX_BLOCK_TERMS);
    for (let part = 0; part < parts; part++) out.push(start + Math.floor(((end - start) * part) / parts));
  });
  return out;
}

/** The number of shard `j` of dictionary block `block`. */
export const shardNumber = (block: number, j: number) => block * PARTS_PER_FOLDER + j;

/**
 * One dictionary block's records packed into shards: each record's shard (within the block) and offset, and
 * the shards' bytes, those `reuse` gives (an update's unchanged shards) as it gives them.
 */
export function packShards(
  records: readonly Uint8Array[],
  reuse?: (j: number, first: number, end: number, at: readonly [number, number][]) => Uint8Array | undefined,
): { at: [shard: number, offset: number][]; shards: Uint8Array[] } {
  const at: [number, number][] = [];
  const sizes: number[] = [];
  let bytes = 0;
  for (const record of records) {
    if (bytes > 0 && bytes + record.length > SHARD_BYTES) {
      sizes.push(bytes);
      bytes = 0;
    }
    at.push([sizes.length, bytes]);
    bytes += record.length;
  }
  if (records.length > 0) sizes.push(bytes);
  // Each shard's records are `[first, end)`; a shard `reuse` knows to be unchanged is not copied again.
  const shards: Uint8Array[] = [];
  let first = 0;
  sizes.forEach((size, j) => {
    let end = first;
    while (end < records.length && at[end]![0] === j) end++;
    const kept = reuse?.(j, first, end, at);
    const shard = kept ?? new Uint8Array(size);
    if (!kept) for (let i = first; i < end; i++) shard.set(records[i]!, at[i]![1]);
    shards.push(shard);
    first = end;
  });
  return { at, shards };
}
