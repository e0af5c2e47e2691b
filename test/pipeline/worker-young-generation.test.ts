/**
 * `npm run build` gives its own thread a 64 MB semi-space from its start; its worker threads (the helper, the file writer,
 * the damage check) keep V8's default young generation (typescript-worker.ts), which bounds what each adds
 * to a cold build's peak. Without the reset, V8 applies the command's flag to every thread.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('the young generation of worker threads', () => {
  it('is the default in a worker thread while the build thread keeps the 64 MB semi-space it was started with', () => {
    const flags = ['--max-semi-space-size=64', '--min-semi-space-size=64'];
    const run = spawnSync(process.execPath, [...flags, '--import', 'tsx', 'test/helpers/young-generation-main.ts'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const sizes = JSON.parse(run.stdout) as { main: number; worker: number };
    // Two semi-spaces of 64 MB in the build's thread; V8's default (16 MB semi-spaces on 64-bit) in the worker.
    expect(sizes.main).toBeGreaterThan(64);
    expect(sizes.worker).toBeLessThanOrEqual(32);
  });
});
