/**
 * The content folder's listing for `npm run dev`'s builds, kept from one build to the next and brought up to
 * date from the watcher's reports: a stat of each path reported since the last build, not of every file in
 * the folder (4,000 stats an edit at 4,000 articles). It is listed whole again for the first build and the
 * warm-up, after a build that failed, and whenever a report may hide more than the files it names: a folder,
 * a link, the folder itself, a path the listing does not hold the folder of, or a burst too large to go
 * through one by one. What the listing yields is what listing the folder whole yields
 * (test/server/dev-content-listing.test.ts).
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { type ContentEntry, listEntries } from '../../pipeline/load/scan-content.ts';
import { keptStats } from '../../pipeline/load/file-stats.ts';

/** Past this many reported paths, listing the folder whole costs no more than a stat of each. */
const MAX_REPORTED = 512;

export interface ContentListing {
  /** Paths (relative to the content folder, with `/`) the watcher reported changed; `all` when anything may have. */
  report(paths: Iterable<string> | 'all'): void;
  /** The folder's listing now, as listEntries gives it; takes the reports so far. */
  list(root: string): ContentEntry[];
}

/** listEntries' order: each folder's names sorted, a folder before what it holds. */
function byListingOrder(a: ContentEntry, b: ContentEntry): number {
  const left = a.path.split('/');
  const right = b.path.split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}

/** A listing, and each path's position in it. */
interface Listed {
  entries: ContentEntry[];
  at: ReadonlyMap<string, number>;
}

const listed = (entries: ContentEntry[]): Listed => ({ entries, at: new Map(entries.map((entry, index) => [entry.path, index])) });

/**
 * The listing brought up to date for `reported`, or undefined when a report is one a stat of its path cannot
 * settle (then the folder is listed whole). A file written in place is put at its position in a copy of the
 * listing; only a file added or removed makes the listing, and its positions, anew (an edit made both of every
 * path: some 7 ms at 20,000 articles).
 */
function patched(root: string, before: Listed, reported: ReadonlySet<string>): Listed | undefined {
  const known = (file: string) => {
    const index = before.at.get(file);
    return index === undefined ? undefined : before.entries[index];
  };
  const changes = new Map<string, ContentEntry | undefined>();
  for (const file of reported) {
    if (file === '.' || file === '' || file.split('/').some((part) => part === '..' || part === '.' || part === '')) return undefined;
    const folder = path.posix.dirname(file);
    if (folder !== '.' && !known(folder)?.stats.isDirectory()) return undefined;
    const stats = lstatSync(path.join(root, file), { throwIfNoEntry: false });
    const entry = known(file);
    // A folder, a link or anything else but a file: what it holds, or points at, is the whole listing's to say.
    if (stats ? !stats.isFile() : entry && !entry.stats.isFile()) return undefined;
    if (stats || entry) changes.set(file, stats && { path: file, stats: keptStats(stats) });
  }
  if ([...changes].every(([file, entry]) => entry && before.at.has(file))) {
    const entries = before.entries.slice();
    for (const [file, entry] of changes) entries[before.at.get(file)!] = entry!;
    return { entries, at: before.at };
  }
  const byPath = new Map(before.entries.map((entry) => [entry.path, entry]));
  let added = false;
  for (const [file, entry] of changes) {
    added ||= !!entry && !byPath.has(file);
    if (entry) byPath.set(file, entry);
    else byPath.delete(file);
  }
  const entries = [...byPath.values()];
  return listed(added ? entries.sort(byListingOrder) : entries);
}

export function createContentListing(): ContentListing {
  let kept: Listed | undefined;
  let reported: Set<string> | 'all' = 'all';
  return {
    report(paths) {
      if (reported === 'all') return;
      if (paths === 'all') reported = 'all';
      else for (const file of paths) reported.add(file);
      if (reported !== 'all' && reported.size > MAX_REPORTED) reported = 'all';
    },
    list(root) {
      kept = (kept && reported !== 'all' && patched(root, kept, reported)) || listed(listEntries(root));
      reported = new Set();
      return kept.entries;
    },
  };
}
