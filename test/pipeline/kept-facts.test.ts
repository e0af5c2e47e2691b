/**
 * The values of facts a build keeps (output-tracker.ts `steadyKept`) beside its output (`<out>.kept.bin`,
 * tracked-outputs.ts): a fresh `npm run build` after an edit takes them as `npm run dev` takes its own, and a
 * steady build leaves the file as it was. A file whose bytes are not the ones the record names, or no file, is
 * no kept value: every value is made again and the output is a clean build's.
 */
import { hash } from 'node:crypto';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { readTrackedOutputs } from '../../generator/pipeline/emit/tracked-outputs.ts';
import { MANIFEST_PATH } from '../../generator/shared/data-paths.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree as cleanTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
const MANIFEST = MANIFEST_PATH;

describe('the values of facts kept beside the output', () => {
  const content = path.join(tempDir('kept-facts'), 'content');
  const out = path.join(tempDir('kept-facts-out'), 'dist');
  const kept = `${out}.kept.bin`;
  const ready = writeSyntheticContent(content, { articles: 120, bodyWords: 30 });
  const build = () => buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, inPlace: true, keepLoads: true, scope: 'test' });
  const edit = (article: number, text: string) => append(path.join(content, 'intelligence', `article-${article}.md`), text);

  it('are written once and taken by the steady builds after, which leave the file as it was', async () => {
    await ready;
    await build();
    const names = [...(readTrackedOutputs(out)?.kept?.keys() ?? [])];
    expect(names.some((name) => name.startsWith('list selections\n'))).toBe(true);
    expect(names.some((name) => name.startsWith('ranks\n'))).toBe(true);
    const written = statSync(kept);
    const bytes = readFileSync(kept);
    edit(60, 'checkout latency.');
    await build();
    expectSameTree(readTree(out), await cleanTree(content), 'a body edit');
    expect(readFileSync(kept).equals(bytes)).toBe(true);
    expect(statSync(kept).mtimeMs, 'not written again').toBe(written.mtimeMs);
  }, 120_000);

  it('are what the steady build uses: a total changed in the file, with its digest, shows in the manifest', async () => {
    await ready;
    const values = deserialize(readFileSync(kept)) as Map<string, { value: { totals: Record<string, number> } }>;
    const name = [...values.keys()].find((key) => key.startsWith('list selections\n'))!;
    values.get(name)!.value.totals.all! += 1000;
    const bytes = serialize(values);
    writeFileSync(kept, bytes);
    const inputs = JSON.parse(readFileSync(`${out}.inputs.json`, 'utf8'));
    writeFileSync(`${out}.inputs.json`, JSON.stringify({ ...inputs, kept: hash('sha1', bytes, 'base64') }));
    edit(61, 'payment agent.');
    await build();
    const clean = await cleanTree(content);
    expect(readTree(out).get(MANIFEST)!.equals(clean.get(MANIFEST)!)).toBe(false);
    // Once the facts change (a new article), the values are made again: the output is a clean build's.
    writeFileSync(
      path.join(content, 'intelligence', 'article-new.md'),
      readFileSync(path.join(content, 'intelligence', 'article-62.md'), 'utf8').replace(/^id: .*$/m, 'id: article-new'),
    );
    await build();
    expectSameTree(readTree(out), await cleanTree(content), 'an article added');
  }, 120_000);

  it('are made again when their file is not the one the record names, or is missing', async () => {
    await ready;
    const values = deserialize(readFileSync(kept)) as Map<string, { value: { totals: Record<string, number> } }>;
    const name = [...values.keys()].find((key) => key.startsWith('list selections\n'))!;
    values.get(name)!.value.totals.all! += 1000;
    // Another build's values (the record names other bytes), as a build killed between the two writes leaves them.
    writeFileSync(kept, serialize(values));
    edit(63, 'agent review.');
    await build();
    expectSameTree(readTree(out), await cleanTree(content), 'a kept file of other bytes');
    rmSync(kept);
    edit(64, 'pricing note.');
    await build();
    expectSameTree(readTree(out), await cleanTree(content), 'no kept file');
    expect(statSync(kept).size).toBeGreaterThan(0);
  }, 120_000);
});
