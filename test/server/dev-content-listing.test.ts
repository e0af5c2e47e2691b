/**
 * The content folder's listing kept by `npm run dev` from its watcher's reports: after files are written,
 * added, renamed and deleted, and folders and links appear, it is what listing the folder whole gives; and
 * it looks only at what was reported, so an edit costs a stat of the file edited, not one of every file.
 */
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ContentEntry, listEntries } from '../../generator/pipeline/load/scan-content.ts';
import { createContentListing } from '../../generator/server/dev/dev-content-listing.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

/** What a listing holds that a build reads: each path and its kind, and each file's identity (a folder's times are not read). */
const shape = (entries: ContentEntry[]) =>
  entries.map(({ path: file, stats }) =>
    stats.isFile() ? [file, 'file', stats.ino, stats.size, stats.mtimeMs] : [file, stats.isDirectory() ? 'folder' : 'other'],
  );

describe("npm run dev's content listing", () => {
  it('equals the whole listing after every kind of change, each reported as the watcher reports it', () => {
    const root = tempDir('listing');
    mkdirSync(path.join(root, 'notes'));
    for (const name of ['b.md', 'a.md', 'c.md']) writeFileSync(path.join(root, 'notes', name), name);
    writeFileSync(path.join(root, 'site.yaml'), 'name: x\n');
    const listing = createContentListing();
    expect(shape(listing.list(root))).toEqual(shape(listEntries(root)));
    const steps: [string, () => void, string[]][] = [
      ['a write in place', () => writeFileSync(path.join(root, 'notes', 'b.md'), 'longer text'), ['notes/b.md']],
      ['a file added between two', () => writeFileSync(path.join(root, 'notes', 'ab.md'), 'new'), ['notes/ab.md']],
      ['a file added at the top', () => writeFileSync(path.join(root, 'notes.md'), 'top'), ['notes.md']],
      [
        'a temporary file renamed over the old one',
        () => {
          writeFileSync(path.join(root, 'notes', 'sedX1'), 'replaced');
          renameSync(path.join(root, 'notes', 'sedX1'), path.join(root, 'notes', 'a.md'));
        },
        ['notes/a.md'],
      ],
      [
        'a file renamed',
        () => renameSync(path.join(root, 'notes', 'c.md'), path.join(root, 'notes', 'd.md')),
        ['notes/c.md', 'notes/d.md'],
      ],
      ['a file deleted', () => rmSync(path.join(root, 'notes', 'ab.md')), ['notes/ab.md']],
      [
        'a folder added with files',
        () => {
          mkdirSync(path.join(root, 'more'));
          writeFileSync(path.join(root, 'more', 'e.md'), 'e');
        },
        ['more', 'more/e.md'],
      ],
      ['a link', () => symlinkSync(path.join(root, 'site.yaml'), path.join(root, 'notes', 'link.md')), ['notes/link.md']],
      ['a link removed', () => rmSync(path.join(root, 'notes', 'link.md')), ['notes/link.md']],
      ['a folder removed', () => rmSync(path.join(root, 'more'), { recursive: true }), ['more']],
      [
        'a file under a folder the listing never saw',
        () => mkdirSync(path.join(root, 'later', 'deep'), { recursive: true }),
        ['later/deep'],
      ],
      ['nothing reported', () => {}, []],
    ];
    for (const [what, change, reported] of steps) {
      change();
      listing.report(reported);
      expect(shape(listing.list(root)), what).toEqual(shape(listEntries(root)));
    }
  });

  it('looks again only at the paths reported, until told to list whole', () => {
    const root = tempDir('listing-reported');
    writeFileSync(path.join(root, 'a.md'), 'a');
    writeFileSync(path.join(root, 'b.md'), 'b');
    const listing = createContentListing();
    listing.list(root);
    // A change nobody reported (there is none in a running dev server: its watcher reports every change).
    writeFileSync(path.join(root, 'b.md'), 'b, longer still');
    writeFileSync(path.join(root, 'a.md'), 'a, longer');
    listing.report(['a.md']);
    const sizes = () => Object.fromEntries(listing.list(root).map(({ path: file, stats }) => [file, stats.size]));
    expect(sizes()).toEqual({ 'a.md': 9, 'b.md': 1 });
    listing.report('all');
    expect(sizes()).toEqual({ 'a.md': 9, 'b.md': 15 });
  });
});
