/**
 * What both ways of emitting (a new folder swapped in, or the folder updated in place) decide for each output
 * file: its digest and size, and whether the previous build's copy stays (`record`) or the file is written
 * (`body`). A carried file (output-tracker.ts) is made only when its previous copy cannot stay.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import type { OutputFile } from '../outputs/output-file.ts';
import type { FileRecord } from './previous-output.ts';

export type Settled = { digest: string; size: number } & ({ record: FileRecord } | { body: string | Uint8Array });

/** `keep` says whether the previous copy of a file with this digest stays, and gives its record if so. */
export function settleFile(file: OutputFile, keep: (file: string, digest: string) => FileRecord | undefined): Settled {
  const carried = 'carried' in file ? keep(file.path, file.carried) : undefined;
  if (carried) return { digest: carried[0], size: carried[1], record: carried };
  // Compared by its bytes like any other file (an image, the editor's scripts): a build after a small
  // edit neither rewrites nor counts the copies that did not change.
  const body = 'body' in file ? file.body : 'carried' in file ? file.make() : readFileSync(file.copyFrom);
  const digest = hash('sha1', body, 'base64');
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  const record = keep(file.path, digest);
  return record ? { digest, size, record } : { digest, size, body };
}

/** Makes a folder the first time an emit needs it. */
export function makeDirOnce(made: Set<string>, dir: string): void {
  if (made.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  made.add(dir);
}
