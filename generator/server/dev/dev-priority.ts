/**
 * The builder thread's priority in `npm run dev`, set from the server's thread by how busy the server is.
 * An edit waits on its rebuild, and a rebuild at a lower priority than the server took 1.35 times its CPU
 * on a quiet machine and 2 to 10 times under load; but a rebuild at the server's priority, every second
 * while the server answers all it can, costs it some of its throughput. So the builder runs at the server's
 * priority while the server is idle or lightly used (an editor's browser, a front-end polling), and below
 * it while the server's thread is busy most of the time (a load test, a crawler).
 *
 * Linux sets a thread's priority by its thread id, which the builder sends once it starts. Raising a
 * priority again needs the right to (root, or `ulimit -e`): without it, the builder stays lowered from the
 * first time the server was busy until dev is restarted, as it always was before.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';

/** Nice values: the server's, and the builder's while the server is busy (above idle work, 19). */
export const NORMAL = 0;
export const LOWERED = 10;

/** The server's thread is busy when it ran this share of the last sample. */
const BUSY_SHARE = 0.75;
/** How often the server's use is sampled. */
const SAMPLE_MS = 200;

/** This thread's id as Linux knows it (`/proc/thread-self` links to `<pid>/task/<tid>`); undefined elsewhere. */
export function ownThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

export interface BuilderPriority {
  /** The builder's thread, once it has said which it is. */
  attach(tid: number): void;
  /** Starts following the server's use (before: the builder keeps the server's priority, for the first build). */
  follow(): void;
  /** The builder's nice value now. */
  current(): number;
  stop(): void;
}

/**
 * Follows the server thread's event-loop use (this thread's) and sets the builder's nice value from it.
 * `set` and `utilization` are the system's unless a test gives its own.
 */
export function createBuilderPriority(
  options: { set?: (tid: number, nice: number) => void; utilization?: () => number; sampleMs?: number } = {},
): BuilderPriority {
  const set = options.set ?? setPriority;
  const utilization = options.utilization ?? serverUtilization();
  let tid: number | undefined;
  let nice = NORMAL;
  let canRaise = true;
  let timer: NodeJS.Timeout | undefined;
  const apply = (wanted: number) => {
    if (tid === undefined || wanted === nice || (wanted < nice && !canRaise)) return;
    try {
      set(tid, wanted);
      nice = wanted;
    } catch {
      // Lowering is always allowed; raising may not be (no right to): the builder stays where it is.
      if (wanted < nice) canRaise = false;
    }
  };
  return {
    attach: (id) => {
      tid = id;
    },
    follow() {
      timer ??= setInterval(() => apply(utilization() >= BUSY_SHARE ? LOWERED : NORMAL), options.sampleMs ?? SAMPLE_MS);
      timer.unref();
    },
    current: () => nice,
    stop: () => clearInterval(timer),
  };
}

/** The share of the time since it was last called that this thread's event loop was running, not waiting. */
function serverUtilization(): () => number {
  let last = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}
