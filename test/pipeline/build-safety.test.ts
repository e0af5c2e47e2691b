/**
 * One build at a time per output folder, and an output that is what its record says: two builds at once
 * leave a record that matches the folder; a killed build's lock is taken over; a file changed or removed in
 * the output is noticed and rewritten; `--force` trusts nothing of the last build.
 */
import { execFile, spawnSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { damagedCount, readPreviousOutput, recordOutput } from '../../generator/pipeline/emit/previous-output.ts';
import { lockFile, lockOutput } from '../../generator/pipeline/emit/output-lock.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const ROOT = path.resolve(import.meta.dirname, '../..');

async function runBuild(content: string, out: string, env: Record<string, string> = {}, ...flags: string[]) {
  const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', out, ...flags];
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...BUILD_ENV, ...env },
  });
  return { line: stdout.split('\n')[0]!, stderr };
}

/** Every file the record names is in the output with the bytes its digest says, and the output holds no other. */
function expectRecordMatchesFolder(out: string): void {
  const recorded = readPreviousOutput(path.resolve(out));
  expect(recorded, 'a record of the folder in place').toBeDefined();
  expect(damagedCount(path.resolve(out))).toBe(0);
  const tree = readTree(out);
  expect([...recorded!.records!.keys()].sort()).toEqual([...tree.keys()]);
  for (const [file, [digest]] of recorded!.records!) {
    if (digest !== 'copied') expect(hash('sha1', tree.get(file)!, 'base64'), file).toBe(digest);
  }
}

function expectSameTree(left: string, right: string): void {
  const [a, b] = [readTree(left), readTree(right)];
  expect([...a.keys()]).toEqual([...b.keys()]);
  for (const [file, bytes] of a) expect(bytes.equals(b.get(file)!), file).toBe(true);
}

describe('two builds of one output folder at once', () => {
  it('run one after the other, and leave a record that matches the folder', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('concurrent'), 'dist');
    await runBuild(content, out);
    const a = { SITE_URL: 'https://a.example.test' };
    const b = { SITE_URL: 'https://b.example.test' };
    const runs = await Promise.all([runBuild(content, out, a), runBuild(content, out, b), runBuild(content, out, a)]);
    for (const run of runs) expect(run.line).toMatch(/: \d+ files, \d+ written|nothing changed/);
    expectRecordMatchesFolder(out);
    expect(existsSync(lockFile(out))).toBe(false);
    // The record names the build in place: building it again changes nothing; the other builds.
    const inPlace = JSON.parse(readFileSync(path.join(out, '_api/manifest.json'), 'utf8')).site_url as string;
    const [same, other] = inPlace === a.SITE_URL ? [a, b] : [b, a];
    expect((await runBuild(content, out, same)).line).toMatch(/nothing changed/);
    expect((await runBuild(content, out, other)).line).toMatch(/: \d+ files, \d+ written/);
    const clean = path.join(tempDir('concurrent-clean'), 'dist');
    await runBuild(content, clean, other);
    expectSameTree(out, clean);
    expectRecordMatchesFolder(out);
  }, 120_000);
});

describe('the output lock', () => {
  it('is taken over from a process that has ended', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('stale-lock'), 'dist');
    const ended = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    writeFileSync(lockFile(out), JSON.stringify({ pid: Number(ended.stdout.trim()), started: '2026-01-01T00:00:00Z' }));
    expect((await runBuild(content, out)).line).toMatch(/: \d+ files, \d+ written/);
    expect(existsSync(lockFile(out))).toBe(false);
  }, 60_000);

  it('makes a second build wait for a running one, and fail with a message that names it after the wait', async () => {
    const out = path.join(tempDir('held-lock'), 'dist');
    // The test runner's parent is alive for the whole test: a lock it held would be a running build's.
    writeFileSync(lockFile(out), JSON.stringify({ pid: process.ppid, started: '2026-01-01T00:00:00Z' }));
    const waited: number[] = [];
    await expect(lockOutput(out, { waitMs: 300, onWait: (owner) => waited.push(owner.pid) })).rejects.toThrow(
      `another build (process ${process.ppid}, started 2026-01-01T00:00:00Z) is writing ${path.resolve(out)}`,
    );
    expect(waited).toEqual([process.ppid]);
    rmSync(lockFile(out));
    const release = await lockOutput(out);
    expect(JSON.parse(readFileSync(lockFile(out), 'utf8')).pid).toBe(process.pid);
    // Re-entrant within the thread that holds it; released when the last holder lets go.
    const again = await lockOutput(out, { waitMs: 100 });
    again();
    expect(existsSync(lockFile(out))).toBe(true);
    release();
    expect(existsSync(lockFile(out))).toBe(false);
  });
});

describe('a damaged output', () => {
  it('is noticed and repaired: a file changed by hand, one removed, one changed behind its witness with --force', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('damaged'), 'dist');
    const clean = path.join(tempDir('damaged-clean'), 'dist');
    await runBuild(content, clean);
    await runBuild(content, out);
    const changed = path.join(out, 'services/index.html');
    const removed = path.join(out, '_api/manifest.json');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}<!-- edited by hand -->`);
    rmSync(removed);
    expect((await runBuild(content, out)).line).toMatch(/: \d+ files, \d+ written/);
    expectSameTree(out, clean);
    expectRecordMatchesFolder(out);
    // An edit the record cannot see (its witness rewritten to match, as a same-size edit within the clock's
    // tick would leave it): a build trusts it, --force rewrites everything.
    const sneaky = path.join(out, outputPath(ADDRESS.robots));
    writeFileSync(sneaky, readFileSync(sneaky, 'utf8').replace('Allow', 'ALLOW'));
    const records = new Map(readPreviousOutput(path.resolve(out))!.records);
    const stats = statSync(sneaky);
    records.set(outputPath(ADDRESS.robots), [records.get(outputPath(ADDRESS.robots))![0], stats.size, stats.mtimeMs, stats.ino]);
    recordOutput(path.resolve(out), records);
    expect((await runBuild(content, out)).line).toMatch(/nothing changed/);
    const forced = await runBuild(content, out, {}, '--force');
    const [, files, written] = /: (\d+) files, (\d+) written/.exec(forced.line)!;
    expect(written).toBe(files);
    expectSameTree(out, clean);
  }, 120_000);
});
