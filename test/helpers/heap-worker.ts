/** A worker thread that reports its heap as the build's thread does (heap-main.ts): its young generation's size and the full collections of holding many objects. */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { parentPort } from 'node:worker_threads';

export interface HeapReport {
  /** The size the young generation grew to, in MB. */
  youngMb: number;
  /** Full (mark-compact) collections while 2.5 million objects, some 300 MB, were made and held. */
  fullCollections: number;
}

/** Allocates about a million short-lived objects, so that V8 grows the young generation as far as it may. */
function churn(): number {
  let kept: { n: number; text: string }[] = [];
  for (let n = 0; n < 3_000_000; n++) {
    kept.push({ n, text: `item ${n}` });
    if (kept.length > 200_000) kept = [];
  }
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return (young?.space_size ?? 0) / 2 ** 20;
}

/** Makes and holds objects as a build keeps its records, counting the full collections V8 runs meanwhile. */
async function holdMany(): Promise<number> {
  let full = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) full++;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const held: { n: number; text: string }[] = [];
  for (let n = 0; n < 2_500_000; n++) held.push({ n, text: `item ${n} of those held` });
  // The observer is told of collections on a later turn of the event loop.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return held.length > 0 ? full : -1;
}

export const heapReport = async (): Promise<HeapReport> => ({ youngMb: churn(), fullCollections: await holdMany() });

if (parentPort) parentPort.postMessage(await heapReport());
