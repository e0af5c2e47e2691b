/**
 * The editors' loop and Hugo, side by side on the same 4,000 synthetic articles:
 * - a cold build (fresh process, no previous output), the whole command as a person runs it;
 * - Hugo's build of the same Markdown files (Debian's hugo package, installed for this benchmark only when
 *   missing; the tests never need it), best of three, and the ratio;
 * - a second build with nothing changed (fresh process, the previous output in place);
 * - the editors' loop through the real `npm run dev` (dev-loop.ts): title edits served, and throughput while a
 *   file is saved every second;
 * - at 20,000 articles, a cold build with its peak memory beside Hugo's, best of two each.
 */
import './without-vectors.ts';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';
import { benchDevLoop } from './dev-loop.ts';

const ARTICLES = 4000;
const ENV = { SOURCE_DATE_EPOCH: '1795000000' };

/** Node's own flags in `npm run build` (package.json), so the benchmark runs the command as it is. */
const BUILD_FLAGS = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { build: string } }).scripts.build
  .split(' ')
  .filter((word) => word.startsWith('--'));

/**
 * The whole command, fresh process: `npm run build` as a person runs it; its wall time and peak memory.
 * `flags`: more of Node's own, before the command (`--cpu-prof`, which Node does not take from NODE_OPTIONS).
 */
export function runBuildCommand(content: string, out: string, flags: string[] = []): { ms: number; peakMb: number } {
  const started = performance.now();
  const run = spawnSync(
    process.execPath,
    [
      ...BUILD_FLAGS,
      ...flags,
      '--import',
      './bench/peak-memory.mjs',
      'generator/launch.mjs',
      'pipeline/cli.ts',
      'build',
      '--in-place',
      '--content',
      content,
      '--out',
      out,
    ],
    { env: { ...process.env, ...ENV }, encoding: 'utf8' },
  );
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`npm run build failed: ${run.stderr}`);
  // The largest process's: a build given a larger heap runs in a child process, and both print theirs.
  const peaks = [...run.stderr.matchAll(/peak-rss-kb (\d+)/g)].map((match) => Number(match[1]));
  return { ms, peakMb: Math.max(...peaks) / 1024 };
}
const timeBuildCommand = (content: string, out: string) => runBuildCommand(content, out).ms;

const clean = (out: string) => {
  rmSync(out, { recursive: true, force: true });
  for (const record of ['digests.json', 'digests', 'build.bin', 'inputs.json', 'inputs', 'kept.bin', 'load', 'search'])
    rmSync(`${out}.${record}`, { recursive: true, force: true });
};

/** Hugo on the PATH, installing Debian's package when it is missing; null when it cannot be had. */
export function findHugo(): string | null {
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
export function createHugoSite(content: string, site: string): void {
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

/** Hugo's build from nothing, as ours is timed: its earlier output removed first (untimed). */
export function timeHugo(hugo: string, site: string): number {
  rmSync(path.join(site, 'public'), { recursive: true, force: true });
  const started = performance.now();
  const run = spawnSync(hugo, ['--quiet', '--source', site, '--destination', path.join(site, 'public')], {
    stdio: 'ignore',
  });
  if (run.status !== 0) throw new Error('hugo failed');
  return performance.now() - started;
}

/** At a larger size, a cold build (whole command, with its peak memory) beside Hugo's build of the same files, best of two each. */
async function compareAtScale(articles: number, root: string, outRoot: string, hugo: string | null): Promise<void> {
  const content = path.join(root, `content-${articles}`);
  await writeSyntheticContent(content, { articles });
  const out = path.join(outRoot, `dist-${articles}`);
  clean(out);
  // Best of two for both: one run on this shared machine can be off by half.
  const run = [0, 1]
    .map(() => {
      clean(out);
      return runBuildCommand(content, out);
    })
    .reduce((a, b) => (b.ms < a.ms ? b : a));
  clean(out);
  let line = `cold build of ${articles.toLocaleString('en')} articles (whole command): ${run.ms.toFixed(0)} ms, peak ${run.peakMb.toFixed(0)} MB (goal < 1024 MB)`;
  if (hugo) {
    const site = path.join(root, `hugo-${articles}`);
    createHugoSite(content, site);
    const hugoMs = Math.min(timeHugo(hugo, site), timeHugo(hugo, site));
    line += `; Hugo ${hugoMs.toFixed(0)} ms; ratio ${(run.ms / hugoMs).toFixed(2)}x (goal <= 1.2x)`;
    rmSync(site, { recursive: true, force: true });
  }
  console.log(line);
  rmSync(content, { recursive: true, force: true });
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
    await benchDevLoop(content, path.join(outRoot, 'dev'), {
      articles: ARTICLES,
      edits: 20,
      goal: { p50: 300, max: 600 },
      throughput: true,
    });
    await compareAtScale(20_000, root, outRoot, hugo);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outRoot, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEditing();
