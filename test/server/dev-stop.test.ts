/**
 * `npm run dev` stops within 2 s of SIGTERM whatever it is doing, and leaves its output folder as the next
 * dev server expects it: no base folder of the stopped one, whole or half-written. Sent while the first
 * build's base is being written, and while an edit's rebuild runs in the builder thread.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

const STOP_GOAL_MS = 2000;
let content = '';
let out = '';

beforeAll(() => {
  content = fixtureDir('valid');
  out = path.join(tempDir('dev-stop'), '.dev');
});

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  removeBuildDirs();
  removeFixtureDirs();
});

function startDev(): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', out], {
    env: { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  return { child, output: () => output };
}

/** The base folders in the output folder (none before dev has made it). */
const bases = () => (existsSync(out) ? readdirSync(out).filter((name) => name.startsWith('build.serving-')) : []);

async function until<T>(found: () => T | undefined, what: string, timeoutMs = 60_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await new Promise((resolve) => setTimeout(resolve, 5))) {
    const value = found();
    if (value) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Sends SIGTERM; resolves with the milliseconds until the process ended. */
async function stop(child: ChildProcess): Promise<number> {
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const sent = performance.now();
  child.kill('SIGTERM');
  await ended;
  return performance.now() - sent;
}

describe('npm run dev on SIGTERM', () => {
  it('ends within 2 s while its first base is being written, and leaves no part of it', async () => {
    const dev = startDev();
    // The base folder appears as the first build starts writing it.
    await until(() => (bases().length ? true : undefined), 'the first base');
    expect(dev.output()).not.toContain('first build: built');
    expect(await stop(dev.child)).toBeLessThan(STOP_GOAL_MS);
    await until(() => (bases().length === 0 ? true : undefined), 'the stopped server’s base to be removed', 15_000);
  }, 90_000);

  it('ends within 2 s while an edit is rebuilt in its thread, and leaves none of its bases', async () => {
    const dev = startDev();
    const url = await until(() => /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(dev.output())?.[1], 'the ready line');
    expect((await fetch(`${url}/v1/health`)).status).toBe(200);
    const file = path.join(content, 'services', 'seo-audit.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Stopped mid-edit'));
    // The save is acted on after 20 ms of quiet, and its rebuild takes longer than the rest of this wait.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await stop(dev.child)).toBeLessThan(STOP_GOAL_MS);
    expect(dev.output()).toContain('SIGTERM: closing');
    await until(() => (bases().length === 0 ? true : undefined), 'the stopped server’s bases to be removed', 15_000);
  }, 90_000);
});
