/**
 * A snapshot is linked by a process of its own at the lowest priority, so the server's thread and its thread
 * pool stay free for requests: every file of the tree becomes a hard link, an abandoned linking has ended
 * before the caller hears of it, and a linking whose server is gone removes what it made.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Abandoned, linkTreeInBackground } from '../../generator/server/snapshot-linker.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('snapshot-linker');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A build-like tree: `folders` folders of `files` files each, and one nested folder. */
function tree(name: string, folders: number, files: number): string {
  const dir = path.join(root, name);
  for (let f = 0; f < folders; f++) {
    const folder = path.join(dir, `folder-${f}`, f === 0 ? 'nested' : '');
    mkdirSync(folder, { recursive: true });
    for (let i = 0; i < files; i++) writeFileSync(path.join(folder, `file-${i}.json`), `{"n":${f * files + i}}`);
  }
  return dir;
}

/** Every file under `dir`, relative, sorted. */
const filesOf = (dir: string) =>
  (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).filter((file) => statSync(path.join(dir, file)).isFile()).sort();

const until = async (test: () => boolean, ms = 20_000) => {
  for (const deadline = Date.now() + ms; !test() && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('linking a snapshot in the background', () => {
  it('makes every file of the tree a hard link of the same file, nested folders included', async () => {
    const from = tree('small', 3, 20);
    const to = path.join(root, 'small-snapshot');
    await linkTreeInBackground(from, to, () => false).done;
    expect(filesOf(to)).toEqual(filesOf(from));
    expect(filesOf(to)).toContain(path.join('folder-0', 'nested', 'file-0.json'));
    for (const file of filesOf(from)) expect(statSync(path.join(to, file)).ino).toBe(statSync(path.join(from, file)).ino);
  });

  it('links a folder read through this process’s handle on it', async () => {
    const from = tree('by-handle', 1, 5);
    const fd = openSync(from, 'r');
    try {
      const to = path.join(root, 'by-handle-snapshot');
      await linkTreeInBackground(`/proc/self/fd/${fd}`, to, () => false).done;
      expect(filesOf(to)).toEqual(filesOf(from));
    } finally {
      closeSync(fd);
    }
  });

  it('rejects with Abandoned once abandoned, and only after the linking process has ended', async () => {
    const from = tree('large', 20, 500);
    const to = path.join(root, 'large-snapshot');
    let abandon = false;
    const linking = linkTreeInBackground(from, to, () => abandon).done;
    await until(() => existsSync(to));
    abandon = true;
    await expect(linking).rejects.toBeInstanceOf(Abandoned);
    // Nothing is still being linked into the folder the caller is about to remove.
    const count = filesOf(to).length;
    expect(count).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(filesOf(to).length).toBe(count);
  });

  it('stops at once when told to (a server that closes), the process ended before the caller hears', async () => {
    const from = tree('stopped', 20, 500);
    const to = path.join(root, 'stopped-snapshot');
    const linking = linkTreeInBackground(from, to, () => false);
    await until(() => existsSync(to));
    linking.stop();
    await expect(linking.done).rejects.toBeInstanceOf(Abandoned);
    const count = filesOf(to).length;
    expect(count).toBeLessThan(10_000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(filesOf(to).length).toBe(count);
  });

  it('fails with the reason when the tree cannot be linked', async () => {
    await expect(linkTreeInBackground(path.join(root, 'no-such-folder'), path.join(root, 'nowhere'), () => false).done).rejects.toThrow(
      /ended with 1/,
    );
  });

  it('removes what it made when the process that started it ends first', async () => {
    const from = tree('orphan', 20, 500);
    const to = path.join(root, 'orphan-snapshot');
    // A server that starts a linking and ends at once, without waiting for it or removing anything.
    const script = [
      "import { statSync } from 'node:fs';",
      `import { linkTreeInBackground } from ${JSON.stringify(path.resolve('generator/server/snapshot-linker.ts'))};`,
      `linkTreeInBackground(${JSON.stringify(from)}, ${JSON.stringify(to)}, () => false).done.catch(() => {});`,
      `const wait = () => { try { statSync(${JSON.stringify(to)}); process.exit(0); } catch { setTimeout(wait, 5); } };`,
      'wait();',
    ].join('\n');
    const server = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: 'inherit' });
    await new Promise((resolve) => server.once('exit', resolve));
    expect(existsSync(to)).toBe(true);
    await until(() => !existsSync(to));
    expect(existsSync(to)).toBe(false);
    expect(filesOf(from).length).toBe(10_000);
  }, 60_000);
});
