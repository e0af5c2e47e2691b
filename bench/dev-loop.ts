/**
 * The editors' loop through the real `npm run dev`:
 * - edits of an article's title, from the save to the first answer of the get route with the new title, with
 *   search asked at once for a word only the new title has (it must answer that article, first): p50 and
 *   max, and how many edits search agreed on;
 * - the dev server's throughput under autocannon, alone and while a file is saved every second.
 */
import './without-vectors.ts';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { chunkPath } from '../generator/shared/data-paths.ts';

const ENV = { SOURCE_DATE_EPOCH: '1795000000' };
/** How long an edit may take to be served, and one request to be answered, before the bench says so and stops. */
const EDIT_DEADLINE_MS = 10 * 60_000;
const ANSWER_DEADLINE_MS = 60_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface Dev {
  url: string;
  child: ChildProcess;
  /** Milliseconds from the start of the command to its first build served, and to its ready line (after the builder's warm-up). */
  firstMs: number;
  startedMs: number;
  /** What it has printed so far. */
  output(): string;
  stop(): Promise<void>;
}

/** `npm run dev` on `content`, on a free port; resolves once it serves its first build. */
export async function startDev(content: string, out: string): Promise<Dev> {
  const started = performance.now();
  const child = spawn(process.execPath, ['generator/launch.mjs', 'server/dev.ts', '--content', content, '--out', out], {
    env: { ...process.env, ...ENV, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  let firstMs = Number.NaN;
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data) => {
      output += data;
      if (process.env.BENCH_EACH) process.stdout.write(`  [dev] ${String(data).trimEnd().replaceAll('\n', '\n  [dev] ')}\n`);
      if (Number.isNaN(firstMs) && output.includes('first build: built')) firstMs = performance.now() - started;
      const match = /Serving .* at (http:\/\/127\.0\.0\.1:\d+)\//.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', () => reject(new Error(`npm run dev ended: ${output}`)));
  });
  const startedMs = performance.now() - started;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // A dev server that does not end on SIGTERM is said, and ended.
    const timer = setTimeout(() => {
      console.error('npm run dev did not end within 10 s of SIGTERM; killed');
      child.kill('SIGKILL');
    }, 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, child, firstMs, startedMs, stop, output: () => output };
}

/**
 * The CPU time the dev process has used, in milliseconds (Linux's /proc, in ticks of 10 ms); undefined elsewhere.
 * On a loaded machine the wall time of an edit is mostly waiting: its CPU time says what the edit cost.
 */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The resident memory of the dev process, in megabytes (Linux's /proc); undefined elsewhere. */
function rssMbOf(pid: number | undefined): number | undefined {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return undefined;
  }
}

/** Edits article `slug`'s title `count` times; the figures of each edit. */
export async function timeTitleEdits(
  dev: Dev,
  content: string,
  slugs: string[],
): Promise<{ ms: number[]; cpuMs: number[]; searchAgreed: number; loadBefore: number }> {
  const loadBefore = os.loadavg()[0]!;
  const ms: number[] = [];
  const cpuMs: number[] = [];
  let searchAgreed = 0;
  for (const [index, slug] of slugs.entries()) {
    const file = path.join(content, 'intelligence', `${slug}.md`);
    const word = `zeditword${index}x${Date.now().toString(36)}`;
    const title = `Edited ${word} title`;
    const text = readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: ${title}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = performance.now();
    const cpuBefore = cpuMsOf(dev.child.pid);
    writeFileSync(file, text);
    for (const deadline = started + EDIT_DEADLINE_MS; ; ) {
      if (performance.now() > deadline) throw new Error(`${slug}: the new title was not served within ${EDIT_DEADLINE_MS / 1000} s`);
      // A server that stops answering is said, not waited for without end.
      const response = await fetch(`${dev.url}/v1/intelligence/get?id=${slug}`, { signal: AbortSignal.timeout(ANSWER_DEADLINE_MS) });
      if (response.ok && ((await response.json()) as { data?: { title?: string } }).data?.title === title) break;
    }
    ms.push(performance.now() - started);
    if (process.env.BENCH_EACH) {
      console.log(
        `  edit ${index}: ${(performance.now() - started).toFixed(0)} ms; dev process ${rssMbOf(dev.child.pid)?.toFixed(0)} MB resident`,
      );
    }
    const cpuAfter = cpuMsOf(dev.child.pid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) cpuMs.push(cpuAfter - cpuBefore);
    const search = (await (await fetch(`${dev.url}/v1/search?q=${word}`, { signal: AbortSignal.timeout(ANSWER_DEADLINE_MS) })).json()) as {
      data?: { slug?: string }[];
    };
    if (search.data?.[0]?.slug === slug) searchAgreed++;
  }
  return { ms, cpuMs, searchAgreed, loadBefore };
}

export function formatEdits(
  articles: number,
  edits: { ms: number[]; cpuMs: number[]; searchAgreed: number; loadBefore?: number },
  goal: { p50: number; max?: number },
): string {
  const p50 = median(edits.ms);
  const max = Math.max(...edits.ms);
  const met = p50 < goal.p50 && (goal.max === undefined || max < goal.max);
  return (
    `title edit -> served by the get route, ${articles.toLocaleString('en')} articles, through npm run dev (${edits.ms.length} edits): ` +
    `p50 ${p50.toFixed(0)} ms, max ${max.toFixed(0)} ms (goal p50 < ${goal.p50} ms${goal.max ? `, max < ${goal.max} ms` : ''}) ${met ? 'ok' : 'MISSED'}; ` +
    `search answered the edited word with that article first in ${edits.searchAgreed} of ${edits.ms.length}` +
    (edits.cpuMs.length
      ? `; CPU time of the dev process per edit (its builder and server, save to served) p50 ${median(edits.cpuMs)} ms, max ${Math.max(...edits.cpuMs)} ms`
      : '') +
    `; load average ${edits.loadBefore === undefined ? '' : `${edits.loadBefore.toFixed(1)} at the first edit, `}${os.loadavg()[0]!.toFixed(1)} at the last`
  );
}

/**
 * The dev server's throughput under autocannon, alone and while a file is saved every second. Quiet and busy
 * windows alternate, so the machine's drift falls on both alike. The page is a precomputed list chunk.
 */
export async function benchDevUnderRebuilds(dev: Dev, content: string, seconds = 5, rounds = 3): Promise<string> {
  const load = async () => {
    const result = await autocannon({ url: `${dev.url}/${chunkPath('intelligence/list', [], 0)}`, connections: 16, duration: seconds });
    return { requests: result.requests.total, failed: result.non2xx + result.errors };
  };
  const file = path.join(content, 'intelligence', 'article-3.md');
  const original = readFileSync(file, 'utf8');
  const totals = { quiet: 0, busy: 0, failed: 0, saves: 0 };
  try {
    await load();
    for (let round = 0; round < rounds; round++) {
      const quiet = await load();
      const timer = setInterval(() => writeFileSync(file, `${original}\nSaved ${++totals.saves}.\n`), 1000);
      const busy = await load().finally(() => clearInterval(timer));
      totals.quiet += quiet.requests;
      totals.busy += busy.requests;
      totals.failed += quiet.failed + busy.failed;
    }
  } finally {
    writeFileSync(file, original);
  }
  const ratio = totals.busy / totals.quiet;
  const rate = (requests: number) => (requests / (seconds * rounds)).toFixed(0);
  return `dev server under autocannon (16 connections, ${rounds} quiet and ${rounds} busy windows of ${seconds} s, alternating): ${rate(totals.quiet)} requests/s alone, ${rate(totals.busy)} while a file is saved every second (${totals.saves} saves); ${(ratio * 100).toFixed(0)}% (goal >= 90%) ${ratio >= 0.9 ? 'ok' : 'MISSED'}; failed responses ${totals.failed}`;
}

/** The dev figures at one size: edits (p50/max goals), and throughput when asked. */
export async function benchDevLoop(
  content: string,
  out: string,
  options: { articles: number; edits: number; goal: { p50: number; max?: number }; throughput?: boolean },
): Promise<void> {
  const dev = await startDev(content, out);
  try {
    console.log(
      `npm run dev, ${options.articles.toLocaleString('en')} articles: first build served ${(dev.firstMs / 1000).toFixed(1)} s after the command started, ready for edits (warmed) after ${(dev.startedMs / 1000).toFixed(1)} s`,
    );
    const slugs = Array.from({ length: options.edits }, (_, index) => `article-${((index * 37 + 11) % options.articles) + 1}`);
    const from = dev.output().length;
    console.log(formatEdits(options.articles, await timeTitleEdits(dev, content, slugs), options.goal));
    // What the builds took inside dev (its own one line per rebuild), beside the whole loop.
    const builds = [
      ...dev
        .output()
        .slice(from)
        .matchAll(/rebuilt in (\d+) ms, (\d+) of (\d+) files changed(?:, (\d+) ms of CPU)?/g),
    ];
    if (builds.length) {
      const ms = builds.map((match) => Number(match[1]));
      const changed = builds.map((match) => Number(match[2]));
      const cpu = builds.filter((match) => match[4] !== undefined).map((match) => Number(match[4]));
      const cpuText = cpu.length ? `; its CPU time p50 ${median(cpu)} ms, max ${Math.max(...cpu)} ms` : '';
      console.log(
        `  of which the rebuild itself (dev's own report, ${builds.length} rebuilds): p50 ${median(ms)} ms, max ${Math.max(...ms)} ms; files changed per edit p50 ${median(changed)} of ${builds[0]![3]}${cpuText}`,
      );
      // Each edit in order beside its rebuild, so that an outlier can be told from the rebuild's own.
      if (process.env.BENCH_EACH) console.log(`  each rebuild: ${ms.map((value, i) => `${value}/${cpu[i] ?? '-'}`).join(' ')}`);
    }
    if (options.throughput) console.log(await benchDevUnderRebuilds(dev, content));
  } finally {
    await dev.stop();
  }
}

/** `npx tsx bench/dev-loop.ts [articles]`: the dev figures alone, on synthetic content of that size (4,000 by default). */
async function main(articles: number): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { writeSyntheticContent } = await import('../test/helpers/synthetic-content.ts');
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-dev-'));
  try {
    const content = path.join(root, 'content');
    await writeSyntheticContent(content, { articles });
    const goal = articles > 20_000 ? { p50: 1000 } : { p50: 300, max: 600 };
    await benchDevLoop(content, path.join(root, 'dev'), {
      articles,
      edits: articles > 20_000 ? 5 : 20,
      goal,
      throughput: articles <= 20_000,
    });
  } catch (error) {
    // Said at once: removing 100,000 articles and their build takes minutes on a busy machine, and an error
    // left to be printed after that looked like a bench that printed nothing.
    console.error(`dev-loop bench stopped: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(Number(process.argv[2] ?? 4000));
