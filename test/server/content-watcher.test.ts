/**
 * The content watcher's batches, driven directly: a bulk change (many files, or anything git's index lock
 * held back) is one batch even when its last reports come after a pause, small saves are still batches of
 * their own, and a stream that never stops is still delivered.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContentWatcher, watchContent } from '../../generator/server/dev/content-watcher.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Until the watcher has delivered what was written so far (its reports come a moment after the writes). */
const delivered = async () => {
  await pause(100);
  await watcher!.idle();
};
let watcher: ContentWatcher | undefined;

afterEach(() => {
  watcher?.close();
  removeBuildDirs();
});

/** A content folder in a (bare-bones) git work tree, watched; `batches` fills as the watcher delivers. */
function watched() {
  const root = tempDir('watcher');
  mkdirSync(path.join(root, '.git'));
  mkdirSync(path.join(root, 'intelligence'));
  const batches: string[][] = [];
  watcher = watchContent(root, { changed: (files) => batches.push([...files].sort()), failed: (error) => batches.push([error.message]) });
  const write = (name: string) => writeFileSync(path.join(root, 'intelligence', name), 'x');
  return { root, batches, write, lock: path.join(root, '.git', 'index.lock') };
}

describe('the content watcher', () => {
  it('makes a change that git held its lock for one batch, with the reports that come after the lock goes', async () => {
    const { batches, write, lock } = watched();
    writeFileSync(lock, '');
    for (let index = 0; index < 3; index++) write(`during-${index}.md`);
    await pause(150);
    rmSync(lock);
    // Late reports of git's last writes: read after the lock has gone, within the bulk quiet time.
    await pause(120);
    write('late-0.md');
    await pause(120);
    write('late-1.md');
    await delivered();
    expect(batches).toEqual([
      [
        'intelligence/during-0.md',
        'intelligence/during-1.md',
        'intelligence/during-2.md',
        'intelligence/late-0.md',
        'intelligence/late-1.md',
      ],
    ]);
  });

  it('makes a bulk change one batch across short pauses, and a single save a batch of its own', async () => {
    const { batches, write } = watched();
    for (let burst = 0; burst < 3; burst++) {
      for (let index = 0; index < 60; index++) write(`bulk-${burst}-${index}.md`);
      await pause(120);
    }
    await delivered();
    expect(batches.map((batch) => batch.length)).toEqual([180]);
    write('one.md');
    await delivered();
    expect(batches.at(-1)).toEqual(['intelligence/one.md']);
    expect(batches).toHaveLength(2);
  });

  it('still delivers a stream of changes that never stops', async () => {
    const { batches, write } = watched();
    const until = performance.now() + 3_000;
    for (let index = 0; performance.now() < until; index++) {
      write(`stream-${index % 100}.md`);
      await pause(10);
    }
    expect(batches.length).toBeGreaterThanOrEqual(1);
    await delivered();
    expect(batches.length).toBeGreaterThanOrEqual(2);
  });
});
