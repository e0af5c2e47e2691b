/**
 * A file of the build output: written from a body, copied from a content file, or carried over from the
 * previous build (output-tracker.ts): made from the same inputs, so the same bytes, whose digest the previous
 * build recorded. An emit step links or keeps the previous file; only when it cannot does it call `make()`.
 */
import type { AnyEntry } from '../../schemas/collections.ts';

export type OutputFile =
  | { path: string; body: string | Uint8Array }
  | { path: string; copyFrom: string }
  | { path: string; carried: string; make: () => string | Uint8Array };

/**
 * What follows a record's envelope: its page, when the build makes each page beside its envelope
 * (pages/paired-pages.ts). Declared here, with the files both outputs make, since neither output reaches into the other.
 */
export type AfterEnvelope = (key: string, record: AnyEntry) => OutputFile | undefined;

/**
 * The previous build's files that a steady build carries over without naming them (carried-rest.ts): the emit
 * step keeps each as it was. Known once every named file has been given.
 */
export interface CarriedRest {
  /** How many files. */
  size(): number;
  /** Whether the file at `path` is one of them. */
  has(path: string): boolean;
}
