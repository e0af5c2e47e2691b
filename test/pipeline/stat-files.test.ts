/**
 * The content's stats taken by two threads (load/stat-files.ts) are the stats one thread takes, file by file
 * in the same order, and a file that is missing fails as a stat of it fails.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_PARALLEL_FILES, statFiles } from '../../generator/pipeline/load/stat-files.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

/** `count` files of different sizes, in folders of 1,000. */
function manyFiles(count: number): string[] {
  const root = tempDir('stat-files');
  const files: string[] = [];
  for (let index = 0; index < count; index++) {
    const folder = path.join(root, String(Math.floor(index / 1000)));
    if (index % 1000 === 0) mkdirSync(folder);
    const file = path.join(folder, `${index}.md`);
    writeFileSync(file, 'x'.repeat(index % 97));
    files.push(file);
  }
  return files;
}

const numbers = (stats: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number; isFile(): boolean }) => [
  stats.dev,
  stats.ino,
  stats.size,
  stats.mtimeMs,
  stats.ctimeMs,
  stats.isFile(),
];

describe('stats taken by two threads', () => {
  const files = manyFiles(MIN_PARALLEL_FILES + 3_000);

  it("are each file's own stats, in order", () => {
    const taken = statFiles(files);
    expect(taken).toHaveLength(files.length);
    const wrong = files.filter((file, index) => JSON.stringify(numbers(taken[index]!)) !== JSON.stringify(numbers(statSync(file))));
    expect(wrong).toEqual([]);
    // Sizes differ from file to file: stats out of order would not match.
    expect(new Set(taken.map((stats) => stats.size)).size).toBe(97);
  });

  it('fail for a missing file as a stat fails, wherever it is in the list', () => {
    for (const at of [0, Math.floor(files.length / 2), files.length - 1]) {
      const listed = files.slice();
      listed[at] = `${listed[at]}.gone`;
      expect(() => statFiles(listed)).toThrow(/ENOENT/);
    }
  });
});
