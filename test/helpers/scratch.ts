/**
 * Where the suites make their temporary folders: the memory filesystem at /dev/shm where the machine has one
 * with room, else the system's temporary folder. The suites make and delete hundreds of thousands of small
 * files (every build writes its output, every test file removes its folders); on the ext4 disk of the 2-core
 * CI machine the kernel's search for a free inode among so many just deleted cost more than the builds
 * (test/pipeline/incremental.test.ts: 70 s, 30 s of CPU in the kernel and 25 s in the tests; in memory 28 s,
 * 7 s and 26 s). No suite tests the disk itself. The browser's unpacked copy stays in the system's folder.
 */
import { accessSync, constants, mkdtempSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const MEMORY = '/dev/shm';
/** Room enough: a whole run peaked at 1.3 GB (two test files at once); a container's 64 MB default is too small. */
const NEEDED_BYTES = 4 * 1024 ** 3;

function hasRoom(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize >= NEEDED_BYTES;
  } catch {
    return false;
  }
}

/** The folder temporary folders are made in. */
export const SCRATCH = hasRoom(MEMORY) ? MEMORY : os.tmpdir();
/** The system's temporary folder, for the suites that cannot use memory (Deno's, the Netlify cache plugin's). */
export const ON_DISK = os.tmpdir();

/** A fresh empty folder under `parent` named after `prefix`; the caller deletes it. */
export const scratchDir = (prefix: string, parent = SCRATCH): string => mkdtempSync(path.join(parent, `${prefix}-`));
