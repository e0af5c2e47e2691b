/**
 * What a first search spends compiling our JavaScript, from the engine's own log: in a fresh Deno isolate,
 * the functions compiled lazily once the search has begun (first called then: parsed in full and turned
 * into bytecode), with the engine's time for each step, and the same search with the engine told to
 * compile every function when its module loads (`--no-lazy`, a measurement only: the edge takes no engine
 * flags), beside the default: the search's CPU and the whole process's (its modules' load and the search).
 * This bounds what any eager-compile hint could save: compiling at load moves the work out of the search,
 * but the isolate's first request still pays it.
 * Over an index that bench/search.ts built and kept:
 * `npx tsx bench/search-compiles.ts <folder>/100000 [runs] [queries...]`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DENO, FIRST_QUERIES, median } from './search.ts';

const DENO_SCRIPT = fileURLToPath(new URL('./search-deno.ts', import.meta.url));
/** The search's own function (search.ts): its first call starts the window counted. */
const SEARCH_START = 'rankOnce';

interface FunctionEvent {
  kind: string;
  script: string;
  at: string;
  ms: number;
  time: number;
  name: string;
}

/** One fresh isolate's first search of `q` with engine `flags`: the search's CPU and the process's. */
function firstSearch(dir: string, q: string, flags: string[]) {
  const args = [DENO, 'run', '--allow-read', '--allow-env', '--allow-write', '--no-prompt'];
  const child = spawnSync(process.execPath, [...args, `--v8-flags=${flags.join(',')}`, DENO_SCRIPT, 'first', dir, q], {
    encoding: 'utf8',
  });
  if (child.status !== 0) throw new Error(`deno first failed: ${child.stderr}`);
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as { cpuMs: number; processCpuMs: number };
}

/** The log's function events (`function,<kind>,<script>,<start>,<end>,<ms>,<time>,<name>`) and scripts' names. */
function readLog(file: string) {
  const scripts = new Map<string, string>();
  const events: FunctionEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const f = line.split(',');
    if (f[0] === 'script-details') scripts.set(f[1]!, f[2]!);
    else if (f[0] === 'function')
      events.push({ kind: f[1]!, script: f[2]!, at: `${f[2]}:${f[3]}`, ms: Number(f[5]), time: Number(f[6]), name: f.slice(7).join(',') });
  }
  return { scripts, events };
}

/**
 * Functions compiled lazily during the search, and the engine's ms for it: the product's (its modules and
 * their packages, not the bench's) and the runtime's own (Deno's built-in modules the search calls first).
 */
function lazyCompiles(file: string) {
  const { scripts, events } = readLog(file);
  const start = events.find((event) => event.name === SEARCH_START && event.kind.startsWith('first-execution'))?.time;
  if (start === undefined) throw new Error(`the engine's log has no call of ${SEARCH_START}`);
  const compiled = events.filter((event) => event.time >= start && (event.kind === 'parse-function' || event.kind === 'interpreter'));
  const count = (keep: (url: string) => boolean) => {
    const mine = compiled.filter((event) => keep(scripts.get(event.script) ?? ''));
    return { functions: new Set(mine.map((event) => event.at)).size, ms: mine.reduce((sum, event) => sum + event.ms, 0) };
  };
  return {
    product: count((url) => url.startsWith('file:') && !url.includes('/bench/')),
    runtime: count((url) => !url.startsWith('file:')),
  };
}

export function searchCompiles(dir: string, runs: number, queries: readonly string[]): void {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'search-compiles-'));
  const log = path.join(scratch, 'v8.log');
  console.log(`\nJavaScript compiled lazily during a first search (${dir}; median of ${runs} fresh Deno isolates each):\n`);
  console.log(
    "| query | product's functions compiled / engine's time | runtime's | search CPU ms, lazy / --no-lazy | process CPU ms (load and search), lazy / --no-lazy |",
  );
  console.log('|---|---:|---:|---:|---:|');
  try {
    for (const q of queries) {
      const compiles = Array.from({ length: runs }, () => {
        firstSearch(dir, q, ['--log-function-events', `--logfile=${log}`, '--no-logfile-per-isolate']);
        return lazyCompiles(log);
      });
      const lazy: { cpuMs: number; processCpuMs: number }[] = [];
      const eager: typeof lazy = [];
      for (let run = 0; run < runs; run++) {
        lazy.push(firstSearch(dir, q, ['--expose-gc']));
        eager.push(firstSearch(dir, q, ['--expose-gc', '--no-lazy']));
      }
      const compiled = (side: 'product' | 'runtime') =>
        `${median(compiles.map((c) => c[side].functions))} / ${median(compiles.map((c) => c[side].ms)).toFixed(1)} ms`;
      const cell = (key: 'cpuMs' | 'processCpuMs') =>
        `${median(lazy.map((run) => run[key])).toFixed(1)} / ${median(eager.map((run) => run[key])).toFixed(1)}`;
      console.log(`| "${q}" | ${compiled('product')} | ${compiled('runtime')} | ${cell('cpuMs')} | ${cell('processCpuMs')} |`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, runs, ...queries] = process.argv.slice(2);
  searchCompiles(dir!, Number(runs ?? 5), queries.length > 0 ? queries : FIRST_QUERIES);
}
