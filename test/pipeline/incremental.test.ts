/**
 * A build after edits links the files whose bytes did not change from the previous build and writes the
 * rest, reusing the bodies it rendered before. Its output must be byte for byte what a clean build of the same content writes: a random series of
 * edits, additions, renames and deletions is applied, and after each step both trees are compared: in builds
 * that keep their state in memory (npm run dev), and in builds that take it from beside the output (npm run build).
 */
import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { type BuildCache, createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { createContentListing } from '../../generator/server/dev/dev-content-listing.ts';
import { apply, edit } from '../helpers/content-edits.ts';
import { buildAsCommand } from '../helpers/command-build.ts';
import { writeBuildRecord } from '../../generator/pipeline/build-fingerprint.ts';
import type { WitnessColumns } from '../../generator/pipeline/content-witnesses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

/** Builds as npm run dev does: each build into a snapshot folder of its own, the output updated in place. */
function createSnapshotBuilds(out: string) {
  let count = 0;
  let newest: string | undefined;
  return {
    async build(content: string, cache: BuildCache) {
      const dir = `${out}.serving-test-${++count}`;
      const result = await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, cache, snapshot: { dir, previous: newest } });
      const previous = newest;
      newest = dir;
      return { result, previous };
    },
    newest: () => newest!,
  };
}

describe('an incremental build', () => {
  it('writes and counts only the files whose bytes changed, copied files (images, the editor) included', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('counted'), 'dist');
    const first = await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    expect(first.written).toBe(first.files);
    const again = await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    expect(again.written).toBe(0);
    const image = readTree(out).has(outputPath(`${ADDRESS.admin}decap-cms.js`));
    expect(image).toBe(true);
  });

  it('writes the same bytes as a clean build after any series of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
        const content = fixtureDir('valid');
        const incremental = path.join(tempDir('incremental'), 'dist');
        // As npm run dev builds: rendered bodies carried from one build to the next.
        const cache = createBuildCache();
        await buildSite({ contentDir: content, outDir: incremental, env: BUILD_ENV, cache });
        for (const change of edits) {
          apply(content, change);
          const result = await buildSite({ contentDir: content, outDir: incremental, env: BUILD_ENV, cache });
          const clean = path.join(tempDir('clean'), 'dist');
          await buildSite({ contentDir: content, outDir: clean, env: BUILD_ENV });
          expect(existsSync(`${clean}.digests.json`)).toBe(true);
          expectSameTree(readTree(incremental), readTree(clean), JSON.stringify(change));
          // Most files are carried over: an edit to one article does not rewrite the whole site.
          expect(result.written).toBeLessThan(result.files);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 6) },
    );
  }, 120_000);

  it('writes the same bytes as a clean build after any series of edits, each built from what the last kept beside the output (npm run build)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
        const content = fixtureDir('valid');
        const out = path.join(tempDir('command'), 'dist');
        await buildAsCommand(content, out);
        for (const change of edits) {
          apply(content, change);
          await buildAsCommand(content, out);
          expectSameTree(readTree(out), await cleanBuildTree(content), JSON.stringify(change));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 4) },
    );
  }, 120_000);

  it('writes the same bytes as a clean build after any series of edits, given the listing and the paths each edit changed (npm run dev)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
        const content = fixtureDir('valid');
        const out = path.join(tempDir('reported'), 'dist');
        const cache = createBuildCache();
        const listing = createContentListing();
        const build = () =>
          buildSite({ contentDir: content, outDir: out, env: BUILD_ENV, cache, listContent: (root) => listing.list(root) });
        await build();
        for (const change of edits) {
          listing.report(apply(content, change));
          await build();
          const clean = path.join(tempDir('clean'), 'dist');
          await buildSite({ contentDir: content, outDir: clean, env: BUILD_ENV });
          expectSameTree(readTree(out), readTree(clean), JSON.stringify(change));
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 4) },
    );
  }, 120_000);

  it('writes the same bytes into each snapshot and the output updated in place (npm run dev), and leaves the previous snapshot as it was', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 6 }), async (edits) => {
        const content = fixtureDir('valid');
        const out = path.join(tempDir('snapshots'), 'dist');
        const cache = createBuildCache();
        const builds = createSnapshotBuilds(out);
        await builds.build(content, cache);
        // As if npm run build had recorded this output: dev may write a preview there, so the record must go.
        writeFileSync(`${out}.build.bin`, '{}');
        for (const change of edits) {
          const before = readTree(builds.newest());
          apply(content, change);
          const { result, previous } = await builds.build(content, cache);
          const clean = path.join(tempDir('clean'), 'dist');
          await buildSite({ contentDir: content, outDir: clean, env: BUILD_ENV });
          const expected = readTree(clean);
          expectSameTree(readTree(builds.newest()), expected, JSON.stringify(change));
          expectSameTree(readTree(out), expected, `${JSON.stringify(change)} (output folder)`);
          // The server may still be answering from the previous snapshot: the new build must not touch it.
          expectSameTree(readTree(previous!), before, `${JSON.stringify(change)} (previous snapshot)`);
          expect(result.written).toBeLessThan(result.files);
          expect(existsSync(`${out}.build.bin`)).toBe(false);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 4) },
    );
  }, 120_000);

  it('writes everything again when the previous output was replaced behind its back', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('replaced'), 'dist');
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    rmSync(out, { recursive: true });
    const clean = path.join(tempDir('replaced-clean'), 'dist');
    await buildSite({ contentDir: content, outDir: clean, env: BUILD_ENV });
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    const [left, right] = [readTree(out), readTree(clean)];
    expect([...left.keys()]).toEqual([...right.keys()]);
    for (const [file, bytes] of left) expect(bytes.equals(right.get(file)!), file).toBe(true);
  });
});

describe('npm run build with nothing changed', () => {
  const ROOT = path.resolve(import.meta.dirname, '../..');
  async function runBuild(content: string, out: string, ...flags: string[]): Promise<string> {
    const { execFile } = await import('node:child_process');
    const { promisify } = await import('node:util');
    const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', out, ...flags];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...BUILD_ENV } });
    return stdout.split('\n')[0]!;
  }

  it('says so and writes nothing; an edit, a flag, --force or a removed output builds again', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('unchanged'), 'dist');
    expect(await runBuild(content, out)).toMatch(/: \d+ files, \d+ written/);
    const before = statSync(out).ino;
    expect(await runBuild(content, out)).toMatch(/: nothing changed since the last build \(\d+ files, [\d.]+ MiB\); checked in \d+ ms/);
    expect(statSync(out).ino).toBe(before);
    const file = path.join(content, 'services', 'seo-audit.md');
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nAn edit.\n`);
    expect(await runBuild(content, out)).toMatch(/: \d+ files, \d+ written/);
    // A file touched but not changed is no change; an edit that keeps the size and puts the modification
    // time back is seen all the same (a file whose size and times match the record is not read again).
    const old = new Date('2026-01-01T00:00:00Z');
    utimesSync(file, old, old);
    expect(await runBuild(content, out)).toMatch(/nothing changed/);
    writeFileSync(file, readFileSync(file, 'utf8').replace('An edit.', 'An EDIT.'));
    utimesSync(file, old, old);
    expect(await runBuild(content, out)).toMatch(/: \d+ files, \d+ written/);
    expect(await runBuild(content, out)).toMatch(/nothing changed/);
    expect(await runBuild(content, out, '--drafts')).toMatch(/: \d+ files, \d+ written/);
    expect(await runBuild(content, out, '--drafts')).toMatch(/nothing changed/);
    expect(await runBuild(content, out, '--drafts', '--force')).toMatch(/: \d+ files, \d+ written/);
    // A record edited into nonsense is no record: the build runs.
    const nonsense = { at: 'x', paths: 'services/seo-audit.md', digests: 5 } as unknown as WitnessColumns;
    writeBuildRecord(out, { identity: 'x', fingerprint: 'y', content: nonsense, summary: {} });
    expect(await runBuild(content, out, '--drafts')).toMatch(/: \d+ files, \d+ written/);
    writeFileSync(`${out}.build.bin`, JSON.stringify({ content: 5 }));
    expect(await runBuild(content, out, '--drafts')).toMatch(/: \d+ files, \d+ written/);
    rmSync(out, { recursive: true });
    expect(await runBuild(content, out, '--drafts')).toMatch(/: \d+ files, \d+ written/);
    expect(existsSync(path.join(out, '_api', 'manifest.json'))).toBe(true);
  }, 180_000);
});
