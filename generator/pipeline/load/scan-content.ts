/**
 * What may be read at all: the content folder is scanned once, without following links, before any file is
 * parsed. A symbolic link (to a file or a folder) would publish whatever it points to on the build machine,
 * so each is a problem and nothing behind it is read; a file over its size limit is a problem before it is
 * read; an SVG that could run script when opened is a problem before it is published.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import type { Problem } from '../problems.ts';
import { decodeUtf8, type FileIdentity, FileChangedError, NotUtf8Error, readApproved } from './read-approved.ts';
import { type ContentNames, listNames } from './list-names.ts';
import { checkSvg } from './svg-check.ts';
import { type FileStats, keptStats } from './file-stats.ts';
import type { ContentLimits } from './content-limits.ts';

export interface ContentScan {
  /** Files that may be read: regular files inside the folder, within their limit, reached through no link. */
  readable: Set<string>;
  /** Each readable file as the scan saw it: a read checks it still has this identity (read-approved.ts). */
  identities: Map<string, FileIdentity>;
  problems: Problem[];
  /** The listing scanned. */
  entries: readonly ContentEntry[];
  /** Paths whose entries changed since the scan this one was taken up to date from (scanContent's `before`). */
  changed?: ReadonlySet<string> | undefined;
}

const MB = 1024 * 1024;

const formatSize = (bytes: number) => (bytes >= MB ? `${(bytes / MB).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`);
const isImage = (file: string) => file.startsWith('images/');

const isSvg = (file: string) => isImage(file) && file.toLowerCase().endsWith('.svg');

/**
 * The bytes of an approved image as they may be published: still the file the scan saw, and for an SVG,
 * still a plain drawing (it is checked again here, on the very bytes that are published).
 */
export function readImage(root: string, file: string, identity: FileIdentity): Buffer {
  const bytes = readApproved(root, file, identity);
  if (!isSvg(file)) return bytes;
  const problem = checkSvg(decodeUtf8(bytes));
  if (problem) throw new FileChangedError(file);
  return bytes;
}

/** Why an SVG may not be published, as a problem with its line; undefined when it may. */
function svgFileProblem(root: string, file: string, identity: FileIdentity): Problem | undefined {
  let text: string;
  try {
    text = decodeUtf8(readApproved(root, file, identity));
  } catch (error) {
    if (error instanceof NotUtf8Error) return { file, line: error.line, field: '-', message: error.message };
    throw error;
  }
  const problem = checkSvg(text);
  return problem ? { file, line: problem.line, field: '-', message: problem.message } : undefined;
}

/** An entry under the content folder: its path (relative, with `/`) and its stats, links not followed. */
export interface ContentEntry {
  path: string;
  stats: FileStats;
}

/**
 * Every entry under `root`, its stats read without following links, and no folder entered through a link;
 * each folder's names sorted, a folder before what it holds. Synchronous: thousands of small stat calls cost
 * a fraction of what as many promises do. `known`: stats of regular files already taken by the caller (npm run
 * build's nothing-changed check stats every content file just before), by path; the listing's own types say
 * which names are regular files, so a link or a folder is never taken from them. `listed`: the names as the
 * caller listed them (listNames), taken only when they are of this very folder.
 */
export function listEntries(root: string, known?: ReadonlyMap<string, FileStats>, listed?: ContentNames): ContentEntry[] {
  const { names } = listed?.root === path.resolve(root) ? listed : listNames(root);
  const entries: ContentEntry[] = [];
  for (const { path: file, dirent } of names) {
    const stats = (dirent.isFile() && known?.get(file)) || keptStats(lstatSync(path.join(root, file)));
    entries.push({ path: file, stats });
  }
  return entries;
}

/** One entry that is no link and not reached through one: readable with its identity, or refused with a problem. */
function scanEntry(root: string, limits: ContentLimits, entry: ContentEntry, scan: ContentScan): void {
  const limit = isImage(entry.path) ? limits.imageBytes : limits.textBytes;
  if (entry.stats.size > limit) {
    const setting = isImage(entry.path) ? 'MAX_IMAGE_MB' : 'MAX_TEXT_KB';
    scan.problems.push({
      file: entry.path,
      line: 1,
      field: '-',
      message: `is ${formatSize(entry.stats.size)}, over the limit of ${formatSize(limit)} (${setting})`,
    });
    return;
  }
  const { dev, ino, size, mtimeMs, ctimeMs } = entry.stats;
  const identity = { dev, ino, size, changedMs: Math.max(mtimeMs, ctimeMs) };
  const svgProblem = isSvg(entry.path) ? svgFileProblem(root, entry.path, identity) : undefined;
  if (svgProblem) scan.problems.push(svgProblem);
  else {
    scan.readable.add(entry.path);
    scan.identities.set(entry.path, identity);
  }
}

/** Past this share of the listing changed, a scan is taken whole (a listing taken whole is all new entries). */
const CHANGED_SHARE = 1 / 8;

/**
 * The entries that are not `before`'s, when `entries` is `before`'s listing with some entries replaced in
 * place (npm run dev's listing after files written in place); undefined when it is not, or when a link is or
 * was among them (what a link refuses is the whole listing's to say).
 */
function changedSince(before: ContentScan, entries: readonly ContentEntry[]): ContentEntry[] | undefined {
  if (before.problems.length > 0 || before.entries.length !== entries.length) return undefined;
  const changed: ContentEntry[] = [];
  const most = entries.length * CHANGED_SHARE;
  for (let at = 0; at < entries.length; at++) {
    const entry = entries[at]!;
    if (entry === before.entries[at]) continue;
    if (entry.path !== before.entries[at]!.path || entry.stats.isSymbolicLink() || changed.length >= most) return undefined;
    changed.push(entry);
  }
  return changed;
}

/**
 * Lists what may be read and what is refused; reads only SVGs (to check them), nothing else. `entries`: the
 * folder's listing as listEntries gives it, when the caller knows it already (npm run dev, from its watcher).
 * `before`: the scan of the build before, when the caller keeps it; taken up to date in place when the listing
 * is its own with a few entries replaced (changedSince), so a steady build looks at the entries it changed only.
 */
export async function scanContent(
  root: string,
  limits: ContentLimits,
  entries: readonly ContentEntry[] = listEntries(root),
  before?: ContentScan,
): Promise<ContentScan> {
  const changed = before && changedSince(before, entries);
  if (before && changed) {
    // The scan before had no problem, so no link: each changed entry is looked at alone.
    const scan: ContentScan = { ...before, problems: [], entries, changed: new Set(changed.map((entry) => entry.path)) };
    for (const entry of changed) {
      scan.readable.delete(entry.path);
      scan.identities.delete(entry.path);
      if (entry.stats.isFile()) scanEntry(root, limits, entry, scan);
    }
    return scan;
  }
  const problems: Problem[] = [];
  const links = entries.filter((entry) => entry.stats.isSymbolicLink()).map((entry) => entry.path);
  for (const link of links) {
    problems.push({
      file: link,
      line: 1,
      field: '-',
      message: 'is a symbolic link; content is read only from regular files inside the content folder (copy the file in)',
    });
  }
  const throughLink = (file: string) => links.some((link) => file.startsWith(`${link}/`));
  const scan: ContentScan = { readable: new Set(), identities: new Map(), problems, entries };
  for (const entry of entries) if (entry.stats.isFile() && !throughLink(entry.path)) scanEntry(root, limits, entry, scan);
  return scan;
}
