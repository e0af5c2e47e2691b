/**
 * The WebAssembly side of a search's passes over blocks (wasm/block-passes.as.ts): the module, instantiated
 * once per isolate from the bytes the bundle carries, and its memory. A fresh isolate compiles it at once
 * with the baseline compiler, so a first search runs these loops at machine speed instead of in the
 * interpreter (and does not pay the optimizing compilers for them). Web APIs only; Node and Deno run the same
 * bytes, with the same IEEE arithmetic as JavaScript, so answers are identical. Runtime-neutral.
 */
import { BLOCK_PASSES_WASM } from './wasm/block-passes-binary.ts';

export interface BlockPasses {
  memory: WebAssembly.Memory;
  tableBlocks(at: number, end: number, count: number, size: number, top: number, out: number, bounds: number): number;
  tableOffsets(at: number, end: number, count: number, size: number, top: number, out: number, bounds: number): number;
  tableBounds(at: number, end: number, count: number, size: number, top: number, out: number, bounds: number): number;
  tableBody(): number;
  decodeRare(at: number, end: number, count: number, fields: number, docs: number, masks: number, tf: number, lengths: number): number;
  tableLastBlock(): number;
  firstFormBounds(
    list: number,
    bound: number,
    weight: number,
    n: number,
    blocks: number,
    all: number,
    exact: number,
    touched: number,
    isExact: number,
    only: number,
  ): number;
  formBounds(
    list: number,
    bound: number,
    weight: number,
    n: number,
    blocks: number,
    all: number,
    exact: number,
    touched: number,
    count: number,
    isExact: number,
    only: number,
  ): number;
  completeBlocks(exact: number, words: number, setBytes: number, blocks: number, first: number, end: number, into: number): number;
  wordBounds(
    touched: number,
    count: number,
    all: number,
    exact: number,
    coarse: number,
    exactWords: number,
    foundTier: number,
    exactTier: number,
    saturation: number,
    words: number,
    complete: number,
  ): void;
  impactBlockBounds(list: number, listLength: number): number;
  formBits(
    base: number,
    columns: number,
    n: number,
    fields: number,
    first: number,
    end: number,
    bits: number,
    dense: number,
    denseBytes: number,
  ): number;
  orBytes(into: number, from: number, bytes: number): void;
  typoScan(at: number, end: number, count: number, word: number, wordLength: number, mode: number, out: number): number;
  unionCount(sets: number, count: number, setBytes: number, first: number, end: number): number;
  bindWalk(context: number, saturation: number, room: number, span: number, k: number, b: number, d: number): void;
  walk(): number;
  prepareRare(
    count: number,
    docs: number,
    masks: number,
    tf: number,
    lengths: number,
    fields: number,
    weights: number,
    averages: number,
    size: number,
    k: number,
    b: number,
    d: number,
    scores: number,
    blocks: number,
    bounds: number,
    starts: number,
  ): number;
  tightBound(block: number): number;
  lowerByImpacts(block: number): number;
  orderBounds(
    coarse: number,
    first: number,
    end: number,
    bounds: number,
    found: number,
    setBytes: number,
    best: number,
    blocks: number,
    words: number,
    exactTier: number,
    saturation: number,
  ): void;
  blockOrder(
    bounds: number,
    first: number,
    end: number,
    starts: number,
    bucketBest: number,
    order: number,
    bucketOf: number,
    next: number,
  ): number;
}

let instance: BlockPasses | undefined;

/** The runtime's own base64 decoder where it has one (Deno does; Node 20 does not). */
const fromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array<ArrayBuffer> }).fromBase64;

function moduleBytes(): Uint8Array<ArrayBuffer> {
  // A loop over 12,000 characters costs a fresh isolate about half a millisecond in the interpreter.
  if (fromBase64) return fromBase64(BLOCK_PASSES_WASM);
  const text = atob(BLOCK_PASSES_WASM);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The module's exports (compiled on first use). */
export function blockPasses(): BlockPasses {
  instance ??= new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()), {}).exports as unknown as BlockPasses;
  return instance;
}

/**
 * Bytes at the start of the memory that hold what is kept there between searches (query-memory.ts: common
 * terms' records and their block tables). A search's scratch space starts after them, at `scratchStart()`.
 */
let keptEnd = 0;

/** Where a search's scratch space starts: past the kept bytes, aligned to 8. */
export const scratchStart = () => align8(keptEnd);

/** The kept bytes end at `end` from now on (0: nothing kept). The memory must already hold them (reserve). */
export function keepUpTo(end: number): void {
  keptEnd = end;
}

/**
 * The module's memory, at least `bytes` long. Growing it replaces its buffer: views taken before a call to
 * this are invalid after it, so a pass reserves all it needs first.
 */
export function reserve(bytes: number): ArrayBuffer {
  const { memory } = blockPasses();
  const missing = bytes - memory.buffer.byteLength;
  // At least doubled: each growth costs a new buffer, and a query's needs rise step by step.
  if (missing > 0) memory.grow(Math.ceil(Math.max(missing, memory.buffer.byteLength, 1 << 20) / 65_536));
  return memory.buffer;
}

/** `bytes` rounded up to a multiple of 8 (so a float64 column can start there). */
export const align8 = (bytes: number) => Math.ceil(bytes / 8) * 8;
