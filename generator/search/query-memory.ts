/**
 * Where a search keeps its per-block columns in the WebAssembly module's memory (block-passes.ts): one
 * layout per query, reserved in one step before any view of it is taken (a growth would invalidate them),
 * after the common terms' records the module reads. Those are kept in the memory between searches, each
 * with its block table decoded beside it (there, not into JavaScript arrays first: a first search of three
 * common words would otherwise copy each table's columns out and in again), so that a query of common words
 * does not copy megabytes of them in again each time it is asked (KEPT_LIMIT bounds them). Runtime-neutral.
 */
import { align8, keepUpTo, reserve, scratchStart } from './block-passes.ts';
import { IMPACTS_CHUNK } from './block-walk.ts';
import type { PreparedForm } from './prepared-form.ts';
import { blockCount } from './postings-codec.ts';
import { RANKING } from './ranking.ts';
import { decodeTableAt, type TermRecord } from './record-reader.ts';

/**
 * Bytes of common terms' records (with their tables' columns) kept in the module's memory between searches.
 * Past it, the next search that needs a record not kept starts the kept space again from its own records.
 * At 100,000 documents a very common term takes about 0.6 MB there, so this holds some 50 of them; it is
 * memory besides the part cache's (index-reader.ts), which holds the same records as the shards' bytes.
 */
export const KEPT_LIMIT = 32 * 1024 * 1024;

/** The kept space's limit in force (tests lower it to make it start again often). */
export const keptSpace = { limit: KEPT_LIMIT };

/** Where a kept record is: its shard's position 0, its blocks' bodies, and its table's columns (see keptBytes). */
export interface Kept {
  shard: number;
  /** Where the blocks' bodies begin: the columns' offsets count from there. */
  body: number;
  /** Five i32 columns of the table's length: block, count, docStart, dataStart, dataEnd. */
  columns: number;
  /** The writer's bound per block (f64). */
  bounds: number;
}

/** The kept records, by shard and position; a new map each time the kept space starts again. */
let kept = new WeakMap<Uint8Array, Map<number, Kept>>();

const keptOf = ({ bytes, start }: TermRecord) => kept.get(bytes)?.get(start);

/** The bytes a common term's record takes kept: its own, then its table's five i32 columns and its bounds. */
function keptBytes({ start, end, table }: TermRecord): number {
  const n = table!.count;
  return align8(end - start) + align8(n * 4 * 5) + n * 8;
}

/** Copies `record` (a common term's) to `at` of `memory`, decodes its table there, and remembers where. */
function keepRecord(record: TermRecord, memory: ArrayBuffer, at: number): Kept {
  const { bytes, start, end } = record;
  const { at: table, count: n } = record.table!;
  new Uint8Array(memory, at, end - start).set(bytes.subarray(start, end));
  const shard = at - start;
  const columns = at + align8(end - start);
  const bounds = columns + align8(n * 4 * 5);
  const body = shard + decodeTableAt(record, shard + table, columns, bounds);
  const place: Kept = { shard, body, columns, bounds };
  const inShard = kept.get(bytes) ?? new Map<number, Kept>();
  kept.set(bytes, inShard);
  inShard.set(start, place);
  return place;
}

/** Buckets of blocks' coarse bounds (block-bounds.ts blockOrder). */
export const BUCKETS = 4096;

/** The layout, the memory, and where the space for impact-bounds.ts begins (after the records). */
export type QueryMemory = ReturnType<typeof layout> & { buffer: ArrayBuffer; impactSpace: number };

/** Bytes of one set of documents (a bit each, in whole 32-bit words). */
export const setBytesOf = (documents: number) => Math.ceil(documents / 32) * 4;

/** Byte offsets of a search's columns: the ones zeroed per query first, up to `zeroed`. */
function layout(words: number, documents: number, longest: number) {
  const blocks = blockCount(documents);
  const setBytes = setBytesOf(documents);
  const all = scratchStart();
  const coarse = all + words * blocks * 8;
  const bucketBest = coarse + blocks * 8;
  const exactWords = bucketBest + BUCKETS * 8;
  const starts = exactWords + align8(blocks * 4);
  // Per word, the documents some form of it is in, then per word those its own term is in (match-count.ts).
  const found = starts + align8((BUCKETS + 1) * 4);
  const exactSets = found + words * setBytes;
  const zeroed = align8(exactSets + words * setBytes);
  const formBounds = zeroed;
  const formBlocks = formBounds + longest * 8;
  const touched = formBlocks + align8(longest * 4);
  const order = touched + align8(blocks * 4);
  const bucketOf = order + align8(blocks * 4);
  const next = bucketOf + align8(blocks * 4);
  const exact = next + BUCKETS * 4;
  // A byte per block: it holds a complete match (block-bounds.ts blockBounds, when only those are bounded).
  const completeBlocks = exact + blocks;
  const orderBound = align8(completeBlocks + blocks);
  const free = orderBound + blocks * 8;
  return {
    blocks,
    all,
    coarse,
    bucketBest,
    exactWords,
    starts,
    setBytes,
    found,
    exactSets,
    zeroed,
    formBounds,
    formBlocks,
    touched,
    order,
    bucketOf,
    next,
    exact,
    completeBlocks,
    orderBound,
    free,
  };
}

/**
 * The memory for a query of `units` over `documents` (and a page of up to `heapSlots` results), reserved,
 * its common terms' records kept (each form told where, prepared-form.ts `kept`) and its first columns zeroed.
 */
export function placeQuery(units: PreparedForm[][], documents: number, heapSlots: number): QueryMemory {
  let longest = 0;
  for (const forms of units) for (const { count } of forms) longest = Math.max(longest, count);
  keepRecords(units);
  const at = layout(units.length, documents, longest);
  const impactSpace = at.free;
  const buffer = reserve(impactSpace + impactSpaceBytes(units, at.blocks, heapSlots));
  new Uint8Array(buffer, at.all, at.zeroed - at.all).fill(0);
  return { ...at, buffer, impactSpace };
}

/** Lets every kept record go: the kept space starts again from the next query's. */
export function letKeptGo(): void {
  kept = new WeakMap();
  keepUpTo(0);
}

/**
 * Keeps each common term's record of `units` in the module's memory (once per record: a neighbour's record
 * is a copy with its own weights, query-plan.ts, over the same bytes), and tells its forms where it is. When
 * the records not kept yet would take the kept space past its limit, it starts again with this query's.
 */
function keepRecords(units: PreparedForm[][]): void {
  const common = units.flat().filter(({ form }) => form.record.table);
  const missing = (records: PreparedForm[]) => {
    const seen = new Map<Uint8Array, Set<number>>();
    let bytes = 0;
    for (const { form } of records) {
      const { bytes: shard, start } = form.record;
      const inShard = seen.get(shard) ?? new Set<number>();
      seen.set(shard, inShard);
      if (keptOf(form.record) || inShard.has(start)) continue;
      inShard.add(start);
      bytes += keptBytes(form.record);
    }
    return bytes;
  };
  let needed = missing(common);
  if (needed > 0 && scratchStart() + needed > keptSpace.limit) {
    letKeptGo();
    needed = missing(common);
  }
  let at = scratchStart();
  const memory = reserve(at + needed);
  for (const prepared of common) {
    let place = keptOf(prepared.form.record);
    if (!place) {
      place = keepRecord(prepared.form.record, memory, at);
      at = align8(at + keptBytes(prepared.form.record));
      // Kept so far, though a later record's table may be found malformed.
      keepUpTo(at);
    }
    prepared.kept = place;
  }
}

/**
 * Bytes laid out from `impactSpace`: the forms (impact-bounds.ts: descriptions, weights, work space, tiers,
 * bounds, columns), then the walk's (block-walk.ts: its context, the page's `heapSlots` keys and scores,
 * per-block work space, the list of blocks bounded from the impacts at once).
 */
export function impactSpaceBytes(units: PreparedForm[][], blocks: number, heapSlots: number): number {
  const forms = units.flat();
  const words = units.length;
  const size = RANKING.blockSize;
  let bytes = align8(forms.length * 48) + forms.length * 64 + align8(words * size * 9) + 40;
  bytes = align8(bytes) + blocks * 8;
  for (const prepared of forms) {
    const n = prepared.count;
    const postings = prepared.whole?.postings.docs.length ?? 0;
    bytes += prepared.form.record.table
      ? n * 8 + align8(n * 4) * 5
      : align8(n * 4) + align8((n + 1) * 4) + align8(postings * 4) + postings * 8;
  }
  const perBlock = size * 8 * 2 + words * size * 17 + words * 12 + size * 4 + 40;
  return bytes + 512 + align8((words + 1) * 4) + heapSlots * 16 + perBlock + IMPACTS_CHUNK * 4 + 128;
}
