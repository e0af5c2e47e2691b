/**
 * Outputs tracked by their inputs (generator/pipeline/output-tracker.ts): after any series of edits, a build
 * that carries over what its inputs say is unchanged writes exactly what a clean build writes. Edits touch
 * titles (printed by every page that links the record), bodies, dates (which reorder lists), relations, file
 * names, taxonomy names and the site's settings (printed by every page); the build time moves too, which no
 * tracked output may print. Builds carry over in memory (as npm run dev does) with every carried file made
 * anyway and checked, and through the record beside the output (as npm run build does).
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import type { TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';
import { writeAll } from '../../generator/pipeline/emit/emit-files.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

type Edit =
  | { kind: 'retitle' | 'body' | 'tags'; index: number; words: string }
  | { kind: 'date'; index: number; day: number }
  | { kind: 'add'; words: string; day: number }
  | { kind: 'rename' | 'delete'; index: number }
  | { kind: 'term' | 'site'; words: string };

const word = fc.constantFrom('agent', 'checkout', 'catalogue', 'payment', 'signal', 'review', 'latency', 'retail');
const words = fc.array(word, { minLength: 1, maxLength: 4 }).map((list) => list.join(' '));
const day = fc.integer({ min: 1, max: 28 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constantFrom('retitle' as const, 'body' as const, 'tags' as const), index: fc.nat(), words }),
  fc.record({ kind: fc.constant('date' as const), index: fc.nat(), day }),
  fc.record({ kind: fc.constant('add' as const), words, day }),
  fc.record({ kind: fc.constantFrom('rename' as const, 'delete' as const), index: fc.nat() }),
  fc.record({ kind: fc.constantFrom('term' as const, 'site' as const), words }),
);

let added = 0;
const FOLDERS = ['intelligence', 'services', 'technology'];

/** Applies an edit to a content folder: records of three collections, a taxonomy's names, the site's settings. */
function apply(content: string, change: Edit): unknown {
  const files = FOLDERS.flatMap((folder) =>
    readdirSync(path.join(content, folder))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => path.join(content, folder, name)),
  );
  const articles = files.filter((file) => file.includes(`${path.sep}intelligence${path.sep}`));
  const pick = (index: number) => files[index % files.length]!;
  const rewrite = (file: string, from: RegExp, to: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  switch (change.kind) {
    case 'retitle': {
      const file = pick(change.index);
      return rewrite(file, /^(title|name): .*$/m, `$1: ${change.words}`);
    }
    case 'body':
      return writeFileSync(pick(change.index), `${readFileSync(pick(change.index), 'utf8')}\n${change.words}.\n`);
    case 'tags':
      return rewrite(pick(change.index), /^tags: .*$/m, `tags: [${change.words.split(' ').join(', ')}]`);
    case 'date':
      return rewrite(
        articles[change.index % articles.length]!,
        /^date: .*$/m,
        `date: 2025-0${1 + (change.day % 9)}-${String(change.day).padStart(2, '0')}`,
      );
    case 'add':
      return writeFileSync(
        path.join(content, 'intelligence', `added-${++added}.md`),
        `---\ntitle: ${change.words}\nsummary: Added.\ndate: 2025-0${1 + (change.day % 9)}-15\nauthor: Someone\ntopics: [agentic-commerce]\ntags: [${change.words.split(' ')[0]}]\n---\n${change.words}.\n`,
      );
    case 'rename': {
      // Articles only: other records are referenced by their file names.
      const file = articles[change.index % articles.length]!;
      return renameSync(file, path.join(path.dirname(file), `renamed-${++added}.md`));
    }
    case 'delete':
      // Keep two articles at least, so the lists stay worth comparing; other records may be referenced.
      if (articles.length > 2) rmSync(articles[0]!);
      return;
    case 'term':
      return rewrite(
        path.join(content, 'intelligence', 'topics.yaml'),
        /name: Agentic Commerce.*$/m,
        `name: Agentic Commerce ${change.words}`,
      );
    case 'site':
      return rewrite(path.join(content, 'site.yaml'), /^name: .*$/m, `name: Fixture ${change.words}`);
  }
}

/** The build environment of step `step`: the build time moves by a day every other step. */
const envAt = (step: number) => ({ ...BUILD_ENV, SOURCE_DATE_EPOCH: String(1_795_000_000 + (step % 2) * 86_400) });

/** A clean build's files at step `step`. */
const cleanTree = (content: string, step: number) => cleanBuildTree(content, { env: envAt(step) });

/** Builds as npm run dev does (tracked outputs and values kept in memory), counting the files made rather than carried. */
function createMemoryBuilds(out: string, verify: boolean) {
  const cache = createBuildCache();
  const tracked: { outputs?: TrackedOutputs } = {};
  let first = true;
  return async (content: string, step: number) => {
    const made: string[] = [];
    const emit: BuildOptions['emit'] = async (files) => {
      async function* counted(): AsyncGenerator<OutputFile> {
        for await (const file of files) {
          if (!('carried' in file)) made.push(file.path);
          yield file;
        }
      }
      // Each build written whole, linking from the one before, so the tree can be compared.
      const dir = `${out}-${step}`;
      const written = await writeAll(
        counted(),
        dir,
        first
          ? undefined
          : {
              dir: `${out}-${step - 1}`,
              digests: new Map([...(tracked.outputs?.files ?? [])].map(([file, [, digest]]) => [file, digest])),
            },
      );
      first = false;
      return { ...written, identity: dir };
    };
    const result = await buildSite({
      contentDir: content,
      outDir: out,
      env: envAt(step),
      cache,
      emit,
      scope: 'test',
      tracked,
      verifyCarried: verify,
    });
    return {
      result,
      made: made.length,
      madeFiles: made,
      madeRecords: made.filter((file) => /\/get\/|^intelligence\//.test(file)),
      dir: `${out}-${step}`,
    };
  };
}

describe('outputs tracked by their inputs', () => {
  it('carried over in memory, give the bytes of a clean build after any series of edits (every carried file checked)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
        const content = fixtureDir('valid');
        const build = createMemoryBuilds(path.join(tempDir('memory'), 'dist'), true);
        await build(content, 0);
        for (const [index, change] of edits.entries()) {
          apply(content, change);
          const { dir } = await build(content, index + 1);
          expectSameTree(readTree(dir), await cleanTree(content, index + 1), JSON.stringify(change));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 4) },
    );
  }, 180_000);

  it('carried over through the record beside the output (npm run build), give the bytes of a clean build, damage repaired', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
        const content = fixtureDir('valid');
        const out = path.join(tempDir('recorded'), 'dist');
        await buildSite({ contentDir: content, outDir: out, env: envAt(0), scope: 'test' });
        for (const [index, change] of edits.entries()) {
          apply(content, change);
          // A page removed by hand is made again, though its inputs did not change.
          rmSync(path.join(out, 'services', 'index.html'), { force: true });
          // Every carried file made anyway and checked: a steady build carries outputs without making their inputs.
          await buildSite({ contentDir: content, outDir: out, env: envAt(index + 1), scope: 'test', verifyCarried: true });
          expectSameTree(readTree(out), await cleanTree(content, index + 1), JSON.stringify(change));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 3) },
    );
  }, 180_000);

  it('trusts no record that describes another folder, and none made under another scope', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('foreign'), 'dist');
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, scope: 'one' });
    const record = readFileSync(`${out}.inputs.json`, 'utf8');
    apply(content, { kind: 'retitle', index: 0, words: 'retail signal' });
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, scope: 'one' });
    // The first build's record put back beside the second build's folder: it names a folder no longer there.
    writeFileSync(`${out}.inputs.json`, record);
    apply(content, { kind: 'retitle', index: 0, words: 'payment review' });
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, scope: 'one' });
    expectSameTree(readTree(out), await cleanTree(content, 0), 'a foreign record');
    // Another generator or other settings (the scope) carry nothing over: the site's address changes every page.
    await buildSite({ contentDir: content, outDir: out, env: { ...BUILD_ENV, SITE_URL: 'https://other.example.test' }, scope: 'two' });
    const clean = path.join(tempDir('clean'), 'dist');
    await buildSite({ contentDir: content, outDir: clean, env: { ...BUILD_ENV, SITE_URL: 'https://other.example.test' } });
    expectSameTree(readTree(out), readTree(clean), 'another scope');
  });

  it('at 2,000 articles, an edit makes what it touches and the output is a clean build', async () => {
    const content = path.join(tempDir('scale'), 'content');
    await writeSyntheticContent(content, { articles: 2000, bodyWords: 40 });
    const build = createMemoryBuilds(path.join(tempDir('scale-out'), 'dist'), false);
    const first = await build(content, 0);
    expect(first.made).toBe(first.result.files);
    const steps: Edit[] = [
      // A body edit: the article's envelope, page and list windows, and the search index.
      { kind: 'body', index: 0, words: 'latency review' },
      { kind: 'retitle', index: 5, words: 'checkout signal' },
      { kind: 'date', index: 7, day: 3 },
      { kind: 'delete', index: 0 },
    ];
    for (const [index, change] of steps.entries()) {
      // The articles' own folder, so `apply` picks among them.
      apply(content, change);
      const step = await build(content, index + 1);
      expectSameTree(readTree(step.dir), await cleanTree(content, index + 1), JSON.stringify(change));
      rmSync(`${step.dir.slice(0, step.dir.lastIndexOf('-'))}-${index}`, { recursive: true, force: true });
      if (index === 0) {
        // The search index is made again whole, as are a few small files no tracker keeps.
        // Of the envelopes and record pages, only the edited article's own; list pages that show it are made too.
        const records = step.madeRecords.filter((file) => /\/get\/|\/[0-9a-f]{2}\/[^/]+\/index\.html$/.test(file));
        expect(records).toEqual([
          recordPath('intelligence/get', 'article-1'),
          `${recordPageFolder('intelligence', 'article-1')}/index.html`,
        ]);
        expect(step.made, 'files made for a body edit').toBeLessThan(step.result.files / 8);
        // Every page and its date are as before: the sitemap is carried over, not made.
        expect(step.madeFiles).not.toContain(outputPath(ADDRESS.sitemap));
      }
      expect(step.made).toBeLessThan(step.result.files);
    }
  }, 240_000);
});
