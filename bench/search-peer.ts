/**
 * Our static search beside Pagefind, the tool a static site would pick instead, on the same documents in the
 * same run: content/'s records plus N synthetic distractor articles (test/helpers/synthetic-articles.ts,
 * `DISTRACTORS` chooses their style). Ours: the index bench/search.ts builds, searched by the edge handler's
 * search under Deno (bench/search-deno.ts). Pagefind: its own command over the build's record pages and a page
 * of the same shape per synthetic article (bench/search-peer-site.ts), searched by its own pagefind.js and
 * WebAssembly under Deno (bench/search-peer-deno.ts). Relevance (the classes and scoring of
 * bench/search-relevance.ts) and cost (build, index, first query, warm queries) side by side, with ratios.
 *
 * Run with `npx tsx bench/search-peer.ts [docs...]` (default 0 and 10,000; 100,000 takes minutes and GBs).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSearchDocuments } from '../test/helpers/search-documents.ts';
import { createDocuments, createQueries, distractorStyle } from '../test/helpers/synthetic-articles.ts';
import { buildIndex, DENO, denoScratch, FIRST_QUERIES, median, percentile, runIn, WARM_QUERIES } from './search.ts';
import { buildContentPages, buildPagefind, type PeerBuild, writePeerSite } from './search-peer-site.ts';
import { printPeerRows } from './search-peer-report.ts';
import { measureClasses, type Relevance } from './search-relevance.ts';

const CONTENT_DIR = fileURLToPath(new URL('../content', import.meta.url));
const PEER_SCRIPT = fileURLToPath(new URL('./search-peer-deno.ts', import.meta.url));
/** Fresh instances per first-query figure, each engine in turn (the median is kept). */
const COLD_RUNS = 3;
const ROUNDS = '3';

/** What one engine measured at one size; `load` is the 1-minute load average as each part began. */
export interface EngineFigures {
  relevance: Relevance;
  /** Per first query, the median of COLD_RUNS fresh instances. */
  first: { cpuMs: number[]; wallMs: number[]; bytes: number[] };
  warm: { p50: number; p99: number };
  load: { build: number; first: number; warm: number };
}

export interface PeerRow {
  docs: number;
  style: string;
  ours: EngineFigures & { build: { buildMs: number; peakRssMb: number; files: number; mb: number } };
  peerBuild: PeerBuild & { load: number };
  /** Pagefind's searches; none when its build was stopped at the memory cap. */
  peer?: EngineFigures & { scriptBytes: number };
}

/** One fresh Deno process running Pagefind's search (search-peer-deno.ts); its JSON line. */
function runPeer(args: string[]): Record<string, number> & { medians?: number[]; ids?: string[][] } {
  const child = spawnSync(process.execPath, [DENO, 'run', '--allow-read', '--no-prompt', PEER_SCRIPT, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 << 20,
  });
  if (child.status !== 0) throw new Error(`pagefind ${args[0]} failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!);
}

type Run = (args: string[]) => Record<string, number> & { medians?: number[]; ids?: string[][] };
const ourRun: Run = (args) => runIn('deno', args) as ReturnType<Run>;
const load = () => os.loadavg()[0]!;

/** Both engines' answers to every relevance class (Pagefind's unless its build was stopped), scored as bench/search-relevance.ts scores ours. */
function measureRelevance(ourDir: string, bundle: string | undefined, root: string): [Relevance, Relevance | undefined] {
  const rankWith = (run: Run, dir: string) => (queries: { q: string; type: string }[]) => {
    const file = path.join(root, 'relevance-queries.json');
    writeFileSync(file, JSON.stringify(queries));
    return run(['rank', dir, file]).ids!;
  };
  return [measureClasses(ourDir, rankWith(ourRun, ourDir)), bundle ? measureClasses(ourDir, rankWith(runPeer, bundle)) : undefined];
}

/** First queries, each in fresh instances of both engines in turn; then warm queries, one engine after the other. */
function measureSpeed(ourDir: string, bundle: string | undefined, root: string) {
  const firsts = { ours: [] as ReturnType<Run>[][], peer: [] as ReturnType<Run>[][] };
  const loads = { first: load(), warm: 0 };
  for (const q of FIRST_QUERIES) {
    const ours: ReturnType<Run>[] = [];
    const peer: ReturnType<Run>[] = [];
    for (let run = 0; run < COLD_RUNS; run++) {
      ours.push(ourRun(['first', ourDir, q]));
      if (bundle) peer.push(runPeer(['first', bundle, q]));
    }
    firsts.ours.push(ours);
    firsts.peer.push(peer);
  }
  const first = (runs: ReturnType<Run>[][]) => ({
    cpuMs: runs.map((list) => median(list.map((run) => run.cpuMs!))),
    wallMs: runs.map((list) => median(list.map((run) => run.wallMs!))),
    bytes: runs.map((list) => list[0]!.bytesRead!),
  });
  const queriesFile = path.join(root, 'queries.json');
  writeFileSync(queriesFile, JSON.stringify(createQueries(WARM_QUERIES)));
  loads.warm = load();
  const warm = (run: Run, dir: string) => {
    const medians = run(['warm', dir, queriesFile, ROUNDS]).medians!;
    return { p50: percentile(medians, 0.5), p99: percentile(medians, 0.99) };
  };
  return {
    ours: { first: first(firsts.ours), warm: warm(ourRun, ourDir) },
    peer: bundle ? { first: first(firsts.peer), warm: warm(runPeer, bundle), scriptBytes: firsts.peer[0]![0]!.scriptBytes! } : undefined,
    loads,
  };
}

async function measureSize(docs: number, dist: string, root: string): Promise<PeerRow> {
  const ourDir = path.join(root, 'ours');
  const site = path.join(root, 'site');
  const bundle = path.join(root, 'pagefind');
  const ourLoad = load();
  const ourBuild = buildIndex(docs, ourDir);
  writePeerSite(dist, await loadSearchDocuments(CONTENT_DIR), createDocuments(docs, distractorStyle()), site);
  const peerLoad = load();
  const peerBuild = await buildPagefind(site, bundle);
  rmSync(site, { recursive: true, force: true });
  const searched = peerBuild.stopped ? undefined : bundle;
  const [ourRelevance, peerRelevance] = measureRelevance(ourDir, searched, root);
  const { ours, peer, loads } = measureSpeed(ourDir, searched, root);
  rmSync(ourDir, { recursive: true, force: true });
  rmSync(bundle, { recursive: true, force: true });
  return {
    docs,
    style: distractorStyle(),
    ours: { build: ourBuild, relevance: ourRelevance, ...ours, load: { build: ourLoad, ...loads } },
    peerBuild: { ...peerBuild, load: peerLoad },
    peer: peer && peerRelevance && { relevance: peerRelevance, ...peer, load: { build: peerLoad, ...loads } },
  };
}

export async function benchSearchPeer(sizes: number[] = [0, 10_000]): Promise<PeerRow[]> {
  console.log(`\n## Static search beside Pagefind (distractors: ${distractorStyle()})\n`);
  const root = denoScratch('bench-search-peer-');
  try {
    const dist = path.join(root, 'dist');
    mkdirSync(dist);
    buildContentPages(CONTENT_DIR, dist);
    const rows: PeerRow[] = [];
    for (const docs of sizes) rows.push(await measureSize(docs, dist, root));
    printPeerRows(rows);
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n >= 0);
  await benchSearchPeer(sizes.length ? sizes : undefined);
}
