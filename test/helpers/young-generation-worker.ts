/** A worker thread that makes short-lived objects, then tells the size its young generation grew to (MB). */
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';

/** Allocates about a million short-lived objects, so that V8 grows the young generation as far as it may. */
export function churn(): number {
  let kept: { n: number; text: string }[] = [];
  for (let n = 0; n < 3_000_000; n++) {
    kept.push({ n, text: `item ${n}` });
    if (kept.length > 200_000) kept = [];
  }
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return (young?.space_size ?? 0) / 2 ** 20;
}

if (parentPort) parentPort.postMessage(churn());
