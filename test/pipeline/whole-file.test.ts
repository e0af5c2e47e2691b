/**
 * The files a build keeps beside its output are written whole, and what a killed build left half-written beside
 * the output is removed by the next build of that output, once it holds the lock; partials of running processes,
 * of other outputs, and anything inside the output itself stay.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockOutput } from '../../generator/pipeline/emit/output-lock.ts';
import { writeWhole } from '../../generator/pipeline/whole-file.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

describe('writeWhole', () => {
  it('puts the bytes under the name and leaves nothing else beside it', () => {
    const dir = tempDir('whole');
    const file = path.join(dir, 'record.bin');
    writeFileSync(file, 'old');
    writeWhole(file, new Uint8Array([1, 2, 3]));
    writeWhole(path.join(dir, 'other.json'), '{"a":1}');
    expect([...readFileSync(file)]).toEqual([1, 2, 3]);
    expect(readdirSync(dir).sort()).toEqual(['other.json', 'record.bin']);
  });

  it('leaves no partial file when the write cannot be put in place, and says why', () => {
    const dir = tempDir('whole');
    // A folder with something in it cannot be replaced by a file: the rename fails after the bytes are written.
    mkdirSync(path.join(dir, 'taken', 'inside'), { recursive: true });
    expect(() => writeWhole(path.join(dir, 'taken'), 'bytes')).toThrow(/taken/);
    expect(readdirSync(dir)).toEqual(['taken']);
  });
});

describe('the next build of an output', () => {
  it("removes killed builds' partial files beside the output and in its stores, and nothing else", async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const dir = tempDir('partials');
    const out = path.join(dir, 'dist');
    const left = [
      `dist.build.bin.partial-${dead}-0-1`,
      `dist.lock.partial-${dead}-0-7`,
      `dist.search/index.bin.partial-${dead}-1-3`,
      `dist.load/0a.bin.partial-${dead}-0-12`,
    ];
    const kept = [
      'dist.build.bin',
      'dist.search/index.bin',
      // A running process's write in progress (this one's), another output's leftover, a file of the output itself.
      `dist.load/0b.bin.partial-${process.pid}-0-1`,
      `dist2.build.bin.partial-${dead}-0-1`,
      `dist/notes.partial-${dead}-0-1`,
    ];
    for (const name of [...left, ...kept]) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), 'x');
    }
    const release = await lockOutput(out);
    release();
    const present = (name: string) => readdirSync(path.dirname(path.join(dir, name))).includes(path.basename(name));
    expect(left.filter(present)).toEqual([]);
    expect(kept.filter(present)).toEqual(kept);
  });
});
