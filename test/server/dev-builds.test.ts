/**
 * `npm run dev`'s builder, as its thread runs it: a first build written as a base, then edits each given the
 * paths the watcher reports. What the server serves after each (the base with the changed files over it) is
 * byte for byte a clean build of the same content, and search's parts are among what changed.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { applyChanges, keepOnly, type Overlay } from '../../generator/server/build-files.ts';
import { createDevBuilds, type DevBuildEvents, type DevBuildOptions } from '../../generator/server/dev/dev-builds.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

const SERVED_AT = 'http://127.0.0.1:4321';
const PREVIEW = { drafts: false, future: false };
const saved: Record<string, string | undefined> = {};

beforeAll(() => {
  // The builder reads its settings from the environment, as npm run dev's thread does.
  for (const [name, value] of Object.entries(BUILD_ENV)) {
    saved[name] = process.env[name];
    process.env[name] = value;
  }
});

afterAll(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  removeBuildDirs();
  removeFixtureDirs();
});

/** The files the server reads: the base folder's, with the overlay's over them. */
function servedTree(base: string, overlay: Overlay | undefined): Map<string, Buffer> {
  const tree = readTree(base);
  for (const [file, entry] of overlay ?? []) {
    if (entry) tree.set(file, Buffer.from(entry.bytes));
    else tree.delete(file);
  }
  return new Map([...tree].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const cleanTree = (content: string) =>
  cleanBuildTree(content, { settings: resolveBuildSettings(process.env, { preview: PREVIEW, servedAt: SERVED_AT }) });

/** The dev builder over `content`, its first build made (snapshots under a temporary folder named `name`). */
async function firstBuilt(content: string, name: string, options: Partial<DevBuildOptions> = {}, events: DevBuildEvents = {}) {
  const builds = createDevBuilds(
    {
      contentDir: content,
      snapshotRoot: path.join(tempDir(name), 'build'),
      preview: PREVIEW,
      servedAt: SERVED_AT,
      ...options,
    },
    events,
  );
  const first = await builds.build(0);
  if (!first.built) {
    builds.close();
    throw new Error(JSON.stringify(first));
  }
  return builds;
}

describe("npm run dev's builder", () => {
  it('serves what a clean build writes after each edit, given only the paths the watcher reported', async () => {
    const content = fixtureDir('valid');
    const article = (name: string) => path.join(content, 'intelligence', name);
    const rewrite = (file: string, from: RegExp, to: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
    const builds = await firstBuilt(content, 'dev-builds');
    try {
      // The practice edit and the build after it hand the server nothing: the content did not change.
      const warm = await builds.warmUp(1);
      if (!warm.built) throw new Error(JSON.stringify(warm));
      expect([warm.written, warm.changed.length, warm.removed.length, warm.rebased]).toEqual([0, 0, 0, false]);
      let overlay: Overlay | undefined;
      const steps: [string, () => void, string[]][] = [
        [
          'a title edit',
          () => rewrite(article('rag-evaluation.md'), /^title: .*$/m, 'title: Zanzibarian retrieval checks'),
          ['intelligence/rag-evaluation.md'],
        ],
        [
          'a body edit',
          () => rewrite(article('rag-evaluation.md'), /$/, '\nA quokkaesque paragraph.\n'),
          ['intelligence/rag-evaluation.md'],
        ],
        [
          'an article added',
          () =>
            writeFileSync(article('added.md'), readFileSync(article('rag-evaluation.md'), 'utf8').replace(/^title: .*$/m, 'title: Added')),
          ['intelligence/added.md'],
        ],
        [
          'an article renamed',
          () => renameSync(article('added.md'), article('renamed.md')),
          ['intelligence/added.md', 'intelligence/renamed.md'],
        ],
        ['an article deleted', () => rmSync(article('renamed.md')), ['intelligence/renamed.md']],
        [
          'a term renamed',
          () => rewrite(article('topics.yaml'), /name: Agentic Commerce/, 'name: Agentic Trade'),
          ['intelligence/topics.yaml'],
        ],
      ];
      for (const [index, [what, change, reported]] of steps.entries()) {
        change();
        const answer = await builds.build(index + 2, reported);
        if (!answer.built) throw new Error(`${what}: ${JSON.stringify(answer)}`);
        overlay = answer.rebased ? undefined : applyChanges(overlay, answer.changed, answer.removed, new Date());
        expectSameTree(servedTree(answer.base, overlay), await cleanTree(content), what);
      }
      // Search's parts were among the files changed: it answers the edited words with the next request.
      expect([...(overlay?.keys() ?? [])].some((file) => file.includes('search'))).toBe(true);
    } finally {
      builds.close();
    }
  }, 120_000);

  it('hands the server what changed during the first build after its practice edit, and nothing of the practice', async () => {
    const content = fixtureDir('valid');
    const file = path.join(content, 'intelligence', 'rag-evaluation.md');
    const builds = await firstBuilt(content, 'dev-warm-up');
    try {
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Edited while the first build ran'));
      const warm = await builds.warmUp(1);
      if (!warm.built) throw new Error(JSON.stringify(warm));
      expect(warm.rebased).toBe(false);
      expect(warm.changed.map((changed) => changed.path)).toContain('intelligence/7e/rag-evaluation/index.html');
      const served = servedTree(warm.base, applyChanges(undefined, warm.changed, warm.removed, new Date()));
      expectSameTree(served, await cleanTree(content), 'an edit during the first build');
    } finally {
      builds.close();
    }
  }, 120_000);

  it('writes a new base in the background once the changes add up, and serves the same bytes from it', async () => {
    const content = fixtureDir('valid');
    const article = (name: string) => path.join(content, 'intelligence', name);
    const retitle = (name: string, title: string) =>
      writeFileSync(article(name), readFileSync(article(name), 'utf8').replace(/^title: .*$/m, `title: ${title}`));
    // What the server does with each answer and each new base (dev-rebuilder.ts), in the order the builder says them.
    let served: { dir: string; overlay?: Overlay | undefined } | undefined;
    let newBase: ((rebased: { base: string; since: string[] }) => void) | undefined;
    const rebased = new Promise<{ base: string; since: string[] }>((resolve) => {
      newBase = resolve;
    });
    const builds = await firstBuilt(
      content,
      'dev-rebase',
      { overlayLimit: { files: 2, bytes: 1 << 30 } },
      {
        rebased(news) {
          served = { dir: news.base, overlay: keepOnly(served?.overlay, news.since) };
          newBase!(news);
        },
      },
    );
    const edit = async (id: number, name: string, title: string) => {
      retitle(name, title);
      const answer = await builds.build(id, [`intelligence/${name}`]);
      if (!answer.built) throw new Error(JSON.stringify(answer));
      // Never written on an edit's path: the base is the first build's until a new one is said.
      expect(answer.rebased).toBe(false);
      served = {
        dir: answer.base,
        overlay: applyChanges(served?.dir === answer.base ? served.overlay : undefined, answer.changed, answer.removed, new Date()),
      };
      return answer;
    };
    try {
      const warm = await builds.warmUp(1);
      if (!warm.built) throw new Error(JSON.stringify(warm));
      served = { dir: warm.base, overlay: applyChanges(undefined, warm.changed, warm.removed, new Date()) };
      const before = await cleanTree(content);
      const first = await edit(2, 'rag-evaluation.md', 'Zanzibarian retrieval checks');
      expect(first.changed.length).toBeGreaterThan(2);
      const afterFirst = await cleanTree(content);
      expectSameTree(servedTree(served.dir, served.overlay), afterFirst, 'the edit that starts a new base');
      // An edit while the new base is written: served over the old base, then over the new one with this edit's files.
      await edit(3, 'rag-evaluation.md', 'Quokkaesque retrieval checks');
      const afterSecond = await cleanTree(content);
      expectSameTree(servedTree(served!.dir, served!.overlay), afterSecond, 'an edit while the new base is written');
      const news = await rebased;
      expect(news.base).not.toBe(first.base);
      // The new base on disk is a whole build, of the content as it was after one of the builds before.
      const alone = readTree(news.base);
      const sameAs = (tree: Map<string, Buffer>) =>
        alone.size === tree.size && [...alone].every(([file, bytes]) => tree.get(file)?.equals(bytes));
      expect([before, afterFirst, afterSecond].filter(sameAs)).toHaveLength(1);
      expectSameTree(servedTree(served!.dir, served!.overlay), afterSecond, 'the new base with what changed since');
      retitle('rag-evaluation.md', 'Retrieval checks once more');
      const third = await builds.build(4, ['intelligence/rag-evaluation.md']);
      if (!third.built) throw new Error(JSON.stringify(third));
      // Over the last base said: the new one, or a later one, since the files edited after the new base was
      // begun can fill the overlay again, and a slow machine may finish that next base before this answer.
      expect(third.base).not.toBe(first.base);
      expect(third.base).toBe(served!.dir);
      served = { dir: third.base, overlay: applyChanges(served!.overlay, third.changed, third.removed, new Date()) };
      expectSameTree(servedTree(served.dir, served.overlay), await cleanTree(content), 'an edit over the new base');
    } finally {
      builds.close();
      // The last build may have begun another base: written after the folders are removed, it would outlive the test.
      await builds.settled();
    }
  }, 120_000);
});
