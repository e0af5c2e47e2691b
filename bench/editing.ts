/**
 * The editors' loop and Hugo, side by side on the same 4,000 synthetic articles:
 * - a cold build (fresh process, no previous output), the whole command as a person runs it;
 * - Hugo's build of the same Markdown files (Debian's hugo package, installed for this benchmark only when
 *   missing; the tests never need it), best of three, and the ratio;
 * - a second build with nothing changed (fresh process, the previous output in place);
 * - 20 one-file edits of different kinds, each rebuilt as `npm run dev` rebuilds (in process), p50 and max;
 * - the dev server's throughput under load, alone and while a file is saved every second;
 * - at 20,000 articles, one cold build with its peak memory beside one Hugo build.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite } from '../generator/pipeline/build-site.ts';
import { createBuildCache } from '../generator/pipeline/build-cache.ts';
import { pagePath } from '../generator/shared/data-paths.ts';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';

const ARTICLES = 4000;
const ENV = { SOURCE_DATE_EPOCH: '1795000000' };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The whole command, fresh process: `npm run build` as a person runs it. */
function timeBuildCommand(content: string, out: string): number {
  const started = performance.now();
  execFileSync(process.execPath, ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', out], {
    env: { ...process.env, ...ENV },
    stdio: 'ignore',
  });
  return performance.now() - started;
}

const clean = (out: string) => {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}.digests.json`, { force: true });
};

/** Hugo on the PATH, installing Debian's package when it is missing; null when it cannot be had. */
function findHugo(): string | null {
  if (spawnSync('hugo', ['version']).status === 0) return 'hugo';
  const install = spawnSync(
    'bash',
    ['-c', 'apt-get install -y -qq hugo >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq hugo)'],
    {
      stdio: 'ignore',
    },
  );
  return install.status === 0 && spawnSync('hugo', ['version']).status === 0 ? 'hugo' : null;
}

/** A Hugo site over the same Markdown files: each record rendered to a page, each collection listed. */
function createHugoSite(content: string, site: string): void {
  for (const collection of ['services', 'expertise', 'technology', 'intelligence', 'resources']) {
    mkdirSync(path.join(site, 'content', collection), { recursive: true });
    for (const name of readdirSync(path.join(content, collection)).filter((file) => file.endsWith('.md'))) {
      cpSync(path.join(content, collection, name), path.join(site, 'content', collection, name));
    }
  }
  mkdirSync(path.join(site, 'layouts', '_default'), { recursive: true });
  writeFileSync(
    path.join(site, 'hugo.toml'),
    "baseURL = 'https://example.test/'\ndisableKinds = ['taxonomy', 'term', 'RSS', 'sitemap', 'robotsTXT']\n",
  );
  writeFileSync(path.join(site, 'layouts', '_default', 'single.html'), '<h1>{{ .Title }}</h1>{{ .Content }}');
  writeFileSync(
    path.join(site, 'layouts', '_default', 'list.html'),
    '<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul>',
  );
}

function timeHugo(hugo: string, site: string): number {
  const started = performance.now();
  const run = spawnSync(hugo, ['--quiet', '--source', site, '--destination', path.join(site, 'public'), '--cleanDestinationDir'], {
    stdio: 'ignore',
  });
  if (run.status !== 0) throw new Error('hugo failed');
  return performance.now() - started;
}

/** One edit of a kind: a title, a body, a new article, a rename. */
function editOnce(content: string, index: number): void {
  const dir = path.join(content, 'intelligence');
  const file = path.join(dir, `article-${index * 7 + 1}.md`);
  switch (index % 4) {
    case 0:
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: Edited title ${index}`));
      return;
    case 1:
      writeFileSync(file, `${readFileSync(file, 'utf8')}\nOne more paragraph, edit ${index}.\n`);
      return;
    case 2:
      writeFileSync(path.join(dir, `new-${index}.md`), readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: New ${index}`));
      return;
    default:
      renameSync(file, path.join(dir, `renamed-${index}.md`));
  }
}

/** At a larger size, one cold build (whole command, with its peak memory) beside one Hugo build of the same files. */
async function compareAtScale(articles: number, root: string, outRoot: string, hugo: string | null): Promise<void> {
  const content = path.join(root, `content-${articles}`);
  await writeSyntheticContent(content, { articles });
  const out = path.join(outRoot, `dist-${articles}`);
  clean(out);
  const run = JSON.parse(
    execFileSync(process.execPath, ['--import', 'tsx', 'bench/build-once.ts', content, out], {
      encoding: 'utf8',
      env: { ...process.env, ...ENV },
    }),
  ) as { processMs: number; peakRssMb: number };
  clean(out);
  let line = `cold build of ${articles.toLocaleString('en')} articles (whole command): ${run.processMs.toFixed(0)} ms, peak ${run.peakRssMb.toFixed(0)} MB (goal < 1024 MB)`;
  if (hugo) {
    const site = path.join(root, `hugo-${articles}`);
    createHugoSite(content, site);
    const hugoMs = timeHugo(hugo, site);
    line += `; Hugo ${hugoMs.toFixed(0)} ms; ratio ${(run.processMs / hugoMs).toFixed(2)}x (goal <= 1.2x)`;
    rmSync(site, { recursive: true, force: true });
  }
  console.log(line);
  rmSync(content, { recursive: true, force: true });
}

/** `npm run dev` on `content`, on a free port; resolves once it serves. */
async function startDev(content: string, out: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', out], {
    env: { ...process.env, ...ENV, PORT: '0' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data) => {
      output += data;
      const match = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`npm run dev ended: ${output}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/**
 * The dev server's throughput under autocannon, alone and while a file is saved every second (each save a
 * rebuild, and the next request a new build's snapshot). Goal: within 10%. The page is the precomputed list
 * page as a static file: `/v1/` itself answers one client (all of autocannon) with 429s past the contract's limit.
 */
async function benchDevUnderRebuilds(content: string, outRoot: string, seconds = 10): Promise<void> {
  const dev = await startDev(content, path.join(outRoot, 'dev'));
  const load = async () => {
    const result = await autocannon({ url: `${dev.url}/${pagePath('intelligence/list', [], 0)}`, connections: 16, duration: seconds });
    return { rps: result.requests.average, failed: result.non2xx + result.errors };
  };
  try {
    await load();
    const quiet = await load();
    const file = path.join(content, 'intelligence', 'article-3.md');
    const original = readFileSync(file, 'utf8');
    let saves = 0;
    const timer = setInterval(() => writeFileSync(file, `${original}\nSaved ${++saves}.\n`), 1000);
    const busy = await load().finally(() => clearInterval(timer));
    writeFileSync(file, original);
    const ratio = busy.rps / quiet.rps;
    console.log(
      `dev server under autocannon (16 connections, ${seconds} s): ${quiet.rps.toFixed(0)} requests/s alone, ${busy.rps.toFixed(0)} while a file is saved every second (${saves} saves); ${(ratio * 100).toFixed(0)}% (goal >= 90%) ${ratio >= 0.9 ? 'ok' : 'MISSED'}; failed responses ${quiet.failed + busy.failed}`,
    );
  } finally {
    dev.stop();
  }
}

export async function benchEditing(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-editing-'));
  const outRoot = mkdtempSync(path.join(existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir(), 'bench-editing-'));
  try {
    const content = path.join(root, 'content');
    await writeSyntheticContent(content, { articles: ARTICLES });
    const out = path.join(outRoot, 'dist');
    const cold = Math.min(
      ...[0, 1, 2].map(() => {
        clean(out);
        return timeBuildCommand(content, out);
      }),
    );
    const unchanged = timeBuildCommand(content, out);
    const hugo = findHugo();
    let hugoMs: number | null = null;
    if (hugo) {
      const site = path.join(root, 'hugo');
      createHugoSite(content, site);
      hugoMs = Math.min(...[0, 1, 2].map(() => timeHugo(hugo, site)));
    }
    const edits: number[] = [];
    // As npm run dev keeps it: rendered bodies carry over from one rebuild to the next.
    const cache = createBuildCache();
    await buildSite({ contentDir: content, outDir: out, env: ENV, cache });
    for (let i = 0; i < 20; i++) {
      editOnce(content, i);
      const started = performance.now();
      await buildSite({ contentDir: content, outDir: out, env: ENV, cache });
      edits.push(performance.now() - started);
    }
    console.log(`\n## The editors' loop, ${ARTICLES.toLocaleString('en')} articles (output to memory)\n`);
    console.log(`cold build (whole command, no previous output, best of 3): ${cold.toFixed(0)} ms`);
    if (hugoMs === null) console.log('Hugo: not installed and could not be installed here; no ratio');
    else
      console.log(
        `Hugo on the same Markdown files (best of 3): ${hugoMs.toFixed(0)} ms; cold build / Hugo: ${(cold / hugoMs).toFixed(2)}x (goal <= 1.0x)`,
      );
    console.log(
      `second build, nothing changed (whole command): ${unchanged.toFixed(0)} ms, ${(unchanged / cold).toFixed(2)}x the cold build (goal < 0.1x)`,
    );
    console.log(
      `one-file edit rebuilt in process, as npm run dev does (20 edits: title, body, new file, rename): p50 ${median(edits).toFixed(0)} ms, max ${Math.max(...edits).toFixed(0)} ms (goal < 500 ms${hugoMs ? `, ${(median(edits) / hugoMs).toFixed(2)}x Hugo's full build` : ''})`,
    );
    await benchDevUnderRebuilds(content, outRoot);
    await compareAtScale(20_000, root, outRoot, hugo);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEditing();
