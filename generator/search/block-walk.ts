/**
 * The walk over a query's blocks (scoring.ts), run by the WebAssembly module (wasm/block-walk.as.ts): its
 * memory laid out after the forms (impact-bounds.ts), its context written, and the page read back. A fresh
 * isolate runs the walk's loops at the module's compiled speed rather than in the interpreter, and no
 * optimizing compiler is paid for them. Runtime-neutral.
 */
import type { BlockBounds } from './block-bounds.ts';
import { align8, blockPasses } from './block-passes.ts';
import { placeForms } from './impact-bounds.ts';
import type { WordBits } from './match-count.ts';
import type { PreparedForm } from './prepared-form.ts';
import { RANKING } from './ranking.ts';

const CORRUPT = 'postings: record is truncated or corrupt';

/** The context's fields, in wasm/walk-state.as.ts's order (one i32 each). */
const WALK_FIELDS = [
  'forms',
  'formCount',
  'formWeights',
  'wordForms',
  'words',
  'blocks',
  'best',
  'orderBound',
  'order',
  'orderLength',
  'starts',
  'bucketBest',
  'found',
  'exact',
  'setBytes',
  'first',
  'end',
  'size',
  'atOnce',
  'capacity',
  'keys',
  'raws',
  'scratch',
  'tiers',
  'impactOut',
  'slots',
  'wordBounds',
  'impacts',
  'scoreBest',
  'scoreExact',
  'wordOrder',
  'averages',
  'saturated',
  'gapSlots',
  'heapCount',
  'impactsAfter',
  'impactsChunk',
  'buckets',
  'chunk',
] as const;

type WalkContext = Record<(typeof WALK_FIELDS)[number], number>;

/** Blocks a walk visits before it takes blocks' bounds from the impacts, and how many at a time. */
const IMPACTS_AFTER = 64;
export const IMPACTS_CHUNK = 256;
/** Bounds are compared with this much room, so rounding in their sums can never skip a block that counts. */
const BOUND_ROOM = 1 + 1e-9;

export interface WalkOptions {
  range: readonly [number, number];
  /** The page's end (results kept), or -1 to keep every match. */
  capacity: number;
  /** Take blocks' bounds from the impacts once the walk proves long (a query under the words rule). */
  atOnce: boolean;
  averages: readonly number[];
  documents: number;
}

/** A result of the walk: its score units, document and score before rounding. */
export interface Walked {
  units: number;
  document: number;
  raw: number;
}

/** The order of blocks a walk follows (block-bounds.ts blockOrder): where its columns are. */
export interface WalkOrder {
  order: Int32Array;
  starts: Int32Array;
  bucketBest: Float64Array;
}

/** Space from `free` on, taken in steps (each aligned to 8 bytes). */
function spaceFrom(free: number) {
  return (bytes: number) => {
    const at = free;
    free = align8(free + bytes);
    return { at, end: free };
  };
}

/** The walk's memory after the forms: its context's fields and every work space (the words' sets are match-count.ts's). */
function layOut(units: PreparedForm[][], bits: WordBits, bounds: BlockBounds, walkOrder: WalkOrder, options: WalkOptions) {
  const { layout: memory } = bounds;
  const { buffer } = memory;
  const size = RANKING.blockSize;
  const words = units.length;
  const forms = placeForms(units, memory, bounds.tiers);
  const space = spaceFrom(forms.free);
  const take = (bytes: number) => space(bytes).at;
  const put = <T extends Int32Array | Uint8Array | Float64Array>(make: (at: number) => T, values: ArrayLike<number>, bytes: number) => {
    const at = take(bytes);
    make(at).set(values);
    return at;
  };
  const { setBytes } = memory;
  // The words' sets are where match-count.ts made them, one after another per kind.
  if (bits.found[0] && (bits.found[0].byteOffset !== memory.found || bits.exact[0]!.byteOffset !== memory.exactSets))
    throw new Error("search: the words' sets are not where the walk reads them");
  const heapSlots = options.capacity < 0 ? options.range[1] - options.range[0] : options.capacity;
  const fields: WalkContext = {
    ...{ forms: forms.descriptors, formCount: forms.count, formWeights: forms.weights, words, blocks: bounds.blocks },
    wordForms: put((at) => new Int32Array(buffer, at, forms.wordForms.length), forms.wordForms, forms.wordForms.length * 4),
    ...{ best: memory.all, orderBound: memory.orderBound, order: walkOrder.order.byteOffset, orderLength: walkOrder.order.length },
    ...{ starts: walkOrder.starts.byteOffset, bucketBest: walkOrder.bucketBest.byteOffset, buckets: walkOrder.bucketBest.length },
    ...{ found: memory.found, exact: memory.exactSets, setBytes, first: options.range[0], end: options.range[1], size },
    ...{ atOnce: options.atOnce ? 1 : 0, capacity: options.capacity, keys: take(heapSlots * 8), raws: take(heapSlots * 8) },
    ...{ scratch: forms.scratch, tiers: forms.tiers, impactOut: forms.out, slots: take(size * 8), impacts: take(size * 8) },
    ...{ wordBounds: take(words * size * 8), scoreBest: take(words * size * 8), scoreExact: take(words * size) },
    ...{ wordOrder: take(words * 4), saturated: take(words * 8), gapSlots: take(size * 4), heapCount: 0 },
    averages: put((at) => new Float64Array(buffer, at, 5), options.averages, 40),
    ...{ impactsAfter: IMPACTS_AFTER, impactsChunk: IMPACTS_CHUNK, chunk: take(IMPACTS_CHUNK * 4) },
  };
  const context = take(WALK_FIELDS.length * 4);
  if (space(0).end > buffer.byteLength || walkOrder.order.buffer !== buffer) throw new Error('search: the walk outgrew its memory');
  new Int32Array(buffer, context, WALK_FIELDS.length).set(WALK_FIELDS.map((name) => fields[name]));
  return { fields, forms, context, buffer };
}

/**
 * The walk over `units`' blocks in `walkOrder`, laid out in the module's memory (reserved by
 * query-memory.ts placeQuery): `run` gives every result kept, best first; the bounds it uses are exported
 * for tests (each binds the module to this walk first).
 */
export function prepareWalk(units: PreparedForm[][], bits: WordBits, bounds: BlockBounds, walkOrder: WalkOrder, options: WalkOptions) {
  const { fields, forms, context, buffer } = layOut(units, bits, bounds, walkOrder, options);
  const size = RANKING.blockSize;
  const span = 2 ** Math.ceil(Math.log2(options.documents + 1));
  const passes = blockPasses();
  const bind = () => {
    const { k, b, d } = RANKING.bm25;
    passes.bindWalk(context, RANKING.saturation, BOUND_ROOM, span, k, b, d);
  };
  const slots = () => Array.from(new Float64Array(buffer, fields.slots, size));
  return {
    /** Every result kept, best first. */
    run(): Walked[] {
      bind();
      const status = passes.walk();
      if (status === -2) throw new Error('search: score out of range');
      if (status < 0) throw new Error(CORRUPT);
      const count = new Int32Array(buffer, context, WALK_FIELDS.length)[WALK_FIELDS.indexOf('heapCount')]!;
      const keys = new Float64Array(buffer, fields.keys, count);
      const raws = new Float64Array(buffer, fields.raws, count);
      const order = Array.from({ length: count }, (_, i) => i).sort((a, b) => keys[b]! - keys[a]!);
      return order.map((i) => {
        const units = Math.floor(keys[i]! / span);
        return { units, document: span - 1 - (keys[i]! - units * span), raw: raws[i]! };
      });
    },
    /** The block's tight bound, and each document's (by slot). */
    tightBound(block: number): { best: number; slots: number[] } {
      bind();
      return { best: passes.tightBound(block), slots: slots() };
    },
    /** Each document's bound from the impacts, every word lowered (by slot). */
    documentBounds(block: number): number[] {
      bind();
      passes.tightBound(block);
      new Int32Array(buffer, fields.wordOrder, units.length).set(units.map((_, u) => u));
      if (passes.lowerByImpacts(block) < 0) throw new Error(CORRUPT);
      return slots();
    },
    /**
     * Every block's bound from the impacts at once (the walk's order overwritten: run no more), against an
     * empty page (every document found is live), or with `afterRun` against the page `run` just left.
     */
    impactBounds(afterRun = false): Float64Array {
      if (!afterRun) bind();
      const every = new Int32Array(buffer, bounds.layout.order, bounds.blocks);
      every.set(Int32Array.from({ length: bounds.blocks }, (_, block) => block));
      const status = passes.impactBlockBounds(every.byteOffset, every.length);
      if (status < 0) throw new Error(CORRUPT);
      return new Float64Array(buffer, forms.out, bounds.blocks).slice();
    },
  };
}
