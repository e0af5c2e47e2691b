/**
 * The Netlify build plugin (netlify/plugins/build-cache) called as Netlify calls it: its hooks get `utils.cache`
 * from Netlify's own cache utilities, bound to a cache folder, around netlify.toml's own build command. Each
 * deploy starts from a fresh checkout (the content copied anew: new inodes, new times, no output). A deploy
 * after a cached one starts from the previous output: nothing changed is seen as such; an edit parses one
 * Markdown file (the rest are confirmed by their bytes from the kept load store), updates the restored folder
 * in place, and leaves a clean build's output. An empty cache means a cold build.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { bindOpts } from '@netlify/cache-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ON_DISK } from '../helpers/scratch.ts';

afterAll(removeBuildDirs);

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Plugin {
  onPreBuild(options: unknown): Promise<void>;
  onSuccess(options: unknown): Promise<void>;
}

/** The build command Netlify runs (netlify.toml), for this content and output. */
const NETLIFY_COMMAND = /^\s*command\s*=\s*"([^"]+)"/m.exec(readFileSync(path.join(ROOT, 'netlify.toml'), 'utf8'))![1]!;

async function runBuild(content: string, out: string, command = NETLIFY_COMMAND): Promise<string> {
  const [program, ...args] = [...command.split(' '), ...(command.includes(' -- ') ? [] : ['--']), '--content', content, '--out', out];
  const { stdout } = await promisify(execFile)(program!, args, { cwd: ROOT, env: { ...process.env, ...BUILD_ENV } });
  return stdout.split('\n').find((line) => line.includes(` -> ${out}: `))!;
}

const identity = (dir: string) => statSync(dir).ino;

/** A fresh checkout of the repository as Netlify makes one: the content anew, no output, no records. */
function freshCheckout(source: string, content: string, out: string): void {
  rmSync(content, { recursive: true, force: true });
  cpSync(source, content, { recursive: true });
  for (const file of [
    out,
    `${out}.digests.json`,
    `${out}.build.bin`,
    `${out}.inputs.json`,
    `${out}.kept.bin`,
    `${out}.load`,
    `${out}.search`,
  ])
    rmSync(file, { recursive: true, force: true });
}

describe('the Netlify build cache plugin', () => {
  it('restores the last output and its records, so the next deploy builds only what changed', async () => {
    const pluginFile = '../../netlify/plugins/build-cache/index.js';
    const plugin = (await import(pluginFile)) as Plugin;
    // On disk, not in the suites' memory folder (scratch.ts): Netlify's cache utilities move the checkout's
    // node_modules/.cache into the cache folder and back, and cannot move a folder to another filesystem.
    const root = tempDir('netlify-cache', ON_DISK);
    const [content, out, cacheDir] = ['content', 'dist', 'cache'].map((name) => path.join(root, name)) as [string, string, string];
    const hooks = { utils: { cache: bindOpts({ cacheDir }) }, constants: { PUBLISH_DIR: out } };
    const logs: string[] = [];
    const log = console.log;
    console.log = (...args: unknown[]) => logs.push(args.join(' '));
    try {
      // First deploy: an empty cache, a cold build, the output saved.
      freshCheckout(VALID_FIXTURE, content, out);
      await plugin.onPreBuild(hooks);
      expect(logs.at(-1)).toBe('build cache: empty; the build is cold');
      expect(await runBuild(content, out)).toMatch(/: \d+ files, \d+ written/);
      await plugin.onSuccess(hooks);
      // After the deploy the output is moved into the cache (a rename), not copied file by file.
      expect(existsSync(out)).toBe(false);
      // Second deploy of the same commit: nothing changed.
      freshCheckout(VALID_FIXTURE, content, out);
      await plugin.onPreBuild(hooks);
      expect(existsSync(path.join(out, '_api/manifest.json'))).toBe(true);
      expect(await runBuild(content, out)).toMatch(/nothing changed since the last build/);
      await plugin.onSuccess(hooks);
      // Third deploy: one article edited.
      freshCheckout(VALID_FIXTURE, content, out);
      const article = path.join(content, 'intelligence', 'rag-evaluation.md');
      writeFileSync(article, `${readFileSync(article, 'utf8')}\nOne more sentence.\n`);
      await plugin.onPreBuild(hooks);
      expect(existsSync(`${out}.load`), 'the load store restored').toBe(true);
      expect(existsSync(`${out}.search/index.bin`), 'the search index state restored').toBe(true);
      const restored = identity(out);
      const line = await runBuild(content, out);
      const [, files, written, carried] = /: (\d+) files, (\d+) written \(the rest unchanged\), (\d+) carried over unmade/
        .exec(line)!
        .map(Number);
      expect(written).toBeLessThan(files! / 2);
      // Every other Markdown file is confirmed by its bytes from the restored load store, not parsed again.
      const [, parsed, kept] = /Markdown files: (\d+) parsed, (\d+) kept from the last build/.exec(line)!.map(Number);
      expect(parsed).toBe(1);
      expect(kept).toBeGreaterThan(5);
      expect(identity(out), 'the restored folder updated in place, not swapped for a new one').toBe(restored);
      // The restored record of what each output was made from is trusted for the restored folder: the envelopes
      // and pages the edit did not touch are not made again (none would be without it).
      expect(carried).toBeGreaterThan(0);
      const clean = path.join(tempDir('netlify-clean'), 'dist');
      await runBuild(content, clean, 'npm run build');
      const [left, right] = [readTree(out), readTree(clean)];
      expect([...left.keys()]).toEqual([...right.keys()]);
      for (const [file, bytes] of left) expect(bytes.equals(right.get(file)!), file).toBe(true);
    } finally {
      console.log = log;
    }
  }, 180_000);
});
