/**
 * The dictionary blocks, shards and typo files of an index laid out again where changed records are
 * (index-update.ts): the blocks that hold a changed, new or removed term, or whose range moved, and the
 * typo files that list a term whose entry moved. The same functions as the writer's (index-layout.ts), so
 * the same bytes. Runtime-neutral.
 */
import { compareText } from '../shared/compare-text.ts';
import { firstAtOrAfter, lastAtOrBefore } from '../shared/sorted-search.ts';
import { postingsPath, typoPath } from './index-format.ts';
import { type IndexLayout, layBlock, sameLocation, type TermRecords } from './index-layout.ts';
import { blockStarts, shardNumber, termHash } from './part-cutting.ts';
import type { ChangedTerms } from './record-update.ts';
import { typoBody, typoKeysOf } from './typo-dictionary.ts';

type Files = Map<string, string | Uint8Array>;

/** The block holding term index `index`: the last start at or before it. */
const blockOf = (starts: readonly number[], index: number) => Math.max(0, lastAtOrBefore(starts, index));

/**
 * The sorted terms and their hashes with `added` in and `removed` out: each change's place found by binary
 * search, the terms between copied (a walk comparing every term with the next added one was most of an
 * update's layout).
 */
function mergeTerms(parts: IndexLayout, added: Set<string>, removed: Set<string>) {
  const old = parts.terms;
  // At one place, an added term sorts before the term there (which may be removed), and added terms by their order.
  const changes = [...added, ...removed]
    .map((term) => ({ term, at: firstAtOrAfter(old, term), add: added.has(term) }))
    .sort((a, b) => a.at - b.at || compareText(a.term, b.term));
  const terms: string[] = [];
  const hashes = new Uint32Array(old.length + added.size - removed.size);
  let from = 0;
  const copyTo = (end: number) => {
    hashes.set(parts.hashes.subarray(from, end), terms.length);
    for (let i = from; i < end; i++) terms.push(old[i]!);
  };
  for (const { term, at, add } of changes) {
    copyTo(at);
    if (add) {
      hashes[terms.length] = termHash(term);
      terms.push(term);
    }
    from = add ? at : at + 1;
  }
  copyTo(old.length);
  return { terms, hashes };
}

/**
 * Lays out again every block a changed term is in or whose range moved, into `files` (paths gone into
 * `removed`); returns the terms whose dictionary entry moved (those of the blocks laid out again, and the
 * removed ones).
 */
export function relayTerms(
  parts: IndexLayout,
  records: TermRecords,
  changed: ChangedTerms,
  files: Files,
  removed: string[],
  previous: Files,
) {
  const old = { terms: parts.terms, starts: parts.starts, files: parts.blockFiles };
  if (changed.added.size > 0 || changed.removed.size > 0) {
    Object.assign(parts, mergeTerms(parts, changed.added, changed.removed));
    parts.starts = blockStarts(parts.hashes);
  }
  const { terms, starts } = parts;
  const touched = new Set<number>();
  for (const term of changed.all) {
    const index = firstAtOrAfter(terms, term);
    touched.add(blockOf(starts, index));
    if (changed.removed.has(term) && index > 0) touched.add(blockOf(starts, index - 1));
  }
  const end = (list: readonly number[], count: number, b: number) => list[b + 1] ?? count;
  starts.forEach((start, b) => {
    const same = b < old.starts.length && old.terms[old.starts[b]!] === terms[start];
    if (!same || end(old.starts, old.terms.length, b) - old.starts[b]! !== end(starts, terms.length, b) - start) touched.add(b);
  });
  const moved = new Set(changed.removed);
  for (const b of touched) {
    const slice = terms.slice(starts[b], end(starts, terms.length, b));
    const before = slice.map((term) => parts.entries.get(term));
    const laid = layBlock(b, terms, starts[b]!, end(starts, terms.length, b), records, parts.entries, previous, changed.all);
    slice.forEach((term, i) => {
      const now = parts.entries.get(term)!;
      if (before[i]?.postings !== now.postings || !sameLocation(before[i].location, now.location)) moved.add(term);
    });
    for (const { path, body } of laid) files.set(path, body);
    for (let j = laid.length - 1; previous.has(postingsPath(shardNumber(b, j))); j++) removed.push(postingsPath(shardNumber(b, j)));
    parts.blockFiles[b] = laid;
  }
  for (let b = starts.length; b < old.files.length; b++) for (const { path } of old.files[b]!) removed.push(path);
  parts.blockFiles.length = starts.length;
  parts.blocks = starts.map((start) => terms[start]!);
  for (const term of changed.removed) parts.entries.delete(term);
  return moved;
}

/** Sorted `list` with `term` put in (`add`) or taken out. */
function place(list: string[], term: string, add: boolean): void {
  const at = firstAtOrAfter(list, term);
  if (add && list[at] !== term) list.splice(at, 0, term);
  if (!add && list[at] === term) list.splice(at, 1);
}

/** The typo files that list a term whose entry moved, or that a term joined or left, made again. */
export function typoUpdates(
  parts: IndexLayout,
  records: TermRecords,
  changed: ChangedTerms,
  moved: Set<string>,
  files: Files,
  removed: string[],
) {
  const keys = new Set<string>();
  for (const term of new Set([...moved, ...changed.all])) {
    const was = changed.typoBefore.get(term) ?? records.get(term)?.typo ?? false;
    const now = records.get(term)?.typo ?? false;
    if (!was && !now) continue;
    for (const [key, part] of typoKeysOf(term)) {
      keys.add(key);
      if (was === now) continue;
      const group = parts.typoTerms.get(key) ?? { head: [], tail: [] };
      parts.typoTerms.set(key, group);
      place(group[part], term, now);
    }
  }
  for (const key of keys) {
    const group = parts.typoTerms.get(key)!;
    if (group.head.length + group.tail.length === 0) {
      parts.typoTerms.delete(key);
      if (parts.typos.delete(key)) removed.push(typoPath(key));
      continue;
    }
    const body = typoBody(group, parts.entries);
    parts.typos.set(key, body);
    files.set(typoPath(key), body);
  }
}
