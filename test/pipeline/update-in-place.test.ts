/**
 * The emit step of an update in place with a rest kept unnamed (update-in-place.ts): the previous record is
 * taken over and brought up to date in place when it holds the rest and the named files and nothing else,
 * found by counts alone; a file removed sends it down the walk, which finds and removes it. Either way the
 * record written is every file as it now stands. A record made anew after every edit fails the first test.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPreviousOutput, recordOutput, witness } from '../../generator/pipeline/emit/previous-output.ts';
import { applyChanges, stageChanges } from '../../generator/pipeline/emit/update-in-place.ts';
import type { CarriedRest } from '../../generator/pipeline/outputs/output-file.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

const FILES = { 'a.txt': 'first', 'b/b.txt': 'second', 'c/c.txt': 'third' };

/** An output of FILES with its record, as a build leaves it. */
function output(): string {
  const target = path.join(tempDir('update-in-place'), 'dist');
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(target, file)), { recursive: true });
    writeFileSync(path.join(target, file), text);
  }
  recordOutput(target, new Map(Object.keys(FILES).map((file) => [file, witness(`digest of ${file}`, path.join(target, file))])));
  return target;
}

const restOf = (...files: string[]): CarriedRest => ({ size: () => files.length, has: (file) => files.includes(file) });

describe('an update in place with a rest kept unnamed', () => {
  it('brings the previous record up to date in place when nothing was removed', async () => {
    const target = output();
    const previous = readPreviousOutput(target)!;
    expect(previous.digests.get('b/b.txt')).toBe('digest of b/b.txt');
    expect([...previous.digests.keys()].sort()).toEqual(Object.keys(FILES).sort());
    const staging = `${target}.staging`;
    const staged = await stageChanges([{ path: 'a.txt', body: 'first, edited' }], staging, previous, new Set(), () =>
      restOf('b/b.txt', 'c/c.txt'),
    );
    expect(staged.records, 'the previous record itself').toBe(previous.records);
    expect(staged.removed).toEqual([]);
    expect(staged.bytes).toBe('first, edited'.length + 'second'.length + 'third'.length);
    applyChanges(target, staging, staged, previous);
    rmSync(staging, { recursive: true, force: true });
    const after = readPreviousOutput(target)!;
    expect([...after.records!.keys()].sort()).toEqual(Object.keys(FILES));
    expect(after.digests.get('a.txt')).not.toBe('digest of a.txt');
    expect(after.digests.get('c/c.txt')).toBe('digest of c/c.txt');
  });

  it('walks the record, and removes the file, when a file of the previous record is no longer made', async () => {
    const target = output();
    const previous = readPreviousOutput(target)!;
    const staging = `${target}.staging`;
    const staged = await stageChanges([{ path: 'a.txt', body: 'first, edited' }], staging, previous, new Set(), () => restOf('b/b.txt'));
    expect(staged.records).not.toBe(previous.records);
    expect(staged.bytes).toBe('first, edited'.length + 'second'.length);
    applyChanges(target, staging, staged, previous);
    rmSync(staging, { recursive: true, force: true });
    expect(existsSync(path.join(target, 'c'))).toBe(false);
    expect([...readPreviousOutput(target)!.records!.keys()].sort()).toEqual(['a.txt', 'b/b.txt']);
  });
});
