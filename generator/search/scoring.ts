/**
 * Scoring with exact skipping: the page of results a query asks for, and the exact number of matches, read
 * from postings records (record-reader.ts) with the rules of ranking.ts. Runtime-neutral.
 *
 * Documents are cut into blocks of RANKING.blockSize consecutive numbers. For each block, each query word
 * has an upper bound on what it can add to a document there: ranking.ts `wordScore` of the best bound among
 * its forms (the writer stores each block's best score per term) and of whether its own term is there, when
 * some form of it (exact, prefix, typo, synonym) has a posting in the block. Blocks are scored whole, best bound first, into a
 * heap the size of the page; once a block's bound rounds below the heap's lowest score, no later block can
 * change the page, and scoring stops (MaxScore over aligned blocks). So every word always counts, and the
 * page is the one scoring every document would give (test/search/pruning.test.ts compares both).
 *
 * `total` is counted apart without scoring: one bit per document, set from each form's documents (a dense
 * term's bitset is OR-ed whole), then counted in the type's range.
 */
import { explainDocument, type WordExplanation } from './explain.ts';
import { type BlockBounds, blockBounds, blockOrder, quickBound, tightBound } from './block-bounds.ts';
import { lowerByImpacts, lowerSlots } from './document-bounds.ts';
import { type WordBits, wordBits } from './match-count.ts';
import { findBlock, PreparedForm, type Unit } from './prepared-form.ts';
import type { ScoreContext } from './postings-codec.ts';
import { impactBlockBounds } from './impact-bounds.ts';
import { placeQuery } from './query-memory.ts';
import { RANKING, wordScore, wordsRuleFor } from './ranking.ts';
import { Heap } from './top-k.ts';

/** A ranked result: its document, its score rounded to 4 decimals as clients see it, and before rounding. */
export interface Ranked {
  document: number;
  score: number;
  raw: number;
  explanation?: WordExplanation[];
}

export interface RankOptions {
  /** Also explain each result's score (explain.ts). */
  explain?: boolean;
  /** `[first, end)`: the document numbers of the types searched. */
  range: readonly [number, number];
  offset: number;
  limit: number;
  /** Score every block (the reference the skipping is tested against). */
  exhaustive?: boolean;
}

/** The deepest page end kept in a heap; a deeper page sorts every match. */
const HEAP_LIMIT = 4096;
/** Blocks a walk visits before it takes every block's bound from the impacts at once. */
const IMPACTS_AFTER = 64;
/** Blocks of the walk whose bounds from the impacts are taken per call. */
const IMPACTS_CHUNK = 256;
/** Bounds are compared with this much room, so rounding in their sums can never skip a block that counts. */
const BOUND_ROOM = 1 + 1e-9;

/** What scoreBlock needs to stop early: the words' sets and bounds, the block's documents' bounds, the page's bar. */
interface BlockSkip {
  bits: WordBits;
  bounds: BlockBounds;
  slots: Float64Array;
  /** Per word and slot: the word's bound in each document (lowerByImpacts), replaced as the word is scored. */
  words: Float64Array;
  below: (bound: number) => boolean;
  /** The words' indexes, put in the order a block scores them. */
  order: number[];
}

/** Per word and document slot of a block: the best form's score, and whether the word's own term is there. Reused. */
let scratch = { best: new Float64Array(0), exact: new Uint8Array(0) };

/**
 * Scores every document of `block` into `heap`, by the words' best forms, word by word: after each word,
 * the documents' bounds (`slots`, from tightBound and lowerByImpacts) take its real score, and once none can reach the page
 * (`below`) the block's other words are not decoded.
 */
function scoreBlock(units: PreparedForm[][], block: number, range: readonly [number, number], heap: Heap, skip: BlockSkip) {
  const size = RANKING.blockSize;
  const first = block * size;
  if (scratch.best.length < units.length * size)
    scratch = { best: new Float64Array(units.length * size), exact: new Uint8Array(units.length * size) };
  const { best, exact } = scratch;
  best.fill(0, 0, units.length * size);
  exact.fill(0, 0, units.length * size);
  const words = skip.order;
  for (let w = 0; w < words.length; w++) {
    const u = words[w]!;
    for (const prepared of units[u]!) {
      const at = findBlock(prepared.blocks, block);
      if (at >= 0) prepared.scoreInto(at, best, exact, u * size);
    }
    if (w < words.length - 1 && skip.below(lowerSlots(skip.bits, skip.bounds.tiers, block, u, best, u * size, skip.slots, skip.words)))
      return;
  }
  for (let slot = 0; slot < size; slot++) {
    const document = first + slot;
    if (document < range[0] || document >= range[1]) continue;
    let complete = true;
    for (let u = 0; u < units.length && complete; u++) complete = exact[u * size + slot] === 1 && best[u * size + slot]! > 0;
    let raw = 0;
    for (let u = 0; u < units.length; u++) {
      const score = best[u * size + slot]!;
      if (score > 0) raw += wordScore(units.length, exact[u * size + slot] === 1, score, complete);
    }
    if (raw > 0) heap.push(scoreUnits(raw), document, raw);
  }
}

/**
 * `order` (every word once) put widest bound in `block` first, ties by word: an insertion sort, as a query has
 * few words and this runs for every block skipping reaches (a comparator closure per block costs more).
 */
function orderWords(order: number[], { best, blocks }: BlockBounds, block: number): void {
  for (let i = 1; i < order.length; i++) {
    const u = order[i]!;
    const bound = best[u * blocks + block]!;
    let j = i - 1;
    for (; j >= 0; j--) {
      const other = best[order[j]! * blocks + block]!;
      if (other > bound || (other === bound && order[j]! < u)) break;
      order[j + 1] = order[j]!;
    }
    order[j + 1] = u;
  }
}

/** Score units, as clients see them rounded: ten-thousandths, at least 1. */
export const scoreUnits = (raw: number) => Math.max(1, Math.round(raw * 10_000));

/** The page `[offset, offset + limit)` of `units`' matches in `range`, and how many there are. */
export function rank(units: Unit[], context: ScoreContext, options: RankOptions): { total: number; page: Ranked[] } {
  const prepared = units.map(({ forms }) => forms.map((form) => new PreparedForm(form, context)));
  const memory = placeQuery(prepared, context.documents);
  const bits = wordBits(prepared, context.documents, options.range, memory);
  const total = bits.total;
  const end = Math.min(total, options.offset + options.limit);
  if (options.offset >= end) return { total, page: [] };
  const size = RANKING.blockSize;
  const bounds = blockBounds(prepared, memory);
  const { order, starts, bucketBest } = blockOrder(bounds, Math.floor(options.range[0] / size), Math.ceil(options.range[1] / size));
  const heap = new Heap(options.exhaustive || end > HEAP_LIMIT ? Number.POSITIVE_INFINITY : end, context.documents);
  const below = (bound: number) => heap.full() && Math.ceil(bound * 10_000 * BOUND_ROOM) < heap.lowestUnits();
  const slots = new Float64Array(size);
  const words = new Float64Array(units.length * size);
  const skip: BlockSkip = { bits, bounds, slots, words, below, order: units.map((_, u) => u) };
  // Every block's bound from the impacts, taken at once when the walk proves long (impact-bounds.ts), for a
  // query of a few words: its cost grows with every form's postings, and a longer query's walk is cut short
  // by the quick bound (most words in one document) instead.
  const atOnce = !options.exhaustive && wordsRuleFor(units.length);
  let visited = 0;
  let impacts: Float64Array | undefined;
  let boundsOf: ReturnType<typeof impactBlockBounds> | undefined;
  let boundedTo = 0;
  for (let bucket = 0; bucket < starts.length - 1; bucket++) {
    if (starts[bucket] === starts[bucket + 1]) continue;
    if (below(bucketBest[bucket]!)) break;
    for (let i = starts[bucket]!; i < starts[bucket + 1]!; i++) {
      const block = order[i]!;
      if (below(bounds.coarse[block]!)) continue;
      if (++visited >= IMPACTS_AFTER && atOnce && i >= boundedTo) {
        // The next blocks of the walk, a chunk at a time: the cost follows the walk, not the collection.
        boundsOf ??= impactBlockBounds(prepared, memory, options.range, bounds.tiers);
        boundedTo = Math.min(order.length, i + IMPACTS_CHUNK);
        impacts = boundsOf(order, i, boundedTo);
      }
      if ((impacts && below(impacts[block]!)) || (units.length > 1 && below(quickBound(bits, bounds, block)))) continue;
      if (below(tightBound(bits, bounds, block, options.range, slots))) continue;
      // The words whose bound is the widest first: their impacts, then their real scores, lower the bounds the most.
      orderWords(skip.order, bounds, block);
      if (lowerByImpacts(prepared, bits, bounds, block, skip.order, slots, words, below)) continue;
      scoreBlock(prepared, block, options.range, heap, skip);
    }
  }
  const page = heap
    .sorted()
    .slice(options.offset, end)
    .map(({ units, document, raw }): Ranked => ({ document, score: units / 10_000, raw }));
  if (options.explain) {
    const words = units.map(({ word }, u) => ({ word, forms: prepared[u]! }));
    for (const result of page) result.explanation = explainDocument(words, result.document);
  }
  return { total, page };
}
