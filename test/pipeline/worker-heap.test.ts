/**
 * `npm run build` gives its own thread a 64 MB semi-space and an old generation that starts at 1 GB; its worker
 * threads (the helper, the file writer, the damage check) keep V8's defaults (typescript-worker.ts), which
 * bounds what each adds to a cold build's peak. Without the reset, V8 applies the command's flags to every thread.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { HeapReport } from '../helpers/heap-worker.ts';

/** The heap flags of `npm run build`, read from package.json's script, so the test follows them. */
const buildFlags = () => {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { build: string } }).scripts.build;
  return script.split(' ').filter((word) => /^--(max|min)-semi-space-size=|^--initial-old-space-size=/.test(word));
};

describe("the heap of the build's worker threads", () => {
  const flags = buildFlags();
  const run = spawnSync(process.execPath, [...flags, '--import', 'tsx', 'test/helpers/heap-main.ts'], { encoding: 'utf8' });

  it('runs with the three heap flags of npm run build', () => {
    expect(flags.map((flag) => flag.split('=')[0])).toEqual(['--max-semi-space-size', '--min-semi-space-size', '--initial-old-space-size']);
    expect(run.stderr).toBe('');
  });

  it('is the default young generation in a worker thread while the build thread keeps its 64 MB semi-space', () => {
    const { main, worker } = JSON.parse(run.stdout) as { main: HeapReport; worker: HeapReport };
    // Two semi-spaces of 64 MB in the build's thread; V8's default (16 MB semi-spaces on 64-bit) in the worker.
    expect(main.youngMb).toBeGreaterThan(64);
    expect(worker.youngMb).toBeLessThanOrEqual(32);
  });

  it("is V8's own old generation in a worker thread, which collects in full while holding 300 MB; the build thread does not", () => {
    const { main, worker } = JSON.parse(run.stdout) as { main: HeapReport; worker: HeapReport };
    expect(main.fullCollections).toBe(0);
    expect(worker.fullCollections).toBeGreaterThan(0);
  });
});
