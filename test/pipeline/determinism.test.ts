/**
 * Determinism (docs/architecture.md): the same content gives byte-identical output, and the build time
 * (SOURCE_DATE_EPOCH) shows only in the fields that record it.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import {
  BUILD_ENV,
  BUILD_TIME,
  buildInto,
  readEnvelope,
  readJson,
  readManifest,
  readTree,
  removeBuildDirs,
  tempDir,
} from '../helpers/build-output.ts';
import { expectSameTree } from '../helpers/same-tree.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

/** Expects two output folders to hold the same files with the same bytes. */
function expectIdentical(a: string, b: string): void {
  expectSameTree(readTree(a), readTree(b));
}

/** Paths (`a.b[2].c`) of every leaf where two parsed JSON values differ. */
function differences(left: unknown, right: unknown, at = ''): string[] {
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return Object.is(left, right) ? [] : [at];
  if (Array.isArray(left) !== Array.isArray(right)) return [at];
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].flatMap((key) =>
    differences(
      (left as Record<string, unknown>)[key],
      (right as Record<string, unknown>)[key],
      Array.isArray(left) ? `${at}[${key}]` : `${at}.${key}`,
    ),
  );
}

describe('buildSite determinism', () => {
  it('writes byte-identical output for the same content built twice from two copies', async () => {
    const first = await buildInto(VALID_FIXTURE);
    const second = await buildInto(fixtureDir('valid'));
    expectIdentical(first, second);
  });

  it('writes byte-identical output for a larger synthetic collection built twice', async () => {
    const content = tempDir('synthetic');
    await writeSyntheticContent(content, { articles: 60, services: 6, expertise: 6, technology: 4, resources: 4 });
    const [first, second] = await Promise.all([buildInto(content), buildInto(content)]);
    expectIdentical(first, second);
  });

  it('changes only the build time, in health and the manifest, when SOURCE_DATE_EPOCH changes', async () => {
    const first = await buildInto(VALID_FIXTURE);
    const second = await buildInto(VALID_FIXTURE, { ...BUILD_ENV, SOURCE_DATE_EPOCH: String(Number(BUILD_ENV.SOURCE_DATE_EPOCH) + 3600) });
    const left = readTree(first);
    const right = readTree(second);
    expect([...right.keys()]).toEqual([...left.keys()]);
    const changed = new Set<string>();
    for (const [file, bytes] of left) {
      const other = right.get(file)!;
      if (!file.endsWith('.json')) {
        expect(bytes.equals(other), `${file} differs`).toBe(true);
        continue;
      }
      for (const at of differences(JSON.parse(bytes.toString('utf8')), JSON.parse(other.toString('utf8')))) {
        expect(at, `${file}: ${at}`).toMatch(/\.(timestamp|built_at)$/);
        changed.add(file);
      }
    }
    expect(readEnvelope(first, 'health.json').data).toMatchObject({ built_at: BUILD_TIME });
    expect(readEnvelope(second, 'health.json').data).toMatchObject({ built_at: '2026-11-18T12:06:40Z' });
    expect(readManifest(second).built_at).toBe('2026-11-18T12:06:40Z');
    // Everything else is a function of the content alone, so an unchanged site rebuilds to the same bytes (the
    // schedule records its build's time, which scheduled publishing reads).
    expect([...changed].sort()).toEqual(['_api/manifest.json', '_api/schedule.json', '_api/v1/health.json']);
  });

  it.each([
    ['the bundled command, as npm run build starts it', ['generator/launch.mjs', 'pipeline/cli.ts']],
    ['the command run from its TypeScript source', ['--import', 'tsx', 'generator/pipeline/cli.ts']],
  ])('writes the same bytes from %s (search index in a worker thread) as from buildSite in this process', async (_name, command) => {
    const inProcess = await buildInto(VALID_FIXTURE);
    const fromCli = path.join(tempDir('cli'), 'dist');
    const args = [...command, 'build', '--content', VALID_FIXTURE, '--out', fromCli];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...BUILD_ENV } });
    // The same values first, so that a failure below is about order or formatting, not content.
    for (const [file, bytes] of readTree(inProcess)) {
      if (file.endsWith('.json')) expect(readJson(fromCli, file), file).toEqual(JSON.parse(bytes.toString('utf8')));
    }
    expectIdentical(inProcess, fromCli);
  });

  it('fails a CLI build whose index, built in the worker, is over budget, and keeps the last good output', async () => {
    const out = path.join(tempDir('cli-budget'), 'dist');
    const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', VALID_FIXTURE, '--out', out];
    await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...BUILD_ENV } });
    const before = readTree(out);
    const failed = await promisify(execFile)(process.execPath, [...args, '--force'], {
      cwd: ROOT,
      env: { ...process.env, ...BUILD_ENV, SEARCH_INDEX_BUDGET_MB: '0.001' },
    }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed && failed.code).toBe(2);
    expect((failed as { stderr: string }).stderr).toMatch(/search index is [\d.]+ MB, over the budget of 0\.001 MB/);
    expectSameTree(before, readTree(out));
  });
});
