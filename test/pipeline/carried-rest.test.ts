/**
 * A steady build that names only what its edit reached (generator/pipeline/carried-rest.ts): its producers
 * give the edited records' outputs and the windows that hold them, the emit step keeps the rest of the
 * previous build as it was. After any series of edits the output is a clean build's, and after a body edit
 * the files named are exactly the ones the edit reaches: an untouched output named, or a touched one missed,
 * fails here.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import type { TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';
import { carriedRest } from '../../generator/pipeline/carried-rest.ts';
import { writeAll } from '../../generator/pipeline/emit/emit-files.ts';
import { recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { BUILD_ENV, listFiles, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { cleanBuildTree as cleanTree, expectSameTree } from '../helpers/same-tree.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const ARTICLES = 300;

/**
 * Builds as npm run dev does, with an emit step that keeps what it is not given: each build is written whole
 * into a folder of its own, the files given written or linked, the rest linked from the build before.
 */
function createSparseBuilds(out: string) {
  const cache = createBuildCache();
  const tracked: { outputs?: TrackedOutputs } = {};
  let step = 0;
  return async (content: string) => {
    const named: string[] = [];
    const dir = `${out}-${step}`;
    const before = step > 0 ? `${out}-${step - 1}` : undefined;
    const emit: BuildOptions['emit'] = async (files, rest) => {
      async function* counted(): AsyncGenerator<OutputFile> {
        for await (const file of files) {
          named.push(file.path);
          yield file;
        }
      }
      const digests = new Map([...(tracked.outputs?.files ?? [])].map(([file, [, digest]]) => [file, digest]));
      const written = await writeAll(counted(), dir, before ? { dir: before, digests } : undefined);
      const carried = rest();
      let linked = 0;
      for (const file of before && carried ? listFiles(before) : []) {
        if (!carried!.has(file)) continue;
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        linkSync(path.join(before!, file), path.join(dir, file));
        linked++;
      }
      if (carried) expect(linked, 'the rest, as the emit step was told its size').toBe(carried.size());
      return { ...written, identity: dir };
    };
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, cache, emit, emitKeepsRest: true, scope: 'test', tracked });
    step++;
    return { named, dir, before };
  };
}

type Edit = { kind: 'body' | 'retitle' | 'date'; index: number; words: string };

const word = fc.constantFrom('agent', 'checkout', 'catalogue', 'payment', 'signal', 'review');
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('body' as const, 'body' as const, 'retitle' as const, 'date' as const),
  index: fc.nat(),
  words: fc.array(word, { minLength: 1, maxLength: 3 }).map((list) => list.join(' ')),
});

/** Edits the `index`th record file of three collections: its body, its title or name, or its date. */
function apply(content: string, { kind, index, words }: Edit): void {
  const files = ['intelligence', 'services', 'technology'].flatMap((folder) =>
    readdirSync(path.join(content, folder))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => path.join(content, folder, name)),
  );
  const file = files[index % files.length]!;
  const text = readFileSync(file, 'utf8');
  if (kind === 'body') writeFileSync(file, `${text}\n${words}.\n`);
  else if (kind === 'retitle') writeFileSync(file, text.replace(/^(title|name): .*$/m, `$1: ${words}`));
  else writeFileSync(file, text.replace(/^date: .*$/m, `date: 2025-0${1 + (words.length % 9)}-${10 + (words.length % 18)}`));
}

describe('a steady build that names only what its edit reached', () => {
  const content = path.join(tempDir('rest'), 'content');
  const ready = writeSyntheticContent(content, { articles: ARTICLES, bodyWords: 30 });

  it('names the edited record, the windows holding it and nothing else untouched, and writes a clean build', async () => {
    await ready;
    const build = createSparseBuilds(path.join(tempDir('rest-out'), 'dist'));
    await build(content);
    const target = 'article-150';
    const file = path.join(content, 'intelligence', `${target}.md`);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nlatency review.\n`);
    const { named, dir, before } = await build(content);
    const tree = readTree(dir);
    expectSameTree(tree, await cleanTree(content), 'a body edit');
    const previous = readTree(before!);
    // No touched output missed: every file whose bytes changed was named.
    const changed = [...tree].filter(([file, bytes]) => !previous.get(file)?.equals(bytes)).map(([file]) => file);
    expect(changed.length).toBeGreaterThan(2);
    expect(named).toEqual(expect.arrayContaining(changed));
    // No untouched output named: envelopes and pages are the edited record's (and each list's first, which the
    // OpenAPI examples print); chunks and list pages hold it (or are a list's first chunk).
    const text = (file: string) => tree.get(file)!.toString('utf8');
    const firstChunk = (file: string) => /\/all\/chunk\/0\/0\.ndjson$/.test(file);
    const firstIds = new Set(named.filter(firstChunk).map((file) => JSON.parse(text(file).split('\n', 1)[0]!).id as string));
    for (const file of named) {
      if (/\/get\//.test(file)) {
        const id = path.basename(file, '.json');
        expect(id === target || firstIds.has(id), `${file} named`).toBe(true);
      } else if (/\/chunk\//.test(file)) {
        expect(firstChunk(file) || text(file).includes(`"id":"${target}"`), `${file} named`).toBe(true);
      } else if (/^intelligence\/[0-9a-f]{2}\/[^/]+\/index\.html$/.test(file)) {
        expect(file).toBe(`${recordPageFolder('intelligence', target)}/index.html`);
      } else if (/^intelligence\/.*index\.html$/.test(file)) {
        expect(text(file).includes(`/${target}/`), `${file} named`).toBe(true);
      }
    }
    expect(named).toContain(recordPath('intelligence/get', target));
    // Of the 300 articles' envelopes and pages, two are named for the edit and one for the examples.
    expect(named.filter((file) => /intelligence\/get\/|^intelligence\/[0-9a-f]{2}\//.test(file))).toHaveLength(3);
  }, 120_000);

  it('gives the bytes of a clean build after any series of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 5 }), async (edits) => {
        const content = fixtureDir('valid');
        const build = createSparseBuilds(path.join(tempDir('rest-series'), 'dist'));
        await build(content);
        for (const change of edits) {
          apply(content, change);
          const { dir, before } = await build(content);
          expectSameTree(readTree(dir), await cleanTree(content), JSON.stringify(change));
          rmSync(before!, { recursive: true, force: true });
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 3) },
    );
  }, 240_000);
});

describe('the rest of a build whose group was made again', () => {
  const previous: TrackedOutputs = {
    files: new Map(['a', 'b', 'c', 'x'].map((file) => [file, [`key ${file}`, `digest ${file}`]])),
    groups: new Map([['index', { key: 'k1', files: ['a', 'b', 'c'] }]]),
  };
  it('drops the files the group no longer has, and none when it has the same', () => {
    const same = carriedRest(
      previous,
      new Map(['a', 'b', 'c'].map((file) => [file, 'k2'])),
      new Map([['index', { key: 'k2', files: ['a', 'b', 'c'] }]]),
      new Set(['index']),
    );
    expect([...same.dropped]).toEqual([]);
    expect(same.size()).toBe(1);
    expect(['a', 'x'].map((file) => same.has(file))).toEqual([false, true]);
    const fewer = carriedRest(
      previous,
      new Map(['a', 'b'].map((file) => [file, 'k2'])),
      new Map([['index', { key: 'k2', files: ['a', 'b'] }]]),
      new Set(['index']),
    );
    expect([...fewer.dropped]).toEqual(['c']);
    expect(fewer.size()).toBe(1);
    expect(['c', 'x'].map((file) => fewer.has(file))).toEqual([false, true]);
  });
});
