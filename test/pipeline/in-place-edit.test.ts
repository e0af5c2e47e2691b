/**
 * `npm run build -- --in-place` after a one-article edit names only what the edit reached (in-place-base.ts,
 * carried-rest.ts): the output's other files stay where they are, never given to the emit step. Damage found by
 * the check before the outputs are made sends the build down the whole walk, which makes the damaged files
 * again. An untouched output named, a touched one missed, or a damaged one left fails here; so does any output
 * that is not a clean build's.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildResult, buildSite } from '../../generator/pipeline/build-site.ts';
import { recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree as cleanTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

const ARTICLES = 300;

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
/** The record envelopes and pages of articles among `files`. */
const articleOutputs = (files: Iterable<string>) =>
  [...files].filter((file) => /intelligence\/get\/|^intelligence\/[0-9a-f]{2}\//.test(file));

describe('npm run build --in-place after a one-article edit', () => {
  const content = path.join(tempDir('in-place-edit'), 'content');
  const out = path.join(tempDir('in-place-edit-out'), 'dist');
  const ready = writeSyntheticContent(content, { articles: ARTICLES, bodyWords: 30 });
  const build = (): Promise<BuildResult> =>
    buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, inPlace: true, keepLoads: true, scope: 'test' });

  it('names only the edited record and the windows holding it, keeps the rest unnamed, and equals a clean build', async () => {
    await ready;
    const first = await build();
    expect(first.named?.size).toBe(first.files);
    const before = readTree(out);
    const target = 'article-150';
    append(path.join(content, 'intelligence', `${target}.md`), 'latency review.');
    const edit = await build();
    const tree = readTree(out);
    expectSameTree(tree, await cleanTree(content), 'a body edit');
    const named = edit.named!;
    // No touched output missed: every file whose bytes changed was named.
    const changed = [...tree].filter(([file, bytes]) => !before.get(file)?.equals(bytes)).map(([file]) => file);
    expect(changed.length).toBeGreaterThan(2);
    expect([...named.keys()]).toEqual(expect.arrayContaining(changed));
    // No untouched output named: of 300 articles' envelopes and pages, the edited one's and the OpenAPI example's.
    expect(articleOutputs(named.keys())).toHaveLength(3);
    expect(named.has(recordPath('intelligence/get', target))).toBe(true);
    expect(named.has(`${recordPageFolder('intelligence', target)}/index.html`)).toBe(true);
    // Of the API's chunks and the HTML list pages, only those holding it (and each list's first chunk, which
    // the OpenAPI examples print).
    const text = (file: string) => tree.get(file)!.toString('utf8');
    for (const file of named.keys()) {
      if (/\/chunk\//.test(file))
        expect(/\/all\/chunk\/0\/0\.ndjson$/.test(file) || text(file).includes(`"id":"${target}"`), file).toBe(true);
      else if (/^intelligence\/(?![0-9a-f]{2}\/).*index\.html$/.test(file)) expect(text(file).includes(`/${target}/`), file).toBe(true);
    }
    expect(articleOutputs(before.keys())).toHaveLength(2 * ARTICLES);
    expect(edit.files).toBe(first.files);
    // The files kept unnamed count as carried over.
    expect(edit.carried).toBeGreaterThanOrEqual(edit.files - named.size);
  }, 120_000);

  it('takes the whole walk when files of the output were damaged, and makes them again', async () => {
    await ready;
    // Two untouched articles' outputs: one changed by hand, one removed.
    const changedByHand = recordPath('intelligence/get', 'article-20');
    const removed = `${recordPageFolder('intelligence', 'article-30')}/index.html`;
    writeFileSync(path.join(out, changedByHand), '{"tampered":true}');
    rmSync(path.join(out, removed));
    append(path.join(content, 'intelligence', 'article-40.md'), 'checkout signal.');
    const repaired = await build();
    expect(repaired.named?.size, 'every output named').toBe(repaired.files);
    expectSameTree(readTree(out), await cleanTree(content), 'damage and an edit');
    // Once repaired, the next edit is sparse again.
    append(path.join(content, 'intelligence', 'article-41.md'), 'payment agent.');
    const next = await build();
    expect(articleOutputs(next.named!.keys())).toHaveLength(3);
    expectSameTree(readTree(out), await cleanTree(content), 'the edit after');
  }, 120_000);
});
