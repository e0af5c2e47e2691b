/**
 * The nothing-changed check takes an unchanged content file's digest from the last build's record (its
 * witness: size, times, inode) rather than read the file (build-fingerprint.ts). The walk looks for each
 * name in the record's next row first; when files were added or removed the rows no longer line up, and a
 * file must still be found by its name, neither read again nor given another file's digest.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintBuild, readBuildRecord, recordBuild, writeBuildRecord } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('content-witnesses');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the nothing-changed check's content witnesses", () => {
  it('give each unchanged file its recorded digest, found by name when files were added or removed', () => {
    const content = path.join(root, 'content');
    mkdirSync(path.join(content, 'intelligence'), { recursive: true });
    const names = ['b', 'c', 'd', 'e'].map((name) => `intelligence/${name}.md`);
    for (const name of names) writeFileSync(path.join(content, name), `---\ntitle: ${name}\n---\n`);
    const inputs = { contentDir: content, outDir: path.join(root, 'dist'), settings: resolveBuildSettings({}) };
    recordBuild(inputs.outDir, fingerprintBuild(inputs), {});
    // The record as a later build finds it: made after the racy window, and with d's digest marked so that
    // taking it from the record shows (reading d would give its real digest).
    const record = readBuildRecord(inputs.outDir)!;
    const { files } = record.content!;
    const digests = files.text.digest!.split('\n');
    digests[2] = 'kept-d';
    const kept = { ...files, text: { digest: digests.join('\n') } };
    writeBuildRecord(inputs.outDir, { ...record, content: { at: Date.now() + 10_000, files: kept } });

    expect(fingerprintBuild(inputs).reread).toBe(false);
    // c removed and a added: d and e are no longer on their rows.
    rmSync(path.join(content, names[1]!));
    writeFileSync(path.join(content, 'intelligence/a.md'), '---\ntitle: a\n---\n');
    const checked = fingerprintBuild(inputs);
    expect(checked.content.paths).toEqual(['intelligence/a.md', names[0], names[2], names[3]]);
    expect(checked.content.digests[2]).toBe('kept-d');
    expect(checked.content.digests[3]).toBe(digests[3]);
    expect(checked.content.digests[3]).not.toBe('kept-d');
  });

  it('are none when a column is of another kind or length: every file is read again', () => {
    const content = path.join(root, 'shapes');
    mkdirSync(content, { recursive: true });
    for (const name of ['a', 'b']) writeFileSync(path.join(content, `${name}.md`), `---\ntitle: ${name}\n---\n`);
    const inputs = { contentDir: content, outDir: path.join(root, 'shapes-dist'), settings: resolveBuildSettings({}) };
    recordBuild(inputs.outDir, fingerprintBuild(inputs), {});
    const record = readBuildRecord(inputs.outDir)!;
    const { files } = record.content!;
    const withFiles = (changed: object) =>
      writeBuildRecord(inputs.outDir, { ...record, content: { at: Date.now() + 10_000, files: { ...files, ...changed } } });
    withFiles({});
    expect(fingerprintBuild(inputs).reread).toBe(false);
    const numbers = (changed: object) => ({ numbers: { ...files.numbers, ...changed } });
    for (const changed of [
      numbers({ size: Array.from(files.numbers.size) }),
      numbers({ mtime: files.numbers.mtime.subarray(1) }),
      { numbers: null },
      { text: { digest: files.text.digest!.split('\n')[0] } },
      { paths: undefined },
    ]) {
      withFiles(changed);
      expect(fingerprintBuild(inputs).reread, JSON.stringify(changed)).toBe(true);
    }
  });
});
