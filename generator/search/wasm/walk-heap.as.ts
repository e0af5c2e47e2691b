// The page so far (scoring.ts): a min-heap of keys, each a result's score units above its inverted document,
// so plain comparison ranks them (score, then document order: type, then id), beside each result's score
// before rounding. Its count is this module's; below compares a bound with the page's lowest result.
import { KEYS, RAWS, capacity, field, room, span } from './walk-state.as';

let heapCount: i32 = 0;

/** Empties the page (a walk's start). */
export function clearHeap(): void {
  heapCount = 0;
}

/** How many results the page holds. */
export function heapSize(): i32 {
  return heapCount;
}

function lowestUnits(): f64 {
  return Math.floor(load<f64>(field(KEYS)) / span);
}

/** Whether `bound` cannot reach the page (scoring.ts `below`). */
export function below(bound: f64): bool {
  if (capacity < 0 || heapCount < capacity) return false;
  return Math.ceil(bound * 10000.0 * room) < lowestUnits();
}

function swap(keys: i32, raws: i32, a: i32, c: i32): void {
  const key = load<f64>(keys + (a << 3));
  const raw = load<f64>(raws + (a << 3));
  store<f64>(keys + (a << 3), load<f64>(keys + (c << 3)));
  store<f64>(raws + (a << 3), load<f64>(raws + (c << 3)));
  store<f64>(keys + (c << 3), key);
  store<f64>(raws + (c << 3), raw);
}

/** Adds a result to a page not yet full (kept in heap order unless every match is kept). */
function add(keys: i32, raws: i32, key: f64, raw: f64): void {
  let at = heapCount++;
  store<f64>(keys + (at << 3), key);
  store<f64>(raws + (at << 3), raw);
  if (capacity < 0) return;
  while (at > 0) {
    const parent = (at - 1) >> 1;
    if (load<f64>(keys + (parent << 3)) <= load<f64>(keys + (at << 3))) break;
    swap(keys, raws, at, parent);
    at = parent;
  }
}

/** Puts a result in place of the full page's lowest, and sifts it down. */
function replaceLowest(keys: i32, raws: i32, key: f64, raw: f64): void {
  store<f64>(keys, key);
  store<f64>(raws, raw);
  let at = 0;
  for (;;) {
    let child = 2 * at + 1;
    if (child >= heapCount) break;
    if (child + 1 < heapCount && load<f64>(keys + ((child + 1) << 3)) < load<f64>(keys + (child << 3))) child++;
    if (load<f64>(keys + (child << 3)) >= load<f64>(keys + (at << 3))) break;
    swap(keys, raws, at, child);
    at = child;
  }
}

/** Offers a result; -2 when its key is no safe integer. */
export function push(units: f64, document: i32, raw: f64): i32 {
  const key = units * span + (span - 1.0 - <f64>document);
  if (!(key <= 9007199254740991.0)) return -2;
  if (capacity < 0 || heapCount < capacity) add(field(KEYS), field(RAWS), key, raw);
  else if (key > load<f64>(field(KEYS))) replaceLowest(field(KEYS), field(RAWS), key, raw);
  return 0;
}

/** scoring.ts scoreUnits: ten-thousandths, rounded as Math.round (halves up), at least 1. */
export function scoreUnits(raw: f64): f64 {
  const x = raw * 10000.0;
  let r = Math.floor(x);
  if (x - r >= 0.5) r += 1.0;
  return r < 1.0 ? 1.0 : r;
}
