/**
 * A thread whose work has time to spare (the output's damage check, needed only when the outputs are
 * staged) gives way to the build's own thread: on Linux a thread has a niceness of its own, and one 10 above
 * the build's gets about a tenth of a core the build's threads contend for, and any core they leave idle. On
 * two cores, the build's thread and the damage check kept both busy while the collector's helpers of the
 * build's thread waited for a core. Elsewhere, or where it is not allowed, the thread keeps its priority.
 */
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** How much nicer than the build's thread (nicenesses go up to 19). */
const NICER_BY = 10;

export function yieldToTheBuild(): void {
  try {
    // `/proc/thread-self` names this very thread: `<pid>/task/<tid>`.
    const thread = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(thread) && thread > 0) setPriority(thread, Math.min(19, getPriority(thread) + NICER_BY));
  } catch {
    // Not Linux, or not allowed.
  }
}
