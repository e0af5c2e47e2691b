/**
 * What the previous build wrote, so the next can link the files whose bytes have not changed instead of
 * writing them: a digest of every written file, kept beside the output (`<out>.digests.json`, safe to
 * delete) with the identity of the folder it describes, so a folder replaced or removed since is not trusted.
 */
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';

export interface PreviousOutput {
  dir: string;
  digests: ReadonlyMap<string, string>;
}

const digestsFile = (target: string) => `${target}.digests.json`;

/** An output folder's identity: its inode, which an atomic swap changes. */
export function identityOf(dir: string): string | undefined {
  try {
    const stats = statSync(dir);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return undefined;
  }
}

/** The previous build's digests, when the folder they describe is still the one in place. */
export function readPreviousOutput(target: string): PreviousOutput | undefined {
  try {
    const recorded = JSON.parse(readFileSync(digestsFile(target), 'utf8')) as { identity: string; files: Record<string, string> };
    if (recorded.identity !== identityOf(target)) return undefined;
    return { dir: target, digests: new Map(Object.entries(recorded.files)) };
  } catch {
    return undefined;
  }
}

/** Records the digests of the build now in place. */
export function recordOutput(target: string, digests: ReadonlyMap<string, string>): void {
  writeFileSync(digestsFile(target), JSON.stringify({ identity: identityOf(target), files: Object.fromEntries(digests) }));
}

/** Forgets the digests while the output is changed in place, so that an update cut short is not trusted. */
export function forgetOutput(target: string): void {
  rmSync(digestsFile(target), { force: true });
}
