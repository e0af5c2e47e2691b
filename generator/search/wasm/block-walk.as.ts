// The walk over a query's blocks (scoring.ts), in WebAssembly: blocks visited best bound first (the coarse
// or the quick one, block-order.as.ts), each dropped by the cheapest bound that proves it cannot reach the
// page (that bound, the impacts of the walk's next blocks, the tight bound from the words' sets, each
// document's bound from the impacts: impact-bounds.as.ts, walk-bounds.as.ts), the others scored word by
// word into a heap of the page's size (block-scoring.as.ts, walk-heap.as.ts). block-walk.ts lays out the
// memory and the context (walk-state.as.ts). Arithmetic is the JavaScript rules' (ranking.ts,
// postings-codec.ts), operation for operation on IEEE doubles, so scores are identical to theirs.
import { scoreBlock } from './block-scoring.as';
import { impactBlockBounds } from './impact-bounds.as';
import { lowerByImpacts, tightBound } from './walk-bounds.as';
import { below, clearHeap, heapSize } from './walk-heap.as';
import {
  AT_ONCE, BUCKET_BEST, BUCKETS, CHUNK, HEAP_COUNT, IMPACT_OUT, IMPACTS_AFTER, IMPACTS_CHUNK, ORDER, ORDER_BOUND,
  ORDER_LENGTH, STARTS, WORD_ORDER, bindState, ctx, field, wordBest, words,
} from './walk-state.as';

/** Binds the walk to the context at `at` and the knobs (ranking.ts), for the exports of this module's kin. */
export function bindWalk(at: i32, sat: f64, boundRoom: f64, heapSpan: f64, k1: f64, bm25b: f64, delta: f64): void {
  bindState(at, sat, boundRoom, heapSpan, k1, bm25b, delta);
  clearHeap();
}

/** scoring.ts orderWords: the word order put widest bound in `block` first, ties by word (an insertion sort). */
function orderWords(block: i32): void {
  const order = field(WORD_ORDER);
  for (let i = 1; i < words; i++) {
    const u = load<i32>(order + (i << 2));
    const bound = wordBest(u, block);
    let j = i - 1;
    for (; j >= 0; j--) {
      const other = load<i32>(order + (j << 2));
      const value = wordBest(other, block);
      if (value > bound || (value == bound && other < u)) break;
      store<i32>(order + ((j + 1) << 2), other);
    }
    store<i32>(order + ((j + 1) << 2), u);
  }
}

/**
 * scoring.ts's walk: the blocks in order (bucket by bucket, a bucket whose best bound cannot reach the page
 * ending it), each dropped by the first bound below the page or scored. The page's size is in the heap's
 * count (HEAP_COUNT). 0, or -1 (malformed) / -2 (a score out of range).
 */
export function walk(): i32 {
  const order = field(ORDER);
  const starts = field(STARTS);
  const bounds = field(ORDER_BOUND);
  const out = field(IMPACT_OUT);
  const atOnce = field(AT_ONCE) != 0;
  const length = field(ORDER_LENGTH);
  let visited = 0;
  let impacts = false;
  let boundedTo = 0;
  for (let w = 0; w < words; w++) store<i32>(field(WORD_ORDER) + (w << 2), w);
  // While loops, so that a turn passing a bucket or a block over turns the loop right there: each turn counts
  // the code from the loop's start to where it turns against the engine's budget for recompiling the function
  // (a for loop's continue runs on to its end), and most of the walk's turns pass one over.
  let bucket = 0;
  while (bucket < field(BUCKETS)) {
    const from = load<i32>(starts + (bucket << 2));
    const to = load<i32>(starts + ((bucket + 1) << 2));
    if (from == to) {
      bucket++;
      continue;
    }
    if (below(load<f64>(field(BUCKET_BEST) + (bucket << 3)))) break;
    bucket++;
    let i = from - 1;
    while (++i < to) {
      const block = load<i32>(order + (i << 2));
      if (below(load<f64>(bounds + (block << 3)))) continue;
      if (++visited >= field(IMPACTS_AFTER) && atOnce && i >= boundedTo) {
        // The next blocks of the order that can still reach the page (one below it now stays below: the page
        // only rises), so that none is bounded that the walk will pass over or never reach.
        const chunk = field(CHUNK);
        let listed = 0;
        for (boundedTo = i; boundedTo < length && listed < field(IMPACTS_CHUNK); boundedTo++) {
          const next = load<i32>(order + (boundedTo << 2));
          if (!below(load<f64>(bounds + (next << 3)))) store<i32>(chunk + (listed++ << 2), next);
        }
        const status = impactBlockBounds(chunk, listed);
        if (status < 0) return status;
        impacts = true;
      }
      if (impacts && below(load<f64>(out + (block << 3)))) continue;
      if (below(tightBound(block))) continue;
      orderWords(block);
      const dropped = lowerByImpacts(block);
      if (dropped < 0) return dropped;
      if (dropped == 1) continue;
      const status = scoreBlock(block);
      if (status < 0) return status;
    }
  }
  store<i32>(ctx + (HEAP_COUNT << 2), heapSize());
  return 0;
}
