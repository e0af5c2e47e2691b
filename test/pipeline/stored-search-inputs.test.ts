/**
 * A fresh process's search inputs (search-inputs.ts `storedInputs`): taken from the keys the search index's
 * store kept, with only the edited record's key made again and the kept key chained with it, where every
 * record's key was made and hashed; nothing changed, the index is carried over; the output is a clean build's.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { readStoredIndex, saveStore } from '../../generator/pipeline/outputs/search/search-store.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

/** The kept documents' keys and inputs, and the stamp of the build that saved them (search-store.ts `index.bin`). */
const keptIndex = (out: string) => readStoredIndex(out)!;
/** `index.bin` changed by hand: its key at `at` (the file digest it starts with) and, when given, its stamp. */
function tamper(out: string, at: number, stamp?: string): string {
  const kept = keptIndex(out);
  kept.keys[at] = `hand${kept.keys[at]}`;
  if (stamp !== undefined) kept.stamp = stamp;
  saveStore(out, kept, new Map());
  return kept.keys[at]!;
}

describe('the search inputs of npm run build after an edit', () => {
  const content = path.join(tempDir('stored-inputs'), 'content');
  const out = path.join(tempDir('stored-inputs-out'), 'dist');
  const ready = writeSyntheticContent(content, { articles: 60, bodyWords: 20 });
  const build = () => buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, inPlace: true, keepLoads: true, scope: 'test' });

  it('chains the kept key with the edited record’s key alone, and carries the index when nothing changed', async () => {
    await ready;
    await build();
    const before = keptIndex(out);
    const file = path.join(content, 'intelligence', 'article-30.md');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nA sentence more.\n`);
    await build();
    expectSameTree(readTree(out), await cleanBuildTree(content), 'a body edit');
    const after = keptIndex(out);
    const differ = after.keys.flatMap((key, at) => (key === before.keys[at] ? [] : [at]));
    expect(differ).toHaveLength(1);
    const [budget, key] = before.inputs.split('\n');
    const patch = `${differ[0]}\t${after.keys[differ[0]!]}\n`;
    expect(after.inputs).toBe(`${budget}\n${hash('sha1', `${key}\n${patch}`, 'base64')}`);
    const part = `${out}.search/${readdirSync(`${out}.search`).find((name) => /^[0-9a-f]{2}\.bin$/.test(name))}`;
    const parts = statSync(part).mtimeMs;
    await build();
    // The index carried over: no analysis saved again, and the same keys kept under this build's stamp.
    expect(statSync(part).mtimeMs, 'the index carried over, no analysis saved again').toBe(parts);
    expect(keptIndex(out).keys).toEqual(after.keys);
    expect(keptIndex(out).inputs).toBe(after.inputs);
    expect(keptIndex(out).stamp).toBe((JSON.parse(readFileSync(`${out}.digests.json`, 'utf8')) as { stamp: string }).stamp);
  }, 120_000);

  it('patches only the records an edit reached when the store is the last build’s (its stamp), else checks every record', async () => {
    await ready;
    await build();
    // The store names the stamp of the output's record its build wrote (previous-output.ts), as the tracked outputs do.
    const stamp = (JSON.parse(readFileSync(`${out}.digests.json`, 'utf8')) as { stamp: string }).stamp;
    expect(keptIndex(out).stamp).toBe(stamp);
    const edit = (name: string) => {
      const file = path.join(content, 'intelligence', name);
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nOne more sentence, ${Date.now()}.\n`);
    };
    // A record the edit does not reach keeps its kept key: a key changed by hand stays, since only the reached ones are made again.
    const byHand = tamper(out, 3);
    edit('article-10.md');
    edit('article-40.md');
    await build();
    expectSameTree(readTree(out), await cleanBuildTree(content), 'two body edits, the store patched');
    expect(keptIndex(out).keys[3]).toBe(byHand);
    // With another stamp, the store is not the last build's: every record's key is checked, and the one changed by hand made again.
    const real = tamper(out, 3, 'another build').replace(/^(hand)+/, '');
    edit('article-20.md');
    await build();
    expectSameTree(readTree(out), await cleanBuildTree(content), 'a body edit, the store checked record by record');
    expect(keptIndex(out).keys[3]).toBe(real);
  }, 120_000);
});
