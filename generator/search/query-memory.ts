/**
 * Where a search keeps its per-block columns in the WebAssembly module's memory (block-passes.ts): one
 * layout per query, reserved in one step before any view of it is taken (a growth would invalidate them),
 * with a copy of each common term's record the module reads. Runtime-neutral.
 */
import { align8, reserve } from './block-passes.ts';
import type { PreparedForm } from './prepared-form.ts';
import { blockCount } from './postings-codec.ts';
import { RANKING } from './ranking.ts';

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
  const all = 0;
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
  // A form's table columns (block, count, docStart, dataStart, dataEnd) for match-count.ts.
  const columns = formBlocks + align8(longest * 4);
  const touched = columns + align8(longest * 4 * 5);
  const order = touched + align8(blocks * 4);
  const bucketOf = order + align8(blocks * 4);
  const next = bucketOf + align8(blocks * 4);
  const exact = next + BUCKETS * 4;
  const records = align8(exact + blocks);
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
    columns,
    touched,
    order,
    bucketOf,
    next,
    exact,
    records,
  };
}

/**
 * The memory for a query of `units` over `documents` (and a page of up to `heapSlots` results), reserved,
 * its first columns zeroed and the common terms' records placed (each form told where, prepared-form.ts `base`).
 */
export function placeQuery(units: PreparedForm[][], documents: number, heapSlots: number): QueryMemory {
  let longest = 0;
  let records = 0;
  for (const forms of units) {
    for (const { blocks, form } of forms) {
      longest = Math.max(longest, blocks.length);
      if (form.record.blocks) records += align8(form.record.end - form.record.start);
    }
  }
  const at = layout(units.length, documents, longest);
  const impactSpace = at.records + records;
  const buffer = reserve(impactSpace + impactSpaceBytes(units, at.blocks, heapSlots));
  new Uint8Array(buffer, 0, at.zeroed).fill(0);
  placeRecords(units, buffer, at.records);
  return { ...at, buffer, impactSpace };
}

/** Copies each common term's record of `units` into `memory` from `at`, once per record, and tells its forms where. */
function placeRecords(units: PreparedForm[][], memory: ArrayBuffer, at: number): void {
  const placed = new Map<Uint8Array, Map<number, number>>();
  for (const forms of units) {
    for (const prepared of forms) {
      const { bytes, start, end, blocks } = prepared.form.record;
      if (!blocks) continue;
      // A neighbour's record is a copy with its own weights (query-plan.ts): the same bytes are placed once.
      const inShard = placed.get(bytes) ?? new Map<number, number>();
      placed.set(bytes, inShard);
      let base = inShard.get(start);
      if (base === undefined) {
        new Uint8Array(memory, at, end - start).set(bytes.subarray(start, end));
        base = at - start;
        inShard.set(start, base);
        at = align8(at + end - start);
      }
      prepared.base = base;
    }
  }
}

/**
 * Bytes laid out from `impactSpace`: the forms (impact-bounds.ts: descriptions, weights, work space, tiers,
 * bounds, columns), then the walk's (block-walk.ts: its context, the page's `heapSlots` keys and scores,
 * per-block work space).
 */
export function impactSpaceBytes(units: PreparedForm[][], blocks: number, heapSlots: number): number {
  const forms = units.flat();
  const words = units.length;
  const size = RANKING.blockSize;
  let bytes = align8(forms.length * 48) + forms.length * 64 + align8(words * size * 9) + 40;
  bytes = align8(bytes) + blocks * 8;
  for (const prepared of forms) {
    const n = prepared.blocks.length;
    const postings = prepared.whole?.postings.docs.length ?? 0;
    bytes += prepared.form.record.blocks
      ? n * 8 + align8(n * 4) * 5
      : align8(n * 4) + align8((n + 1) * 4) + align8(postings * 4) + postings * 8;
  }
  const perBlock = size * 8 * 2 + words * size * 17 + words * 12 + size * 4 + 40;
  return bytes + 512 + align8((words + 1) * 4) + heapSlots * 16 + perBlock + 128;
}
