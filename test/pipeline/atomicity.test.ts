/**
 * A failed build leaves the previous output exactly as it was, whether it fails on the content, inside
 * the emit step, or through the CLI; a successful one swaps in the new output whole. No staging folder
 * is ever left beside the output.
 */
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { emitFiles } from '../../generator/pipeline/emit/emit-files.ts';
import { ContentError } from '../../generator/pipeline/problems.ts';
import { fixtureDir, removeFixtureDirs, VALID_FIXTURE } from '../helpers/fixture.ts';
import { BUILD_ENV, buildInto, listFiles, readTree, removeBuildDirs, tempDir, recordFile, V1 } from '../helpers/build-output.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

/** One build of the valid fixture; each test gets its own copy as the previous output. */
let template: string;
/** The previous output of the current test (alone in its temporary folder) and its bytes. */
let out: string;
let before: Map<string, Buffer>;

beforeAll(async () => {
  template = await buildInto(VALID_FIXTURE);
});

beforeEach(() => {
  out = path.join(tempDir('previous'), 'dist');
  cpSync(template, out, { recursive: true });
  before = readTree(out);
});

/** The output holds exactly the files and bytes it held after the valid build, and nothing sits beside it. */
function expectUntouched(): void {
  const after = readTree(out);
  expect([...after.keys()]).toEqual([...before.keys()]);
  for (const [file, bytes] of before) expect(bytes.equals(after.get(file)!), `${file} changed`).toBe(true);
  expectNoStaging();
}

/** Beside the output only the digests of what it holds (previous-output.ts): no staging or previous folder. */
function expectNoStaging(): void {
  const record = [`${path.basename(out)}.digests.json`, `${path.basename(out)}.digests`];
  expect(readdirSync(path.dirname(out)).filter((name) => !record.includes(name))).toEqual([path.basename(out)]);
}

describe('buildSite atomicity', () => {
  it('throws a ContentError on broken content and leaves the previous output as it was', async () => {
    const failure = await buildSite({ contentDir: fixtureDir('missing-field'), outDir: out, env: BUILD_ENV }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ContentError);
    expect((failure as ContentError).problems).toEqual([
      { file: 'services/mcp-server-development.md', line: 2, field: 'title', message: expect.stringMatching(/required/) },
    ]);
    expectUntouched();
  });

  it('replaces the whole previous output on a successful build', async () => {
    const dir = fixtureDir('valid');
    rmSync(path.join(dir, 'services', 'seo-audit.md'));
    await buildSite({ contentDir: dir, outDir: out, env: BUILD_ENV });
    const files = listFiles(out);
    expect(files).not.toContain(`${V1}/${recordFile('services', 'seo-audit')}`);
    expect(files).not.toContain(`${V1}/${recordFile('services', 'technical-seo-audit')}`);
    expect(files).toContain(`${V1}/${recordFile('services', 'mcp-server-development')}`);
    expectNoStaging();
  });
});

describe('emitFiles atomicity', () => {
  it('rejects two outputs with the same path and leaves the previous output as it was', async () => {
    const files = [
      { path: 'a/one.json', body: '{"n":1}' },
      { path: 'a/one.json', body: '{"n":2}' },
    ];
    await expect(emitFiles(files, out)).rejects.toThrow(/a\/one\.json/);
    expectUntouched();
  });

  it('leaves the previous output as it was when a file fails half-way through', async () => {
    const files = [
      ...Array.from({ length: 200 }, (_, index) => ({ path: `many/${index}.json`, body: `{"n":${index}}` })),
      { path: 'images/missing.svg', copyFrom: path.join(VALID_FIXTURE, 'images', 'no-such-image.svg') },
    ];
    await expect(emitFiles(files, out)).rejects.toThrow(/ENOENT/);
    expectUntouched();
  });

  it('puts back an output that a killed build had moved aside, and removes the staging folder it left', async () => {
    // A process that has ended: its pid names the leftovers as the emit step names its own.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    renameSync(out, `${out}.old-${dead}-1`);
    mkdirSync(`${out}.tmp-${dead}-1/half`, { recursive: true });
    writeFileSync(`${out}.tmp-${dead}-1/half/written.json`, '{}');
    // A build that fails then still leaves the last good output in place, and nothing beside it.
    await expect(
      emitFiles(
        [
          { path: 'a.json', body: '{}' },
          { path: 'a.json', body: '{}' },
        ],
        out,
      ),
    ).rejects.toThrow(/a\.json/);
    expectUntouched();
  });

  it('swaps in exactly the new files when it succeeds', async () => {
    const result = await emitFiles([{ path: 'only/file.json', body: '{}' }], out);
    expect(result).toEqual({
      files: 1,
      written: 1,
      bytes: 2,
      identity: expect.stringMatching(/^\d+:\d+$/),
      digests: new Map([['only/file.json', expect.any(String)]]),
      stamp: expect.any(String),
    });
    expect(listFiles(out)).toEqual(['only/file.json']);
    expectNoStaging();
  });
});

describe('cli.ts build', () => {
  async function runBuild(contentDir: string, outDir: string) {
    const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', contentDir, '--out', outDir];
    const env = { ...process.env, ...BUILD_ENV };
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code?: unknown; stdout?: string; stderr?: string };
      if (typeof failed.code !== 'number') throw error;
      return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
    }
  }

  it('exits 1 on broken content, prints file:line: field: problems without a stack trace, and keeps the output', async () => {
    const content = fixtureDir('missing-field');
    const run = await runBuild(content, out);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toContain(`${content}/services/mcp-server-development.md`);
    expect(lines.filter((line) => line.startsWith('  '))).toEqual([
      expect.stringMatching(/^ {2}services\/mcp-server-development\.md:2: title: .*required/),
    ]);
    expect(lines.at(-1)).toBe('1 problem in 1 file; nothing was built.');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stderr).not.toContain('ContentError');
    expectUntouched();
  });
});
