/**
 * What `npm run build` does while the content is checked in another thread: the read ahead runs its steps
 * only until the check answers (read-ahead.ts), and the output's damage check waits at a gate the content's
 * check opens (thread-gate.ts), so the two checks do not share the second core.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { fingerprintBuild, recordBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { checkContentInThread } from '../../generator/pipeline/content-check.ts';
import { startDamageCheck } from '../../generator/pipeline/emit/damage-check.ts';
import { readAheadUntil } from '../../generator/pipeline/read-ahead.ts';
import { closedGate, openGate } from '../../generator/pipeline/thread-gate.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const isOpen = (gate: Int32Array) => Atomics.load(gate, 0) === 1;

describe('the read ahead', () => {
  it('runs its steps in turn until the answer comes, and gives the answer', async () => {
    const ran: number[] = [];
    let answer!: (value: string) => void;
    const answered = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const steps = Array.from({ length: 100 }, (_, step) => () => {
      ran.push(step);
      if (step === 4) setImmediate(() => answer('checked'));
    });
    expect(await readAheadUntil(answered, steps)).toBe('checked');
    // The answer came after the fifth step: at most the step the event loop ran before it.
    expect(ran.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(ran.length).toBeLessThanOrEqual(6);
  });

  it('runs every step when the answer is slower, and passes on a failed answer', async () => {
    const ran: number[] = [];
    const slow = new Promise<number>((resolve) => setTimeout(() => resolve(7), 50));
    expect(
      await readAheadUntil(
        slow,
        [1, 2, 3].map((step) => () => ran.push(step)),
      ),
    ).toBe(7);
    expect(ran).toEqual([1, 2, 3]);
    await expect(readAheadUntil(Promise.reject(new Error('unreadable')), [() => {}])).rejects.toThrow('unreadable');
  });
});

describe('the gate between the two checks', () => {
  it("holds the output's damage check until it opens, and the content's check opens it", async () => {
    const contentDir = fixtureDir('valid');
    const outDir = path.join(tempDir('gate'), 'dist');
    await buildSite({ contentDir, outDir, env: BUILD_ENV, scope: 'test', inPlace: true });
    const inputs = { contentDir, outDir, settings: resolveBuildSettings({}) };
    recordBuild(outDir, fingerprintBuild(inputs), {}, { output: 'stamp' });

    const gate = closedGate();
    let answered = false;
    const damage = startDamageCheck(outDir, gate);
    void damage.answer.then(() => {
      answered = true;
    });
    // Without the gate the check of this small output answers within a few hundred milliseconds.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(answered, 'no answer while the gate is closed').toBe(false);

    expect(await checkContentInThread(inputs, gate)).toBeDefined();
    expect(isOpen(gate), "the content's check opened the gate").toBe(true);
    expect((await damage.answer)?.damaged.size).toBe(0);
  }, 60_000);

  it('is opened when there is no record to check against', async () => {
    const gate = closedGate();
    const inputs = { contentDir: fixtureDir('valid'), outDir: path.join(tempDir('gate-cold'), 'dist'), settings: resolveBuildSettings({}) };
    expect(await checkContentInThread(inputs, gate)).toBeUndefined();
    expect(isOpen(gate)).toBe(true);
    openGate(gate);
    expect(isOpen(gate), 'opening twice leaves it open').toBe(true);
  });

  it("shares the output's parts between the two threads when the build has nothing else to do", async () => {
    const contentDir = fixtureDir('valid');
    const outDir = path.join(tempDir('help'), 'dist');
    await buildSite({ contentDir, outDir, env: BUILD_ENV, scope: 'test', inPlace: true });
    const changed = path.join(outDir, 'services', 'index.html');
    writeFileSync(changed, `${readFileSync(changed, 'utf8')}<!-- by hand -->`);
    rmSync(path.join(outDir, 'robots.txt'));
    const damaged = ['robots.txt', 'services/index.html'];

    // The thread waits at its gate: this thread checks every part itself, and the answer holds what it found.
    const gate = closedGate();
    const held = startDamageCheck(outDir, gate);
    held.help();
    openGate(gate);
    expect([...((await held.answer)?.damaged ?? [])].sort()).toEqual(damaged);

    // Both at once: each part is checked by one of them, and the answer is the same.
    const both = startDamageCheck(outDir);
    both.help();
    expect([...((await both.answer)?.damaged ?? [])].sort()).toEqual(damaged);
    expect([...((await startDamageCheck(outDir).answer)?.damaged ?? [])].sort()).toEqual(damaged);
  }, 60_000);
});
