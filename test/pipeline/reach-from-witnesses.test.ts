/**
 * A fresh process's edit reach starts from the content files the nothing-changed check found changed
 * (build-fingerprint.ts `changed`, build-tracking.ts): it reads the parts of the records' facts that those files
 * fall in, not every part, and only from witnesses written with the very output record the tracked outputs name.
 * Edits of every kind through that path give a clean build's output.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintBuild, readBuildRecord, recordBuild, writeBuildRecord } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { type BuildResult, buildSite } from '../../generator/pipeline/build-site.ts';
import { partsParsed } from '../../generator/pipeline/emit/table-parts.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree as cleanTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

/** A content folder, its output, and a build as `npm run build -- --in-place` runs it: checked, built, recorded. */
function site(name: string, articles: number) {
  const content = path.join(tempDir(name), 'content');
  const out = path.join(tempDir(`${name}-out`), 'dist');
  const ready = writeSyntheticContent(content, { articles, bodyWords: 30 });
  const inputs = { contentDir: content, outDir: out, settings: resolveBuildSettings(BUILD_ENV) };
  const build = async (): Promise<BuildResult> => {
    const checked = fingerprintBuild(inputs);
    const result = await buildSite({ ...inputs, inPlace: true, keepLoads: true, scope: 'test', changed: checked.changed });
    recordBuild(out, checked, {}, { identity: result.identity, output: result.stamp });
    return result;
  };
  const article = (n: number) => path.join(content, 'intelligence', `article-${n}.md`);
  return { content, out, ready, build, article };
}

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);
const factsParsed = (out: string) => partsParsed.get(`${out}.inputs/r`) ?? 0;

describe("a fresh process's reach from the changed content files", () => {
  const { content, out, ready, build, article } = site('reach-witnesses', 300);

  it("reads the records' facts only where the edit falls, and only from witnesses of the output in place", async () => {
    await ready;
    await build();
    append(article(7), 'latency review.');
    partsParsed.clear();
    const steady = await build();
    expect(steady.named!.size, 'a steady edit').toBeLessThan(steady.files / 2);
    // 64 parts: the edited record's, where the reach read every one.
    expect(factsParsed(out)).toBeGreaterThan(0);
    expect(factsParsed(out)).toBeLessThan(4);
    expectSameTree(readTree(out), await cleanTree(content), 'a steady edit');

    // Witnesses recorded with another output record: the reach walks every record again.
    writeBuildRecord(out, { ...readBuildRecord(out)!, output: 'another' });
    append(article(8), 'latency review.');
    partsParsed.clear();
    await build();
    expect(factsParsed(out)).toBeGreaterThan(16);
    expectSameTree(readTree(out), await cleanTree(content), 'a walk of every record');
  }, 120_000);

  const small = site('reach-witnesses-edits', 40);
  const edits: [string, () => void][] = [
    ['a title', () => writeFileSync(small.article(3), readFileSync(small.article(3), 'utf8').replace(/^title: .*$/m, 'title: Retitled'))],
    ['a draft', () => writeFileSync(small.article(5), readFileSync(small.article(5), 'utf8').replace(/^---\n/, '---\ndraft: true\n'))],
    ['a removal', () => rmSync(small.article(6))],
    ['a copy under another name', () => writeFileSync(small.article(900), readFileSync(small.article(9), 'utf8'))],
    ['a body', () => append(small.article(11), 'pricing review.')],
  ];
  it(`gives a clean build's output after ${edits.map(([what]) => what).join(', ')}`, async () => {
    await small.ready;
    await small.build();
    for (const [what, edit] of edits) {
      edit();
      await small.build();
      expectSameTree(readTree(small.out), await cleanTree(small.content), what);
    }
  }, 180_000);
});
