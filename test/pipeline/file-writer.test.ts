/**
 * A cold emit past its first files hands them to a writer thread (file-writer.ts): the output and its record
 * are what the build's own thread writes, file for file and in the same order; a write the thread cannot make
 * fails the emit with its reason and leaves the previous output in place.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitFiles, writeAll } from '../../generator/pipeline/emit/emit-files.ts';
import { readPreviousOutput } from '../../generator/pipeline/emit/previous-output.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import { readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(() => removeBuildDirs());

/** 1,500 files of different sizes (so a record given to the wrong file shows), in 300 folders; 30 MB in all and two larger ones, past the writer's ring. */
function outputs(copied: string): OutputFile[] {
  const files: OutputFile[] = [];
  for (let n = 0; n < 1500; n++) {
    // Some texts hold characters past ASCII and a lone surrogate: the writer encodes them as the build's thread would.
    // Two bodies are too large for the writer's ring and are posted as they are (a text, and bytes past 4 MB).
    const large = n === 1200 || n === 1205;
    const text = `${large ? 'large' : 'file'} ${n} ${n % 7 === 0 || large ? 'café — 😀 \uD800 ' : ''}`.repeat(
      large ? 300_000 : 1 + ((n * 7919) % 3000),
    );
    const folder = `pages/${n % 300}`;
    if (n === 900) files.push({ path: `${folder}/image.png`, copyFrom: copied });
    else files.push({ path: `${folder}/${n}.html`, body: n % 5 === 0 ? new TextEncoder().encode(text) : text });
  }
  return files;
}

describe('the writer thread of a cold emit', () => {
  it('writes the same files and the same record, in the same order, as the build thread alone', async () => {
    const source = path.join(tempDir('writer-source'), 'image.png');
    writeFileSync(source, Buffer.alloc(5000, 7));
    const files = outputs(source);
    const threaded = await writeAll(files, path.join(tempDir('writer-on'), 'dist'), undefined, { writer: true });
    const alone = await writeAll(files, path.join(tempDir('writer-off'), 'dist'), undefined);
    expect({ ...threaded, digests: [...threaded.digests], records: undefined }).toEqual({
      ...alone,
      digests: [...alone.digests],
      records: undefined,
    });
    expect([...threaded.records.keys()]).toEqual(files.map((file) => file.path));
    for (const [file, [digest, size, , inode]] of threaded.records) {
      expect([digest, size], file).toEqual([alone.records.get(file)![0], alone.records.get(file)![1]]);
      expect(inode, file).toBeGreaterThan(0);
    }
  });

  it('puts the output in place with a record that matches every file', async () => {
    const source = path.join(tempDir('writer-source'), 'image.png');
    writeFileSync(source, Buffer.alloc(5000, 7));
    const out = path.join(tempDir('writer-emit'), 'dist');
    const emitted = await emitFiles(outputs(source), out);
    expect(emitted).toMatchObject({ files: 1500, written: 1500 });
    const record = readPreviousOutput(out)!;
    const tree = readTree(out);
    expect(tree.size).toBe(1500);
    for (const [file, [, size, mtime, inode]] of record.records!) {
      const stats = statSync(path.join(out, file));
      expect([size, mtime, inode], file).toEqual([stats.size, stats.mtimeMs, stats.ino]);
    }
    expect(readFileSync(path.join(out, 'pages/0/image.png'))).toEqual(readFileSync(source));
  });

  it('fails with the reason of a write the thread cannot make, and leaves the previous output in place', async () => {
    const out = path.join(tempDir('writer-fail'), 'dist');
    await emitFiles([{ path: 'index.html', body: 'before' }], out);
    // Past the writer's start, a file where a later file needs a folder.
    const files: OutputFile[] = Array.from({ length: 800 }, (_, n) => ({ path: `a/${n}.html`, body: `${n}` }));
    files.push({ path: 'blocked', body: 'a file' }, { path: 'blocked/inside.html', body: 'cannot be' });
    // Trusting nothing of the previous output (--force): nothing to link, so the writer thread writes.
    const failure = await emitFiles(files, out, { trustPrevious: false }).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/writing the output failed: .*(ENOTDIR|EEXIST)/);
    expect([...readTree(out)]).toEqual([['index.html', Buffer.from('before')]]);
    expect(readdirSync(path.dirname(out)).sort()).toEqual(['dist', 'dist.digests', 'dist.digests.json']);
  });
});
