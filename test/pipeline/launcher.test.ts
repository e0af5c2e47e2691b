/**
 * The command launcher's bundle cache: a bundle is trusted only when its files are the ones its marker
 * records, and a bundle a running process loads from is never removed under it (a server that loads its
 * MCP module on the first request answered 500 once a newer build of the source had removed its bundle).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error the launcher is plain JavaScript, run before any TypeScript loader
import { ensureBundle, isCompleteBundle, removeUnusedBundles } from '../../generator/launch.mjs';
import { buildInto, removeBuildDirs, tempDir } from '../helpers/build-output.ts';

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) child.kill();
  removeBuildDirs();
});

/** A process that stays alive until the tests end. */
function liveProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

describe('the bundle cache', () => {
  it("gives two checkouts that share one node_modules a bundle each: a bundle holds its sources' own addresses", async () => {
    const copy = tempDir('launcher-copy');
    cpSync(path.resolve('generator'), path.join(copy, 'generator'), { recursive: true });
    symlinkSync(path.resolve('node_modules'), path.join(copy, 'node_modules'));
    const launcher = (await import(pathToFileURL(path.join(copy, 'generator', 'launch.mjs')).href)) as { ensureBundle(): Promise<string> };
    const [ours, theirs] = [await ensureBundle(), await launcher.ensureBundle()];
    expect(theirs).not.toBe(ours);
    // The nothing-changed check hashes the folder its own module names: the copy's, never this checkout's.
    const modules = readdirSync(theirs, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.mjs'));
    const text = modules.map((name) => readFileSync(path.join(theirs, name), 'utf8')).join('\n');
    expect(text).toContain(pathToFileURL(path.join(copy, 'generator', 'pipeline', 'build-fingerprint.ts')).href);
    expect(text).not.toContain(pathToFileURL(path.resolve('generator', 'pipeline', 'build-fingerprint.ts')).href);
  }, 120_000);

  it('holds the packages every build loads, and leaves every other package to node_modules', async () => {
    const dir = (await ensureBundle()) as string;
    const modules = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.mjs'));
    const imported = new Set(
      modules.flatMap((name) =>
        [...readFileSync(path.join(dir, name), 'utf8').matchAll(/(?:from |import\()"([^".][^"]*)"/g)].map(
          (match) => match[1]!.split('/')[0]!,
        ),
      ),
    );
    for (const bundled of ['zod', 'marked', 'js-yaml', 'feed', 'saxes', 'stemmer']) expect(imported).not.toContain(bundled);
    expect(imported).toContain('serve-handler');
    expect(imported).toContain('@modelcontextprotocol');
  });

  it('trusts a bundle only when every file matches the digests its marker records', async () => {
    const dir = (await ensureBundle()) as string;
    const key = path.basename(dir);
    const copy = path.join(tempDir('bundle'), key);
    cpSync(dir, copy, { recursive: true, filter: (source: string) => !source.includes(`${path.sep}leases`) });
    expect(isCompleteBundle(copy, key)).toBe(true);
    expect(isCompleteBundle(copy, 'another-key')).toBe(false);
    const file = readdirSync(copy).find((name) => name.endsWith('.mjs'))!;
    appendFileSync(path.join(copy, file), '\nglobalThis.planted = true;\n');
    expect(isCompleteBundle(copy, key)).toBe(false);
    writeFileSync(path.join(copy, 'complete'), '');
    expect(isCompleteBundle(copy, key)).toBe(false);
  });

  it('removes old bundles that no running process leases, and keeps the current one and the leased ones', async () => {
    const cache = tempDir('cache');
    const dead = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    await new Promise((resolve) => dead.once('exit', resolve));
    const folders = { current: 'key1', leased: 'old-leased', deadLease: 'old-dead', none: 'old-none' };
    for (const name of Object.values(folders)) mkdirSync(path.join(cache, name, 'leases'), { recursive: true });
    writeFileSync(path.join(cache, folders.leased, 'leases', String(liveProcess().pid)), '');
    writeFileSync(path.join(cache, folders.deadLease, 'leases', String(dead.pid)), '');
    removeUnusedBundles(cache, 'key1');
    expect(readdirSync(cache).sort()).toEqual(['key1', 'old-leased']);
  });
});

describe('a running server', () => {
  it('keeps its bundle when a newer one is made, and its MCP endpoint, loaded later, still answers', async () => {
    const dist = await buildInto('content');
    const server = spawn(process.execPath, ['generator/launch.mjs', 'server/cli.ts', '--dist', dist], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(server);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = / at (http:\/\/\S+) /.exec(out);
        if (found) resolve(found[1]!);
      });
      server.once('exit', () => reject(new Error(`server stopped: ${out}`)));
    });
    const bundle = (await ensureBundle()) as string;
    // What a command does after bundling a newer version of the source.
    removeUnusedBundles(path.dirname(bundle), 'a-newer-source');
    // The server's own lease (the test run leases the bundle too: test/helpers/bundle-setup.ts).
    expect(readdirSync(path.join(bundle, 'leases'))).toContain(String(server.pid));
    expect(existsSync(bundle)).toBe(true);
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(response.status).toBe(200);
  }, 60_000);
});
