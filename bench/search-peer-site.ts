/**
 * Pagefind's side of the static-search comparison (bench/search-peer.ts): the same documents as our index, as
 * the HTML pages Pagefind is made to index (content/'s own record pages from a build of content/, and a page
 * of the same shape for each synthetic article), and Pagefind's own command run over them, with its figures.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import type { SearchDocument } from '../generator/search/index-format.ts';
import { ROOT_SELECTOR, syntheticPage, syntheticPagePath, withTypeFilter } from './search-peer-pages.ts';

const REPOSITORY = fileURLToPath(new URL('..', import.meta.url));
/** Pagefind's binary, as its npm package finds it (the platform package it depends on). */
const PAGEFIND = (() => {
  const require = createRequire(import.meta.url);
  return require.resolve(`@pagefind/${process.platform}-${process.arch}/bin/pagefind_extended`);
})();
/** Files of Pagefind's bundle that a search never loads: its prebuilt interfaces and their styles. */
const INTERFACE_FILES = /^pagefind-(ui|component-ui|modular-ui|highlight)\.|^pagefind-worker\.js$/;

/** The build of `contentDir` into `dist` (no vectors: the comparison is of the word index), for its record pages. */
export function buildContentPages(contentDir: string, dist: string): void {
  const build = spawnSync(process.execPath, ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', contentDir, '--out', dist], {
    cwd: REPOSITORY,
    encoding: 'utf8',
    env: { ...process.env, SEMANTIC_SEARCH: 'off' },
  });
  if (build.status !== 0) throw new Error(`the build of ${contentDir} failed: ${build.stderr}`);
}

/**
 * The site Pagefind indexes, in `site`: the built record page of each of `records` (found in `dist` by type
 * and slug, whatever its fan-out folder) and a page for each synthetic document.
 */
export function writePeerSite(dist: string, records: readonly SearchDocument[], synthetic: readonly SearchDocument[], site: string): void {
  const write = (file: string, page: string) => {
    mkdirSync(path.dirname(path.join(site, file)), { recursive: true });
    writeFileSync(path.join(site, file), page);
  };
  for (const { id } of records) {
    const [type, slug] = id.split(':') as [string, string];
    const [page] = fg.sync(`${type}/*/${slug}/index.html`, { cwd: dist });
    if (!page) throw new Error(`no built page for ${id} in ${dist}`);
    write(page, withTypeFilter(readFileSync(path.join(dist, page), 'utf8'), id));
  }
  for (const document of synthetic) write(syntheticPagePath(document.id), syntheticPage(document));
}

export interface PeerBuild {
  buildMs: number;
  /** The command's peak resident memory (its high-water mark, sampled every SAMPLE_MS). */
  peakRssMb: number;
  /** What a search may load (the script, its WebAssembly, metadata, index, filter and fragment files). */
  files: number;
  mb: number;
  /** Its whole bundle, the prebuilt search interfaces included. */
  bundleFiles: number;
  bundleMb: number;
  /** Set when the command was stopped at the memory cap: the last step it had begun, as it logs them. */
  stopped?: string;
}

const SAMPLE_MS = 100;
/** `PAGEFIND_MAX_RSS_MB`: Pagefind is stopped past this resident memory (default 6 GB; the machine is shared). */
const MAX_RSS_MB = Number(process.env.PAGEFIND_MAX_RSS_MB ?? 6144);

/** A field of /proc/PID/status in MB, or 0 once the process is gone. */
function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  try {
    const line = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The bundle's files, and which of them a search may load. */
function measureBundle(out: string): Pick<PeerBuild, 'files' | 'mb' | 'bundleFiles' | 'bundleMb'> {
  const sizes = readdirSync(out, { recursive: true, encoding: 'utf8' })
    .map((file) => ({ file, stats: statSync(path.join(out, file)) }))
    .filter(({ stats }) => stats.isFile());
  const search = sizes.filter(({ file }) => !INTERFACE_FILES.test(path.basename(file)));
  const megabytes = (list: typeof sizes) => list.reduce((sum, { stats }) => sum + stats.size, 0) / 1024 / 1024;
  return { files: search.length, mb: megabytes(search), bundleFiles: sizes.length, bundleMb: megabytes(sizes) };
}

/** Pagefind's command over `site`, writing its bundle to `out`: its time, peak memory and output, or where it stopped. */
export async function buildPagefind(site: string, out: string): Promise<PeerBuild> {
  const started = performance.now();
  const child = spawn(PAGEFIND, ['--site', site, '--output-path', out, '--root-selector', ROOT_SELECTOR], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (chunk) => (log += chunk));
  child.stderr.on('data', (chunk) => (log += chunk));
  let peakRssMb = 0;
  let stopped: string | undefined;
  const sampler = setInterval(() => {
    peakRssMb = Math.max(peakRssMb, statusMb(child.pid!, 'VmHWM'));
    if (!stopped && statusMb(child.pid!, 'VmRSS') > MAX_RSS_MB) {
      stopped = [...log.matchAll(/\[([A-Z][^\]]*)\]/g)].pop()?.[1] ?? 'starting';
      child.kill('SIGKILL');
    }
  }, SAMPLE_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const buildMs = performance.now() - started;
  if (stopped) return { buildMs, peakRssMb, files: 0, mb: 0, bundleFiles: 0, bundleMb: 0, stopped };
  if (code !== 0) throw new Error(`pagefind failed: ${log}`);
  return { buildMs, peakRssMb, ...measureBundle(out) };
}
