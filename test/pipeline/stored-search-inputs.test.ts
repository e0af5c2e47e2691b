/**
 * A fresh process's search inputs (search-inputs.ts `storedInputs`): taken from the keys the search index's
 * store kept, with only the edited record's key made again and the kept key chained with it, where every
 * record's key was made and hashed; nothing changed, the index is carried over; the output is a clean build's.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { hash } from 'node:crypto';
import path from 'node:path';
import { deserialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

/** The kept documents' keys and inputs (search-store.ts `index.bin`). */
const keptIndex = (out: string) => deserialize(readFileSync(`${out}.search/index.bin`)) as { keys: string[]; inputs: string };

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
    const saved = statSync(`${out}.search/index.bin`).mtimeMs;
    await build();
    expect(statSync(`${out}.search/index.bin`).mtimeMs, 'the index carried over, its store not saved again').toBe(saved);
  }, 120_000);
});
