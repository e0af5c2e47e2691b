/**
 * `npm run dev` follows every way files change, through the real process: a write in place, a save that
 * renames a temporary file over the old one (editors' "atomic" saves, `sed -i`), and later saves of the same
 * file after that (a watch on the file itself goes deaf there); editors' temporary and swap files, which start
 * no rebuild; a delete; a folder renamed away and back; and a `git checkout` of a thousand files, which is one
 * rebuild with the right result, as is any change made while git holds its index lock.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

type Json = Record<string, any>;
let child: ChildProcess;
let output = '';
let base = '';
let content = '';
const REBUILT = /[^\n]*: rebuilt in \d+ ms, \d+ of \d+ files changed[^\n]*\n/g;

const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.test', '-c', 'commit.gpgsign=false', ...args], {
    cwd: content,
    encoding: 'utf8',
  });

async function until<T>(what: string, test: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  for (const deadline = Date.now() + ms; ; ) {
    // A keep-alive connection the server closed as a request was sent on it is the client's race: ask again.
    const value = await Promise.resolve()
      .then(test)
      .catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const title = async (id: string) => {
  const response = await fetch(`${base}/v1/services/get?id=${id}`);
  return response.status === 200 ? ((await response.json()) as Json).data.title : response.status;
};
const servedTitle = (id: string, expected: string | number) =>
  until(`${id} served as ${expected}`, async () => (await title(id)) === expected);
const rebuilds = () => output.match(REBUILT)?.length ?? 0;
const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const seo = () => path.join(content, 'services', 'seo-audit.md');
const retitle = (text: string, to: string) => text.replace(/^title: .*$/m, `title: ${to}`);
let markers = 0;
/**
 * Waits until every change made so far has been built: rebuilds run one after another, so once an edit made
 * now is served, no earlier one is still to come.
 */
async function settled(): Promise<void> {
  const marker = `Marker ${++markers}`;
  writeFileSync(seo(), retitle(readFileSync(seo(), 'utf8'), marker));
  await servedTitle('technical-seo-audit', marker);
  await quiet(300);
}

beforeAll(async () => {
  content = fixtureDir('valid');
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'content');
  child = spawn(
    process.execPath,
    ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', path.join(tempDir('watch'), '.dev')],
    {
      env: { ...process.env, PORT: '0', SOURCE_DATE_EPOCH: '1795000000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  base = await until('npm run dev', () => /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1], 40_000);
}, 60_000);

afterAll(async () => {
  child.kill('SIGTERM');
  await once(child, 'exit');
  removeFixtureDirs();
  removeBuildDirs();
});

describe('the dev watcher', () => {
  it('follows a write in place', async () => {
    writeFileSync(seo(), retitle(readFileSync(seo(), 'utf8'), 'Written in place'));
    await servedTitle('technical-seo-audit', 'Written in place');
  });

  it('follows a temporary file renamed over the old one, and every save after it', async () => {
    const temporary = path.join(content, 'services', '.seo-audit.md.tmp');
    writeFileSync(temporary, retitle(readFileSync(seo(), 'utf8'), 'Saved atomically'));
    renameSync(temporary, seo());
    await servedTitle('technical-seo-audit', 'Saved atomically');
    writeFileSync(seo(), retitle(readFileSync(seo(), 'utf8'), 'Saved in place after'));
    await servedTitle('technical-seo-audit', 'Saved in place after');
    execFileSync('sed', ['-i', 's/^title: .*$/title: Saved by sed/', seo()]);
    await servedTitle('technical-seo-audit', 'Saved by sed');
    execFileSync('sed', ['-i', 's/^title: .*$/title: Saved by sed again/', seo()]);
    await servedTitle('technical-seo-audit', 'Saved by sed again');
  });

  it("starts no rebuild for editors' temporary and swap files", async () => {
    await settled();
    const before = rebuilds();
    for (const name of ['.seo-audit.md.swp', 'seo-audit.md~', '4913', '.#seo-audit.md', '#seo-audit.md#', 'seo-audit.md.crswap']) {
      writeFileSync(path.join(content, 'services', name), 'scratch');
      rmSync(path.join(content, 'services', name));
    }
    await quiet(600);
    expect(rebuilds()).toBe(before);
  });

  it('follows a delete, and a folder renamed away and back', async () => {
    const file = path.join(content, 'services', 'gone.md');
    writeFileSync(file, retitle(readFileSync(seo(), 'utf8'), 'To be deleted').replace(/^id: .*\n/m, ''));
    await servedTitle('gone', 'To be deleted');
    rmSync(file);
    await servedTitle('gone', 404);
    const services = path.join(content, 'services');
    renameSync(services, `${services}-away`);
    await until(
      'the services gone',
      async () => ((await (await fetch(`${base}/v1/services/list`)).json()) as Json).meta?.pagination?.total === 0,
    );
    const title = /^title: (.*)$/m.exec(readFileSync(path.join(`${services}-away`, 'seo-audit.md'), 'utf8'))![1]!;
    renameSync(`${services}-away`, services);
    await servedTitle('technical-seo-audit', title);
    writeFileSync(seo(), retitle(readFileSync(seo(), 'utf8'), 'Inside the folder renamed back'));
    await servedTitle('technical-seo-audit', 'Inside the folder renamed back');
  });

  it('makes one rebuild, with the right result, of a git checkout of a thousand files', async () => {
    git('add', '-A');
    git('commit', '-q', '-m', 'edits');
    git('checkout', '-q', '-b', 'many');
    const article = readFileSync(path.join(content, 'intelligence', 'rag-evaluation.md'), 'utf8');
    for (let index = 0; index < 1000; index++) {
      writeFileSync(path.join(content, 'intelligence', `bulk-${index}.md`), retitle(article, `Bulk article ${index}`));
    }
    git('add', '-A');
    git('commit', '-q', '-m', 'a thousand articles');
    git('checkout', '-q', 'main');
    await until('the articles gone', async () => {
      const list = (await (await fetch(`${base}/v1/intelligence/list?limit=1`)).json()) as Json;
      return list.meta?.pagination?.total === 2;
    });
    await settled();
    const before = rebuilds();
    const from = output.length;
    git('checkout', '-q', 'many');
    await until('the articles served', async () => {
      const list = (await (await fetch(`${base}/v1/intelligence/list?limit=1`)).json()) as Json;
      return list.meta?.pagination?.total === 1002;
    });
    await quiet(1000);
    expect(rebuilds() - before, output.slice(from)).toBe(1);
    expect(output.slice(from)).toMatch(/1000 files changed: rebuilt/);
  }, 120_000);

  it('waits while git holds its index lock, however long the gaps between its writes', async () => {
    await settled();
    const before = rebuilds();
    const lock = path.join(content, '.git', 'index.lock');
    writeFileSync(lock, '');
    const article = readFileSync(path.join(content, 'intelligence', 'rag-evaluation.md'), 'utf8');
    for (const index of [0, 1, 2]) {
      writeFileSync(path.join(content, 'intelligence', `locked-${index}.md`), retitle(article, `Locked ${index}`));
      await quiet(400);
    }
    expect(rebuilds()).toBe(before);
    rmSync(lock);
    await until('the locked articles served', async () => (await fetch(`${base}/v1/intelligence/get?id=locked-2`)).status === 200);
    await quiet(500);
    expect(rebuilds() - before).toBe(1);
  }, 60_000);
});
