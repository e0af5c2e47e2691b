import { describe, expect, it } from 'vitest';
import { BLOCK_PASSES_WASM } from '../../generator/search/wasm/block-passes-binary.ts';
import { binaryModule, compileBlockPasses } from '../../generator/search/wasm/compile-block-passes.ts';
import { blockPasses, reserve } from '../../generator/search/block-passes.ts';

/** A block table decoded by its two passes, as record-reader.ts decodes it: where it ends, or -1. */
function decodeTable(...table: [at: number, end: number, count: number, size: number, top: number, out: number, bounds: number]) {
  const passes = blockPasses();
  return passes.tableBlocks(...table) < 0 || passes.tableBounds(...table) < 0 ? -1 : passes.tableOffsets(...table);
}

describe('the WebAssembly passes over blocks', () => {
  it('are the bytes their source compiles to now (the module is built from the committed source)', async () => {
    const binary = await compileBlockPasses();
    expect(binaryModule(binary)).toContain(BLOCK_PASSES_WASM);
    expect(Buffer.from(BLOCK_PASSES_WASM, 'base64').equals(Buffer.from(binary))).toBe(true);
  });

  it('refuse a block table that runs past its bytes, or whose level or count is out of range', () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(4096));
    // One entry: block gap 3, count 2, docBytes 2, dataBytes 9, level 255; then a second that is cut short.
    memory.set([3, 2, 2, 9, 255, 1, 2, 2], 0);
    expect(decodeTable(0, 5, 1, 16, 1.5, 64, 512)).toBe(5);
    const view = new DataView(memory.buffer);
    // Its body's offsets count from the table's end.
    expect([0, 1, 2, 3, 4].map((column) => view.getInt32(64 + column * 4, true))).toEqual([2, 2, 0, 2, 11]);
    expect(view.getFloat64(512, true)).toBe(1.5);
    expect(passes.tableBody()).toBe(11);
    expect(decodeTable(0, 8, 2, 16, 1.5, 64, 512)).toBe(-1);
    memory.set([3, 0, 2, 9, 255], 0);
    expect(decodeTable(0, 5, 1, 16, 1.5, 64, 512)).toBe(-1);
    memory.set([3, 17, 2, 9, 255], 0);
    expect(decodeTable(0, 5, 1, 16, 1.5, 64, 512)).toBe(-1);
    memory.set([3, 2, 2, 9, 0], 0);
    expect(decodeTable(0, 5, 1, 16, 1.5, 64, 512)).toBe(-1);
  });

  it('read a table whose entries of the usual shape and longer ones alternate as one reader of any entry would', () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(4096));
    const varint = (value: number) => {
      const bytes: number[] = [];
      for (; value >= 0x80; value = Math.floor(value / 0x80)) bytes.push((value % 0x80) | 0x80);
      return [...bytes, value];
    };
    // [blockGap, count, docBytes, dataBytes, level]: one-byte and two-byte sizes (the short loop), then a
    // two-byte gap, a three-byte size, a long entry as the last, each of which the general loop reads.
    const entries = [
      [1, 16, 20, 130, 200],
      [1, 3, 200, 9, 1],
      [300, 16, 20, 20_000, 255],
      [2, 5, 7, 100, 17],
      [1, 16, 130, 40_000, 90],
      [1, 1, 1, 1, 1],
    ];
    const bytes = entries.flatMap(([gap, count, doc, data, level]) => [...varint(gap!), count!, ...varint(doc!), ...varint(data!), level!]);
    memory.set(bytes, 0);
    const end = bytes.length + 64;
    expect(decodeTable(0, end, entries.length, 16, 2.5, 1024, 2048)).toBe(bytes.length);
    const view = new DataView(memory.buffer);
    const column = (c: number) => entries.map((_, i) => view.getInt32(1024 + (c * entries.length + i) * 4, true));
    let block = -1;
    let body = 0;
    const expected = entries.map(([gap, count, doc, data]) => {
      block += gap!;
      body += doc! + data!;
      return [block, count!, body - doc! - data!, body - data!, body];
    });
    expect([0, 1, 2, 3, 4].map(column)).toEqual([0, 1, 2, 3, 4].map((c) => expected.map((row) => row[c])));
    expect(entries.map((_, i) => view.getFloat64(2048 + i * 8, true))).toEqual(entries.map(([, , , , level]) => (2.5 * level!) / 255));
    expect(passes.tableBody()).toBe(body);
    // A level of 0 or a count past the block's size is refused in the short loop too (the first entry's).
    for (const [at, value] of [
      [5, 0],
      [1, 17],
    ] as const) {
      const broken = [...bytes];
      broken[at] = value;
      memory.set(broken, 0);
      expect(decodeTable(0, end, entries.length, 16, 2.5, 1024, 2048)).toBe(-1);
    }
  });

  it('count the complete matches in a range of documents and mark the blocks that hold one', () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(4096));
    memory.fill(0, 0, 4096);
    // Two words' exact sets, 8 bytes apart (blocks 0 to 3): both hold documents 3, 7, 18 and 25; the first 40 too.
    for (const at of [0, 8]) for (const document of [3, 7, 18, 25]) memory[at + (document >> 3)]! |= 1 << (document & 7);
    memory[40 >> 3]! |= 1;
    expect(passes.completeBlocks(0, 2, 8, 4, 5, 20, 100)).toBe(2);
    expect(Array.from(memory.subarray(100, 104))).toEqual([1, 1, 0, 0]);
    // Documents 7 and 18 are outside [8, 18), 25 and 40 outside too: none in range, no block marked.
    expect(passes.completeBlocks(0, 2, 8, 4, 8, 18, 100)).toBe(0);
    expect(Array.from(memory.subarray(100, 104))).toEqual([0, 0, 0, 0]);
    expect(passes.completeBlocks(0, 2, 8, 4, 0, 64, 100)).toBe(4);
  });

  it("bound a word's first form as formBounds does, and refuse its blocks unless ascending", () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(8192));
    const view = new DataView(memory.buffer);
    // A form of 5 entries over 8 blocks: blocks at 0 (i32), bounds at 64 (f64; one of them 0, nothing found).
    const blocks = [0, 2, 3, 5, 7];
    const bounds = [1.5, 0, 0.25, 3, 2];
    const place = (list: number[]) => {
      for (const [i, block] of list.entries()) view.setInt32(i * 4, block, true);
    };
    place(blocks);
    for (const [i, bound] of bounds.entries()) view.setFloat64(64 + i * 8, bound, true);
    // Each pass's word bounds (f64 per block), exact bytes and touched blocks, from zeroed memory.
    const run = (first: boolean, only: number) => {
      memory.fill(0, 1024, 4096);
      memory.fill(7, 2048, 2056);
      const count = first
        ? passes.firstFormBounds(0, 64, 0.5, 5, 8, 1024, 2048, 3072, 1, only)
        : passes.formBounds(0, 64, 0.5, 5, 8, 1024, 2048, 3072, 0, 1, only);
      const read = (at: number, n: number, get: (at: number) => number) => Array.from({ length: n }, (_, i) => get(at + i));
      return {
        count,
        bounds: read(0, 8, (i) => view.getFloat64(1024 + i * 8, true)),
        exact: Array.from(memory.subarray(2048, 2056)),
        touched: read(0, Math.max(count, 0), (i) => view.getInt32(3072 + i * 4, true)),
      };
    };
    expect(run(true, 0)).toEqual(run(false, 0));
    expect(run(true, 0).touched).toEqual([0, 3, 5, 7]);
    // Only the blocks `only` marks (a byte per block at 4096).
    memory.fill(0, 4096, 4104);
    memory.set([1, 1], 4096 + 3);
    expect(run(true, 4096)).toEqual(run(false, 4096));
    expect(run(true, 4096).touched).toEqual([3]);
    // A block listed twice, out of order, or out of range.
    for (const list of [
      [0, 2, 2, 5, 7],
      [0, 3, 2, 5, 7],
      [-1, 2, 3, 5, 7],
      [0, 2, 3, 5, 8],
    ]) {
      place(list);
      expect(passes.firstFormBounds(0, 64, 0.5, 5, 8, 1024, 2048, 3072, 1, 0)).toBe(-1);
    }
  });

  it('order a block by its quick bound: the most words one document holds, times the most a word adds', () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(8192));
    memory.fill(0, 0, 8192);
    const view = new DataView(memory.buffer);
    // 9 words over 2 blocks (their sets 4 bytes apart from 0; best bounds f64 per word and block from 64):
    // in block 0, document 15 has 8 of the words and document 0 has 4; in block 1, document 3 has all 9.
    const words = 9;
    for (let u = 0; u < words; u++) {
      view.setUint16(u * 4, (u < 8 ? 1 << 15 : 0) | (u < 4 ? 1 : 0), true);
      view.setUint16(u * 4 + 2, 1 << 3, true);
      view.setFloat64(64 + u * 2 * 8, u + 1, true);
      view.setFloat64(64 + (u * 2 + 1) * 8, 1, true);
    }
    // Coarse bounds at 512, the order bounds into 1024.
    view.setFloat64(512, 5000, true);
    view.setFloat64(520, 5000, true);
    passes.orderBounds(512, 0, 2, 1024, 0, 4, 64, 2, words, 100, 6);
    // Block 0: 8 words at most, each adding at most 100 and the saturated part of the best bound (8, word 7's).
    expect(view.getFloat64(1024, true)).toBe(8 * (100 + 8 / (8 + 6)));
    // Block 1 has a document with every word: its coarse bound.
    expect(view.getFloat64(1032, true)).toBe(5000);
  });

  it("set a dense term's documents from its bitset and mask bytes, the bitset read no further than its bytes", () => {
    const passes = blockPasses();
    const memory = new Uint8Array(reserve(4096));
    memory.fill(0, 0, 4096);
    const view = new DataView(memory.buffer);
    // One entry, block 1: 3 documents, mask bytes at 100 (fields 1, 4, 1), ending at 110.
    for (const [column, value] of [1, 3, 50, 100, 110].entries()) view.setInt32(1024 + column * 4, value, true);
    memory.set([1, 4, 1], 100);
    // The bitset is 3 bytes: documents 16, 17 and 20 (block 1's first byte); the byte after it is not its.
    memory.set([0, 0, 0x13, 0xff], 200);
    expect(passes.formBits(0, 1024, 1, 1, 0, 21, 2048, 200, 3)).toBe(0);
    // Documents 16 and 20 have the term in field 1; document 17 only in another.
    expect(Array.from(memory.subarray(2048, 2052))).toEqual([0, 0, 0x11, 0]);
    // A count the bitset does not have is refused.
    view.setInt32(1024 + 4, 2, true);
    expect(passes.formBits(0, 1024, 1, 1, 0, 21, 2048, 200, 3)).toBe(-1);
  });
});
