/**
 * The records beside the output kept in parts (generator/pipeline/emit/table-parts.ts): a steady edit parses only
 * the parts its files fall in (a build that read a quarter of them or more fails here), and a part missing, of other bytes, or
 * another build's sends the next build down the full path (every output named), whose output is a clean build's.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildResult, buildSite } from '../../generator/pipeline/build-site.ts';
import { partsParsed } from '../../generator/pipeline/emit/table-parts.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree as cleanTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);

/** The part files of the records beside `out`, by folder (`.digests`, `.inputs`). */
const partsOf = (out: string, folder: string) =>
  readdirSync(`${out}${folder}`)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(`${out}${folder}`, name));

/** A content folder of `articles` synthetic articles, its output, a build of it in place, and an edit of one article body. */
function site(name: string, articles: number) {
  const content = path.join(tempDir(name), 'content');
  const out = path.join(tempDir(`${name}-out`), 'dist');
  const ready = writeSyntheticContent(content, { articles, bodyWords: 30 });
  const build = (): Promise<BuildResult> =>
    buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, inPlace: true, keepLoads: true, scope: 'test' });
  let edits = 0;
  const edit = () => append(path.join(content, 'intelligence', `article-${1 + (edits++ % articles)}.md`), 'latency review.');
  return { content, out, ready, build, edit };
}

describe('the records beside the output, in parts', () => {
  // Enough files that a steady edit's few fall in a small share of the parts.
  const { content, out, ready, build, edit } = site('record-parts', 300);

  it("of the output and of its outputs' keys are parsed only where an edit falls", async () => {
    await ready;
    await build();
    edit();
    partsParsed.clear();
    const steady = await build();
    expect(steady.named!.size, 'a steady edit').toBeLessThan(steady.files / 2);
    // The records' facts (prefix r): read where the edit falls only when the build is told the changed files (reach-from-witnesses.test.ts).
    for (const [folder, prefix] of [
      ['.digests', ''],
      ['.inputs', 'f'],
    ] as const) {
      const present = partsOf(out, folder).filter((file) => path.basename(file).startsWith(prefix)).length;
      const parsed = partsParsed.get(`${out}${folder}/${prefix}`) ?? 0;
      expect(parsed, folder).toBeGreaterThan(0);
      expect(parsed, `${folder}: ${parsed} of ${present} parts`).toBeLessThan(present / 4);
    }
    expectSameTree(readTree(out), await cleanTree(content), 'a steady edit');
  }, 120_000);

  const damages: [string, (file: string, before: Buffer | undefined) => void][] = [
    ['missing', (file) => rmSync(file)],
    ['of other bytes', (file) => writeFileSync(file, `${readFileSync(file, 'utf8').slice(0, -20)}"}`)],
    ['from another build', (file, before) => writeFileSync(file, before!)],
  ];
  // Fewer articles: what is checked is the path a bad part sends the build down, and each case builds six times.
  const small = site('record-parts-damage', 60);
  for (const folder of ['.digests', '.inputs'])
    for (const [what, damage] of damages)
      it(`send the build down the full path when a part of ${folder} is ${what}`, async () => {
        const { content, out, ready, build, edit } = small;
        await ready;
        await build();
        const kept = `${out}${folder}.before`;
        cpSync(`${out}${folder}`, kept, { recursive: true });
        edit();
        await build();
        // A part this edit rewrote (a new file, named by its slot and digest), and the same slot's file before it.
        const names = new Set(readdirSync(kept));
        const file = partsOf(out, folder).find((part) => !names.has(path.basename(part)))!;
        const slot = path.basename(file).split('-')[0]!;
        damage(file, readFileSync(path.join(kept, [...names].find((name) => name.startsWith(`${slot}-`))!)));
        rmSync(kept, { recursive: true });
        edit();
        const full = await build();
        expect(full.named!.size, 'every output named').toBe(full.files);
        expectSameTree(readTree(out), await cleanTree(content), `a part ${what}`);
        edit();
        const next = await build();
        expect(next.named!.size, 'steady again').toBeLessThan(next.files / 2);
        expectSameTree(readTree(out), await cleanTree(content), 'the edit after');
      }, 180_000);
});
