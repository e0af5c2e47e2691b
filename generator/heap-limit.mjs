// The heap a large build needs. The build's thread holds every record, its relations and every output's path
// until the files are made: 10 to 11 KB of heap an article live at its top (measured at 20,000 and 100,000
// articles), and V8 grows a heap well past what is live before it collects, so past some 200,000 articles it
// needs more than V8's default heap limit, which is 4 GB on a 64-bit machine whatever
// its memory. A build of a content folder that large is started again in a child process with a limit taken
// from the machine's memory. Smaller builds run as they are: a larger limit lets V8 collect later, which would
// raise their peak for nothing, and a second process costs some 50 ms.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';

const MB = 1024 ** 2;
/** Heap a content file takes in the build's thread, with room for V8 to collect. */
const HEAP_PER_FILE = 24 * 1024;
/**
 * Bytes of a folder's own size per entry, as file systems report it: about 37 on ext4, 34 on btrfs (for this
 * site's file names), 20 on tmpfs. Listing a folder of 100,000 files to count them took 60 to 270 ms; its size
 * is one stat.
 */
const FOLDER_BYTES_PER_FILE = 32;
/**
 * Share of the machine's memory the build's thread may take: the rest is its other threads' and the system's.
 * V8 lets a heap grow well past what is live before it collects (1.9 GB for 1.0 GB live at 100,000 articles),
 * up to this limit: at a million articles, some 10 GB live at the build's top (docs/builds.md), the helper's
 * index up to 3.8 GB beside it and the rest outside the heaps, 70% (16.5 GB on a 23.5 GB machine) left the
 * machine short of memory; 60% leaves the build's thread a third more than it holds live.
 */
const MACHINE_SHARE = 0.6;
/** The share of the current limit a build may be expected to need before it is given more. */
const HEADROOM = 0.75;
/**
 * How far a large build's heap may grow past what it holds live before V8 collects, in percent. V8 picks a
 * factor of its own from 1.1 to 4 by how fast it collects, and at 100,000 articles it let 1.0 GB live grow
 * to about 1.9 GB, so the whole build's peak moved between 2.8 and 3.0 GB with when a full collection ran.
 * 40% pinned it at 2.66 GB (a cold build at 100,000 articles, 2026-11-25), for more collections.
 */
const LARGE_HEAP_GROWTH = 40;
/** The heap estimate from which a build is large: below it, the extra collections would cost time for little. */
const LARGE_HEAP_MB = 1024;

/** The content folder a build command names (`--content DIR`, `--content=DIR`; `content` by default). */
function contentFolder(args) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--content') return args[i + 1] ?? 'content';
    if (args[i].startsWith('--content=')) return args[i].slice('--content='.length);
  }
  return 'content';
}

/**
 * About how many files a content folder holds, from its folders' sizes, two levels deep. A folder whose link
 * count is 2 holds no folder (its own name and its `.`; each folder inside adds its `..`), so it is not
 * listed: listing the 100,000 articles' folder to find none took 60 to 270 ms of every build. Where link
 * counts say nothing of folders (btrfs gives 1), every folder is listed. `list`: a folder's entries.
 */
export function estimateFiles(dir, list = (folder) => readdirSync(folder, { withFileTypes: true })) {
  let bytes = 0;
  const add = (folder, depth) => {
    let entries;
    try {
      entries = list(folder);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory()) continue;
      const sub = path.join(folder, entry.name);
      let stats;
      try {
        stats = statSync(sub);
      } catch {
        // A folder removed or unreadable since it was listed: the build says what is wrong with it.
        continue;
      }
      bytes += stats.size;
      if (depth > 1 && stats.nlink !== 2) add(sub, depth - 1);
    }
  };
  add(dir, 2);
  return Math.round(bytes / FOLDER_BYTES_PER_FILE);
}

/**
 * The heap limit in MB to start a build of `files` content files with, or undefined to keep V8's own: when
 * the build fits the current limit, when the machine has no more to give, or when a limit was set by hand.
 */
export function heapLimitFor(files, { limitMb, machineMb, flags }) {
  if (/--max-old-space-size/.test(flags)) return undefined;
  if ((files * HEAP_PER_FILE) / MB <= limitMb * HEADROOM) return undefined;
  const wanted = Math.floor(Math.min(machineMb * MACHINE_SHARE, (files * HEAP_PER_FILE) / MB / HEADROOM));
  return wanted > limitMb ? wanted : undefined;
}

/** The heap growth in percent to run a build of `files` content files with, or undefined to keep V8's own. */
export function heapGrowthFor(files, flags) {
  if (/--heap-growing-percent/.test(flags)) return undefined;
  return (files * HEAP_PER_FILE) / MB >= LARGE_HEAP_MB ? LARGE_HEAP_GROWTH : undefined;
}

/**
 * For `npm run build` (the arguments after the entry), a larger heap when the content needs one: runs the
 * command again in a child process with that limit and exits as it does; false when this process should run
 * the command itself.
 */
export function runWithLargerHeap(launcher, entry, args) {
  if (entry !== 'pipeline/cli.ts' || args[0] !== 'build') return false;
  const limitMb = Math.floor(v8.getHeapStatistics().heap_size_limit / MB);
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  const files = estimateFiles(contentFolder(args));
  const growth = heapGrowthFor(files, flags);
  const growthFlags = growth === undefined ? [] : [`--heap-growing-percent=${growth}`];
  const limit = heapLimitFor(files, { limitMb, machineMb: os.totalmem() / MB, flags });
  if (limit === undefined) {
    // V8 reads the factor at every collection, so setting it now governs the whole build, every thread too.
    for (const flag of growthFlags) v8.setFlagsFromString(flag);
    return false;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...growthFlags, `--max-old-space-size=${limit}`, launcher, entry, ...args], {
    stdio: 'inherit',
  });
  // A stop asked of this process is the build's to take: it releases its lock and leaves the last output.
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const signal of signals) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal) {
      for (const name of signals) process.removeAllListeners(name);
      process.kill(process.pid, signal);
    } else process.exit(code ?? 1);
  });
  return true;
}
