/**
 * A gate one thread opens and another waits at, shared through a worker's data (its memory is shared, not
 * copied): `npm run build` has the output's damage check (emit/damage-check.ts) wait at one until the content's
 * check (content-check.ts) is done, so that on two cores the content's check, which the build's own thread
 * waits for, does not share the second core with a check the build asks for only once its outputs are made.
 */
export type Gate = Int32Array;

/** A closed gate. */
export const closedGate = (): Gate => new Int32Array(new SharedArrayBuffer(4));

/** Opens the gate, waking the thread waiting at it. Opening it again does nothing. */
export function openGate(gate: Gate): void {
  Atomics.store(gate, 0, 1);
  Atomics.notify(gate, 0);
}

/** Waits until the gate is open, or `ms` have passed (a thread that fails to open it holds nothing for long). */
export function waitAtGate(gate: Gate, ms: number): void {
  Atomics.wait(gate, 0, 0, ms);
}
