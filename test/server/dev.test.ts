/**
 * `npm run dev` as an editor uses it: a real process, real files saved, added, renamed and deleted in the
 * content folder, the result read over HTTP; a bad edit keeps the last good build served; pages reload.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

type Json = Record<string, any>;
let child: ChildProcess;
let output = '';
let base = '';
let content = '';
let out = '';

/** Resolves when the dev output (from `from` on) matches `pattern`. */
async function waitFor(pattern: RegExp, from: number, timeoutMs = 15_000): Promise<string> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const match = pattern.exec(output.slice(from));
    if (match) return match[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no ${pattern} in the dev output:\n${output.slice(from)}`);
}

/** Changes the content and waits for the dev server's next report on it. */
async function edit(change: () => void, expected = /[^\n]*: rebuilt in \d+ ms, \d+ of \d+ files changed/): Promise<string> {
  const from = output.length;
  change();
  return waitFor(expected, from);
}

const getJson = async (route: string) => {
  const response = await fetch(`${base}${route}`);
  return { status: response.status, body: (await response.json()) as Json };
};
const serviceTitles = async () => (await getJson('/v1/services/list')).body.data.map((item: Json) => item.title);

beforeAll(async () => {
  content = fixtureDir('valid');
  out = path.join(tempDir('dev'), '.dev');
  child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', out], {
    env: { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (data) => {
    output += data;
  });
  child.stderr!.on('data', (data) => {
    output += data;
  });
  const ready = await waitFor(/at http:\/\/127\.0\.0\.1:\d+\//, 0, 30_000);
  base = ready.slice(3, -1);
}, 60_000);

afterAll(async () => {
  child.kill('SIGTERM');
  await once(child, 'exit');
  removeFixtureDirs();
  removeBuildDirs();
});

describe('npm run dev', () => {
  it('builds, serves and says what it published', () => {
    expect(output).toMatch(/^first build: built in \d+ ms, \d+ files\n {2}published: 2 services, 2 expertise/);
  });

  it('serves a saved change with the next request, and prints one line for it', async () => {
    const file = path.join(content, 'services', 'seo-audit.md');
    const line = await edit(() =>
      writeFileSync(file, readFileSync(file, 'utf8').replace('title: Technical SEO Audit', 'title: Technical SEO Audit, revised')),
    );
    expect(line).toMatch(/^services\/seo-audit\.md changed: rebuilt in \d+ ms/);
    expect(await serviceTitles()).toContain('Technical SEO Audit, revised');
  });

  it('picks up a file added, renamed and deleted', async () => {
    const added = path.join(content, 'services', 'added-service.md');
    const source = readFileSync(path.join(content, 'services', 'mcp-server-development.md'), 'utf8');
    await edit(() => writeFileSync(added, source.replace(/^title: .*$/m, 'title: An added service')));
    expect((await getJson('/v1/services/get?id=added-service')).status).toBe(200);
    await edit(() => renameSync(added, path.join(content, 'services', 'renamed-service.md')));
    expect((await getJson('/v1/services/get?id=added-service')).status).toBe(404);
    expect((await getJson('/v1/services/get?id=renamed-service')).body.data.title).toBe('An added service');
    await edit(() => rmSync(path.join(content, 'services', 'renamed-service.md')));
    expect((await getJson('/v1/services/get?id=renamed-service')).status).toBe(404);
  });

  it('serves each edit from what it changed, over one folder written once: no tree per edit', async () => {
    const file = path.join(content, 'services', 'seo-audit.md');
    for (const line of ['One.', 'Two.', 'Three.']) {
      const report = await edit(() => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${line}\nA word: zanzibarian${line.length}.\n`));
      const [, changed, total] = /(\d+) of (\d+) files changed/.exec(report)!.map(Number);
      // An edit to one service's body changes its envelopes, pages, lists and index parts, not the site.
      expect(changed).toBeGreaterThan(0);
      expect(changed! * 4).toBeLessThan(total!);
      expect((await getJson('/v1/services/get?id=seo-audit')).body.data.content_html).toContain(line);
      // Search answers the edited words at once.
      const search = (await getJson(`/v1/search?q=zanzibarian${line.length}`)).body;
      expect(search.data.map((hit: Json) => hit.slug)).toEqual(['seo-audit']);
    }
    // The first build's folder is the only one, named <pid>-<thread>-<n>: the builder thread wrote it.
    const folders = readdirSync(out).filter((name) => name.startsWith('build.serving-'));
    expect(folders).toHaveLength(1);
    expect(folders[0]).toMatch(/^build\.serving-\d+-[1-9]\d*-\d+$/);
  });

  it('keeps serving the last good build after a bad edit, and recovers with the next good one', async () => {
    const file = path.join(content, 'services', 'seo-audit.md');
    const good = readFileSync(file, 'utf8');
    const before = await serviceTitles();
    const report = await edit(
      () => writeFileSync(file, good.replace('category: growth-marketing', 'category: no-such-category')),
      /not rebuilt[\s\S]*?nothing was built\./,
    );
    expect(report).toContain('still serving the last good build');
    expect(report).toMatch(/services\/seo-audit\.md:\d+: category: unknown category "no-such-category"/);
    expect(await serviceTitles()).toEqual(before);
    await edit(() => writeFileSync(file, good.replace('title: Technical SEO Audit, revised', 'title: Technical SEO Audit, fixed')));
    expect(await serviceTitles()).toContain('Technical SEO Audit, fixed');
  });

  it('tells open pages to reload after a rebuild, through an event stream pages load only in dev', async () => {
    const home = await (await fetch(`${base}/`)).text();
    expect(home).toContain('<script src="/__dev/reload.js"></script>');
    // The build on disk has none of it.
    const [folder] = readdirSync(out).filter((name) => name.startsWith('build.serving-'));
    expect(readFileSync(path.join(out, folder!, 'index.html'), 'utf8')).not.toContain('__dev');
    const controller = new AbortController();
    const events = await fetch(`${base}/__dev/events`, { signal: controller.signal });
    const reader = events.body!.getReader();
    const file = path.join(content, 'services', 'seo-audit.md');
    await edit(() => writeFileSync(file, `${readFileSync(file, 'utf8')}\nOne more line.\n`));
    let received = '';
    while (!received.includes('event: build')) received += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    expect(received).toContain('event: build');
  });
});

describe('npm run dev -- --help', () => {
  it('prints the usage and exits 0', async () => {
    const { spawnSync } = await import('node:child_process');
    const run = spawnSync(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--help'], { encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('npm run dev [-- --content DIR --out DIR]');
  });
});
