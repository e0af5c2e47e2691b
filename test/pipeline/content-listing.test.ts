/**
 * `npm run build` stats each content file once: the nothing-changed check's stats are handed to the scan
 * (listEntries' `known`), which uses them for regular files only; a link is still seen as a link. The
 * check lists the folder once, and the scan takes that listing (`listed`) rather than list it again.
 */
import { lstatSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { listEntries } from '../../generator/pipeline/load/scan-content.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('content-listing');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the content listing of npm run build', () => {
  it('takes the stats the nothing-changed check took, for regular files only', () => {
    const content = path.join(root, 'content');
    mkdirSync(path.join(content, 'intelligence'), { recursive: true });
    writeFileSync(path.join(content, 'site.yaml'), 'name: x\n');
    writeFileSync(path.join(content, 'intelligence', 'a.md'), '---\ntitle: a\n---\n');
    symlinkSync(path.join(content, 'site.yaml'), path.join(content, 'intelligence', 'link.md'));
    const fingerprint = fingerprintBuild({ contentDir: content, outDir: path.join(root, 'dist'), settings: resolveBuildSettings({}) });
    expect([...fingerprint.stats.keys()].sort()).toEqual(['intelligence/a.md', 'intelligence/link.md', 'site.yaml']);
    const entries = listEntries(content, fingerprint.stats);
    expect(entries.map((entry) => entry.path)).toEqual(['intelligence', 'intelligence/a.md', 'intelligence/link.md', 'site.yaml']);
    const byPath = new Map(entries.map((entry) => [entry.path, entry.stats]));
    // The very objects the check took: no second stat.
    expect(byPath.get('intelligence/a.md')).toBe(fingerprint.stats.get('intelligence/a.md'));
    expect(byPath.get('site.yaml')).toBe(fingerprint.stats.get('site.yaml'));
    // The check followed the link; the listing does not: a link stays a link, whatever stats were known for it.
    expect(byPath.get('intelligence/link.md')!.isSymbolicLink()).toBe(true);
    expect(byPath.get('intelligence')!.isDirectory()).toBe(true);
    expect(listEntries(content).map((entry) => [entry.path, entry.stats.size])).toEqual(
      entries.map((entry) => [entry.path, lstatSync(path.join(content, entry.path)).size]),
    );
  });

  it('keeps of each stat only the numbers and the kind the build reads, no dates (0.8 KB of heap a file otherwise)', () => {
    const content = path.join(root, 'kept-stats');
    mkdirSync(path.join(content, 'notes'), { recursive: true });
    writeFileSync(path.join(content, 'notes', 'a.md'), 'text');
    symlinkSync(path.join(content, 'notes', 'a.md'), path.join(content, 'link.md'));
    const fingerprint = fingerprintBuild({
      contentDir: content,
      outDir: path.join(root, 'kept-stats-dist'),
      settings: resolveBuildSettings({}),
    });
    const entries = listEntries(content);
    for (const stats of [...entries.map((entry) => entry.stats), ...fingerprint.stats.values()])
      expect(Object.values(stats).some((value) => value instanceof Date)).toBe(false);
    for (const { path: file, stats } of entries) {
      const real = lstatSync(path.join(content, file));
      const { dev, ino, size, mtimeMs, ctimeMs } = real;
      expect({ ...stats, isFile: stats.isFile(), isDirectory: stats.isDirectory(), isSymbolicLink: stats.isSymbolicLink() }).toEqual({
        dev,
        ino,
        size,
        mtimeMs,
        ctimeMs,
        isFile: real.isFile(),
        isDirectory: real.isDirectory(),
        isSymbolicLink: real.isSymbolicLink(),
      });
    }
    expect(entries.map((entry) => [entry.path, entry.stats.isFile(), entry.stats.isDirectory(), entry.stats.isSymbolicLink()])).toEqual([
      ['link.md', false, false, true],
      ['notes', false, true, false],
      ['notes/a.md', true, false, false],
    ]);
  });

  it('takes the names the nothing-changed check listed, in the order the scan lists, and only for the folder they list', () => {
    const content = path.join(root, 'listed');
    mkdirSync(path.join(content, 'a'), { recursive: true });
    for (const file of ['a-b.md', 'a/z.md', 'b.yaml']) writeFileSync(path.join(content, file), 'x: 1\n');
    const fingerprint = fingerprintBuild({
      contentDir: content,
      outDir: path.join(root, 'dist-listed'),
      settings: resolveBuildSettings({}),
    });
    // Each folder's names sorted, a folder before what it holds (not the order of whole paths: 'a-b.md' < 'a/z.md').
    expect(fingerprint.listing.names.map((name) => name.path)).toEqual(['a', 'a/z.md', 'a-b.md', 'b.yaml']);
    writeFileSync(path.join(content, 'c.md'), 'x: 1\n');
    // The listing taken is the check's: a file made since is not listed again, where a fresh listing finds it.
    expect(listEntries(content, fingerprint.stats, fingerprint.listing).map((entry) => entry.path)).toEqual([
      'a',
      'a/z.md',
      'a-b.md',
      'b.yaml',
    ]);
    expect(listEntries(content).map((entry) => entry.path)).toEqual(['a', 'a/z.md', 'a-b.md', 'b.yaml', 'c.md']);
    // Another folder's listing is never taken.
    expect(listEntries(path.join(root, 'content'), undefined, fingerprint.listing).map((entry) => entry.path)).toContain('site.yaml');
  });
});
