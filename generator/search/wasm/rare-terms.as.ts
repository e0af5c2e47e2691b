// A rare term's record in WebAssembly (record-reader.ts, prepared-form.ts): its postings decoded into
// columns, then each scored (ranking.ts BM25+, operation for operation on IEEE doubles) and grouped into the
// blocks the walk visits, each block's best score its bound.
import { cursor, readVarint, setCursor } from './varint.as';
import { bm25, setKnobs } from './walk-state.as';

/**
 * postings-codec.ts decodePostings for a rare term's record: `count` postings (docGap, fieldMask, a (tf,
 * length) pair per field in the mask) from memory `[at, end)`, documents counted from -1, into columns:
 * documents (i32 at `docs`), masks (u8 at `masks`), tf and length per posting and field (u32, `fields`
 * apart, at `tf` and `lengths`; zeroed by the caller). Returns where the postings end, -1 when malformed.
 */
export function decodeRare(at: i32, end: i32, count: i32, fields: i32, docs: i32, masks: i32, tf: i32, lengths: i32): i32 {
  let document: i64 = -1;
  const all = (1 << fields) - 1;
  setCursor(at);
  for (let i = 0; i < count; i++) {
    let value = readVarint(end, 8);
    if (value < 0) return -1;
    document += value;
    store<i32>(docs + (i << 2), <i32>document);
    value = readVarint(end, 8);
    if (value < 0) return -1;
    if (value == 0 || value > all) return -1;
    const mask = <i32>value;
    store<u8>(masks + i, <u8>mask);
    // Field by field of its mask only (each turn of a loop counts its whole code against the engine's budget).
    for (let left = mask; left != 0; left &= left - 1) {
      const to = (i * fields + ctz<i32>(left)) << 2;
      value = readVarint(end, 8);
      if (value < 0) return -1;
      store<i32>(tf + to, <i32>value);
      value = readVarint(end, 8);
      if (value < 0) return -1;
      store<i32>(lengths + to, <i32>value);
    }
  }
  return cursor;
}

/**
 * prepared-form.ts for a rare term's form: its `count` postings (documents at `docs`, i32; masks at `masks`,
 * u8; tf and length per posting and field, 5 apart, u32 at `tf` and `lengths`) scored where their mask meets
 * the form's `fields` (`weights`: the form's weight, then per field boost * idf; `averages` per field; f64),
 * into `scores` (f64 per posting); its blocks of `size` documents (i32 at `blocks`), each one's best score
 * (f64 at `bounds`) and first posting (i32 at `starts`, one more at the end). Returns how many blocks.
 */
export function prepareRare(
  count: i32, docs: i32, masks: i32, tf: i32, lengths: i32, fields: i32, weights: i32, averages: i32, blockSize: i32,
  k1: f64, bm25b: f64, delta: f64, scores: i32, blocks: i32, bounds: i32, starts: i32,
): i32 {
  setKnobs(k1, bm25b, delta);
  const weight = load<f64>(weights);
  let n = 0;
  for (let i = 0; i < count; i++) {
    const mask = <i32>load<u8>(masks + i) & fields;
    let score = 0.0;
    if (mask) {
      let sum = 0.0;
      for (let left = mask; left != 0; left &= left - 1) {
        const id = ctz<i32>(left);
        const at = (i * 5 + id) << 2;
        const idf = load<f64>(weights + ((1 + id) << 3));
        sum += bm25(idf, <f64>load<u32>(tf + at), <f64>load<u32>(lengths + at), load<f64>(averages + (id << 3)));
      }
      score = weight * sum;
    }
    store<f64>(scores + (i << 3), score);
    const block = <i32>Math.floor(<f64>load<i32>(docs + (i << 2)) / <f64>blockSize);
    if (n == 0 || load<i32>(blocks + ((n - 1) << 2)) != block) {
      store<i32>(blocks + (n << 2), block);
      store<f64>(bounds + (n << 3), 0);
      store<i32>(starts + (n << 2), i);
      n++;
    }
    const best = bounds + ((n - 1) << 3);
    if (score > load<f64>(best)) store<f64>(best, score);
  }
  store<i32>(starts + (n << 2), count);
  return n;
}
