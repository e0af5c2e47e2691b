/**
 * The output's damage check shared by two threads (emit/damage-check.ts help): a build whose content did not
 * change has nothing to do but wait for the check's answer, so its own thread checks parts of the output too,
 * each part taken by one of the two threads, and the answer holds what both found.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { startDamageCheck } from '../../generator/pipeline/emit/damage-check.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

describe("the output's damage check, shared", () => {
  it('finds the same damage whichever thread checks which part', async () => {
    const contentDir = fixtureDir('valid');
    const outDir = path.join(tempDir('help'), 'dist');
    await buildSite({ contentDir, outDir, env: BUILD_ENV, scope: 'test', inPlace: true });
    const found = async (help: boolean) => {
      const check = startDamageCheck(outDir);
      // Called at once, before the thread has started: this thread takes the parts (all of them, as a rule).
      if (help) check.help();
      return [...((await check.answer)?.damaged ?? ['no answer'])].sort();
    };
    expect(await found(true)).toEqual([]);

    const changed = path.join(outDir, 'services', 'index.html');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}<!-- by hand -->`);
    rmSync(path.join(outDir, outputPath(ADDRESS.robots)));
    const damaged = [outputPath(ADDRESS.robots), 'services/index.html'].sort();
    expect(await found(false)).toEqual(damaged);
    // What this thread found joins the answer: it is not lost when the thread had nothing left to take.
    expect(await found(true)).toEqual(damaged);
  }, 60_000);
});
