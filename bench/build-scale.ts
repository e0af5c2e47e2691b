/**
 * The build at scale, as a deploy takes it, beside Hugo in the same run:
 * - a cold `npm run build` (the whole command, fresh process, no earlier output) at 4,000 and 20,000 articles
 *   against Hugo's build of the same Markdown (no earlier output either), alternating, median of three each
 *   (HUGO_RUNS), wall and CPU time, and the ratio;
 * - at 100,000 articles (or the sizes given): the cold build's time and peak memory, the output's files,
 *   bytes per article, largest folder and largest HTML page; a one-article edit rebuilt by `npm run build`
 *   with the previous output in place; and whether that output is the clean build's, file for file (by the
 *   digests both builds record, every file of both trees).
 * Usage: tsx bench/build-scale.ts [HUGO_SIZES=4000,20000] [HUGO_RUNS=3] [SCALE_SIZES=100000] [SCALE_PROFILE=dir]
 * SCALE_PROFILE: after the timed edits, one more body edit with `node --cpu-prof`, a profile per thread into dir.
 */
import './without-vectors.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type FileRecord, readPreviousOutput } from '../generator/pipeline/emit/previous-output.ts';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';
import { createHugoSite, findHugo, runBuildCommand, timeHugo } from './editing.ts';
import { createHugoSiteLikeOurs } from './hugo-like-ours.ts';

/** Sizes from a comma-separated list; set but empty (`SCALE_SIZES=`) means none, unset the fallback. */
const sizesFrom = (value: string | undefined, fallback: number[]) =>
  value !== undefined
    ? value
        .split(',')
        .map(Number)
        .filter((n) => n > 0)
    : fallback;

/** Files, bytes, the folder with the most entries and the largest HTML page of a tree. */
export function surveyTree(root: string) {
  let files = 0;
  let bytes = 0;
  let folder = { path: '', entries: 0 };
  let page = { path: '', bytes: 0 };
  const walk = (dir: string) => {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (entries.length > folder.entries) folder = { path: path.relative(root, dir) || '.', entries: entries.length };
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const size = statSync(full).size;
        files++;
        bytes += size;
        if (entry.name.endsWith('.html') && size > page.bytes) page = { path: path.relative(root, full), bytes: size };
      }
    }
  };
  walk(root);
  return { files, bytes, folder, page };
}

/** The recorded digest of every file of an output (`<out>.digests.json`), copied files by their bytes' size. */
function recordedDigests(out: string): Map<string, string> {
  const records = readPreviousOutput(path.resolve(out))?.records ?? new Map<string, FileRecord>();
  return new Map([...records].map(([file, [digest, size]]) => [file, digest === 'copied' ? `copied ${size}` : digest]));
}

function differences(left: Map<string, string>, right: Map<string, string>): string[] {
  const files = new Set([...left.keys(), ...right.keys()]);
  return [...files].filter((file) => left.get(file) !== right.get(file));
}

const BESIDE_OUTPUT = ['digests.json', 'digests', 'build.bin', 'inputs.json', 'inputs', 'kept.bin', 'load', 'search'];

const clean = (out: string) => {
  for (const file of [out, ...BESIDE_OUTPUT.map((record) => `${out}.${record}`)]) rmSync(file, { recursive: true, force: true });
};

/**
 * An earlier run's output moved out of the way rather than deleted: for about 30 s after a mass delete, the
 * kernel's ext4 skips the freed inodes when it allocates new ones, one by one, which made creating the same
 * 10,113 files and 5,949 folders cost 5 to 11 s of system time right after a delete against 0.5 s on a disk
 * with none (bench figures of 2026-11-24). A deploy's fresh machine deleted nothing, so neither build is
 * timed in a delete's wake; what was set aside is deleted once, when the bench ends.
 */
let setAsideCount = 0;
function setAside(root: string, files: string[]): void {
  const aside = path.join(root, 'set-aside', String(setAsideCount++));
  mkdirSync(aside, { recursive: true });
  // Numbered: two sites' outputs share the name `public`.
  files.forEach((file, index) => {
    if (existsSync(file)) renameSync(file, path.join(aside, `${index}-${path.basename(file)}`));
  });
}

/** CPU seconds (user and system) of the children this process has waited for, from /proc (Linux); NaN elsewhere. */
function childCpuSeconds(): number {
  try {
    // Fields 16 and 17 of /proc/self/stat (after the command name in parentheses): cutime, cstime in ticks.
    const fields = readFileSync('/proc/self/stat', 'utf8')
      .replace(/^.*\) /s, '')
      .split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** A whole command timed: wall milliseconds and the CPU seconds of the process tree it ran. */
export function timed<T>(run: () => T): { result: T; ms: number; cpu: number } {
  const cpu = childCpuSeconds();
  const started = performance.now();
  const result = run();
  return { result, ms: performance.now() - started, cpu: childCpuSeconds() - cpu };
}

/** The machine's load average over the last minute, said beside every figure: the machine is shared. */
export const loadNow = () => `load ${os.loadavg()[0]!.toFixed(1)}`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/**
 * Edits of each kind at scale, each of another article: the median is printed, with every run. Five: the
 * one-article edit sits near its 3 s goal, and a median of three moved by a tenth between runs of the same code.
 */
const EDIT_RUNS = Number(process.env.EDIT_RUNS ?? 5);

/**
 * Both builds from nothing (no earlier output: a deploy's cold build), alternating ours and Hugo's so that
 * a change in the machine's load falls on both; the median of RUNS each, wall time and CPU time. Hugo builds
 * two sites of the same Markdown: the plain one the goal is judged against, and one that makes the same kinds
 * of output as ours (hugo-like-ours.ts), whose ratio says how much of the difference is the work done.
 */
async function besideHugo(articles: number, root: string, hugo: string | null, runs: number): Promise<void> {
  const content = path.join(root, `content-${articles}`);
  await writeSyntheticContent(content, { articles });
  const out = path.join(root, 'dist');
  const site = path.join(root, `hugo-${articles}`);
  const like = path.join(root, `hugo-like-${articles}`);
  if (hugo) {
    createHugoSite(content, site);
    createHugoSiteLikeOurs(content, like);
  }
  const ours: { ms: number; cpu: number; peakMb: number }[] = [];
  const theirs: { ms: number; cpu: number }[] = [];
  const theirsLike: { ms: number; cpu: number }[] = [];
  const loads: string[] = [];
  // Every run starts from no earlier output of any of the three builds.
  const outputs = [out, ...BESIDE_OUTPUT.map((record) => `${out}.${record}`), path.join(site, 'public'), path.join(like, 'public')];
  for (let run = 0; run < runs; run++) {
    setAside(root, outputs);
    loads.push(loadNow());
    const built = timed(() => runBuildCommand(content, out));
    ours.push({ ms: built.ms, cpu: built.cpu, peakMb: built.result.peakMb });
    if (run === 0) {
      const tree = surveyTree(out);
      console.log(
        `<!-- ${articles} articles: ${tree.files.toLocaleString('en')} files, ${(tree.bytes / 1024 ** 2).toFixed(1)} MiB, largest folder ${tree.folder.entries} -->`,
      );
    }
    if (hugo) {
      // timeHugo's own time leaves out removing the earlier output.
      const plain = timed(() => timeHugo(hugo, site));
      theirs.push({ ms: plain.result, cpu: plain.cpu });
      const same = timed(() => timeHugo(hugo, like));
      theirsLike.push({ ms: same.result, cpu: same.cpu });
      if (run === 0)
        console.log(`<!-- Hugo, the same kinds of output: ${surveyTree(path.join(like, 'public')).files.toLocaleString('en')} files -->`);
    }
  }
  setAside(root, outputs);
  const middle = (list: { ms: number; cpu: number }[]) => ({
    ms: median(list.map((run) => run.ms)),
    cpu: median(list.map((run) => run.cpu)),
  });
  const { ms: a, cpu } = middle(ours);
  const peak = Math.max(...ours.map((run) => run.peakMb));
  const { ms: b, cpu: hugoCpu } = hugo ? middle(theirs) : { ms: Number.NaN, cpu: Number.NaN };
  const { ms: c, cpu: likeCpu } = hugo ? middle(theirsLike) : { ms: Number.NaN, cpu: Number.NaN };
  const goal = articles <= 4000 ? 1.0 : 1.2;
  const ratio = a / b;
  const seconds = (ms: number, cpuS: number) => `${(ms / 1000).toFixed(2)} s (CPU ${cpuS.toFixed(1)} s)`;
  const ratioOf = (ms: number, cpuS: number) => `${(a / ms).toFixed(2)}x (CPU ${(cpu / cpuS).toFixed(2)}x)`;
  console.log(
    `| ${articles} | ${seconds(a, cpu)} | ${peak.toFixed(0)} MB | ${hugo ? seconds(b, hugoCpu) : 'no hugo'} | ${hugo ? ratioOf(b, hugoCpu) : '-'} | <= ${goal}x ${hugo ? (ratio <= goal ? 'met' : 'MISSED') : ''} | ${hugo ? seconds(c, likeCpu) : '-'} | ${hugo ? ratioOf(c, likeCpu) : '-'} |`,
  );
  const list = (runs: { ms: number }[]) => runs.map((run) => (run.ms / 1000).toFixed(2)).join(', ');
  console.log(
    `<!-- runs, ours: ${list(ours)} s; Hugo: ${list(theirs)} s; Hugo, the same kinds of output: ${list(theirsLike)} s; ${loads.join(', ')} -->`,
  );
  setAside(root, [content, site, like]);
}

async function atScale(articles: number, root: string): Promise<void> {
  const content = path.join(root, `content-${articles}`);
  await writeSyntheticContent(content, { articles });
  const out = path.join(root, 'dist');
  const reference = path.join(root, 'reference');
  clean(out);
  const cold = runBuildCommand(content, out);
  const tree = surveyTree(out);
  const perArticle = tree.bytes / articles / 1024;
  console.log(`\n### ${articles.toLocaleString('en')} articles\n`);
  console.log(`- cold npm run build: ${(cold.ms / 1000).toFixed(1)} s, peak ${(cold.peakMb / 1024).toFixed(2)} GB (goals < 120 s, < 3 GB)`);
  console.log(
    `- output: ${tree.files.toLocaleString('en')} files, ${(tree.bytes / 1024 ** 3).toFixed(2)} GiB, ${perArticle.toFixed(1)} KB per article (goal <= 15 KB)`,
  );
  console.log(`- largest folder: ${tree.folder.entries.toLocaleString('en')} entries (${tree.folder.path}) (goal <= 10,000)`);
  console.log(`- largest HTML page: ${(tree.page.bytes / 1024).toFixed(1)} KB (${tree.page.path}) (goal <= 50 KB)`);
  const unchanged = timed(() => runBuildCommand(content, out));
  console.log(
    `- nothing changed: ${(unchanged.ms / 1000).toFixed(2)} s, CPU ${unchanged.cpu.toFixed(2)} s, ${loadNow()} (writes nothing: the output stays the cold build's)`,
  );
  // One article edited as an editor would: its body, then (another article) its title, which every record
  // whose related lists link it prints; each EDIT_RUNS times, another article each time, for the median (a single
  // run moved by a tenth with the machine's speed). After each, the output is compared with a clean build.
  const dir = path.join(content, 'intelligence');
  const names = readdirSync(dir)
    .filter((file) => file.endsWith('.md'))
    .sort();
  const edits: [string, number, (text: string) => string][] = [
    ['one-article edit (its body)', Math.floor(articles / 2), (text) => `${text}\nOne more sentence about checkout latency.\n`],
    ['one-article edit (its title)', Math.floor(articles / 3), (text) => text.replace(/^title: "(.*)"$/m, 'title: "$1, revised"')],
  ];
  for (const [what, first, edit] of edits) {
    const runs: { ms: number; cpu: number; peakMb: number; load: string }[] = [];
    const unequal: string[] = [];
    for (let run = 0; run < EDIT_RUNS; run++) {
      const name = names[first + run]!;
      writeFileSync(path.join(dir, name), edit(readFileSync(path.join(dir, name), 'utf8')));
      const load = loadNow();
      const built = timed(() => runBuildCommand(content, out));
      runs.push({ ms: built.ms, cpu: built.cpu, peakMb: built.result.peakMb, load });
      clean(reference);
      runBuildCommand(content, reference);
      const differ = differences(recordedDigests(out), recordedDigests(reference));
      if (differ.length > 0) unequal.push(`after run ${run + 1}, ${differ.length} files differ (${differ.slice(0, 3).join(', ')})`);
    }
    const equal = unequal.length === 0 ? 'yes, after each' : `NO: ${unequal.join('; ')}`;
    const seconds = (ms: number) => (ms / 1000).toFixed(2);
    console.log(
      `- ${what}, npm run build with the previous output in place, median of ${EDIT_RUNS}: ${seconds(median(runs.map((run) => run.ms)))} s, CPU ${median(runs.map((run) => run.cpu)).toFixed(2)} s (runs ${runs.map((run) => seconds(run.ms)).join(', ')} s; ${runs.map((run) => run.load).join(', ')}), peak ${(Math.max(...runs.map((run) => run.peakMb)) / 1024).toFixed(2)} GB (goal < 3 s); output equals a clean build: ${equal} (${recordedDigests(out).size.toLocaleString('en')} files compared by digest)`,
    );
  }
  const profiles = process.env.SCALE_PROFILE;
  if (profiles) {
    // One more body edit, profiled apart from the timed ones (the profiler's own cost left out of them).
    const name = names[Math.floor(articles / 4)]!;
    writeFileSync(path.join(dir, name), `${readFileSync(path.join(dir, name), 'utf8')}\nProfiled sentence.\n`);
    const built = timed(() => runBuildCommand(content, out, ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profiles)}`]));
    console.log(
      `- one more body edit, profiled into ${profiles} (every thread): ${(built.ms / 1000).toFixed(2)} s, CPU ${built.cpu.toFixed(2)} s, ${loadNow()}`,
    );
  }
  clean(out);
  clean(reference);
  rmSync(content, { recursive: true, force: true });
}

export async function benchBuildScale(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  try {
    const hugo = findHugo();
    const runs = Number(process.env.HUGO_RUNS ?? 3);
    console.log(`\n## Cold build beside Hugo (whole commands, no earlier output, alternating, median of ${runs}, same run)\n`);
    console.log('| articles | npm run build | peak | hugo | ratio | goal | hugo, the same kinds of output | ratio |');
    console.log('|---:|---:|---:|---:|---:|:--|---:|---:|');
    for (const articles of sizesFrom(process.env.HUGO_SIZES, [4000, 20000])) await besideHugo(articles, root, hugo, runs);
    console.log('\n## At scale (npm run build, fresh process)');
    for (const articles of sizesFrom(process.env.SCALE_SIZES, [100000])) await atScale(articles, root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBuildScale();
