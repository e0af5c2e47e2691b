/**
 * The rebuild inside `npm run dev`, in one process and without the server, so its CPU time can be read apart
 * from the machine's load: the same builder dev runs (dev-builds.ts), a first build, then title edits of
 * recent articles; wall and CPU time of each rebuild, and with `--profile FILE` a CPU profile of the edits
 * (sampled every PROFILE_US microseconds, 200 by default).
 *
 * `npx tsx bench/dev-rebuild.ts [articles] [--profile out.cpuprofile]`
 */
import './without-vectors.ts';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { GCProfiler } from 'node:v8';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';
import { createDevBuilds } from '../generator/server/dev/dev-builds.ts';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(articles: number, profile: string | undefined): Promise<void> {
  process.env.SOURCE_DATE_EPOCH ??= '1795000000';
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-dev-rebuild-'));
  try {
    const content = path.join(root, 'content');
    await writeSyntheticContent(content, { articles });
    const builds = createDevBuilds({
      contentDir: content,
      snapshotRoot: path.join(root, 'dev'),
      preview: { drafts: false, future: false },
      servedAt: 'http://127.0.0.1:4321',
    });
    const first = await builds.build(0);
    if (!first.built) throw new Error(JSON.stringify(first));
    // Dev's warm-up, then edits; the profile holds the edits only (the warm-up is a whole build).
    const session = profile ? new Session() : undefined;
    // Garbage collection's pauses, per rebuild: the share of an edit that allocation costs.
    const gcEach: number[] = [];
    const wall: number[] = [];
    const cpu: number[] = [];
    const changed: number[] = [];
    for (let edit = 0; edit <= 20; edit++) {
      // What dev's watcher would report: the file saved (nothing, for the first rebuild).
      const reported: string[] = [];
      if (edit > 0) {
        reported.push(`intelligence/article-${((edit * 37 + 11) % articles) + 1}.md`);
        const file = path.join(content, reported[0]!);
        writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, `title: Edited title ${edit}`));
      }
      if (session && edit === 1) {
        session.connect();
        await session.post('Profiler.enable');
        await session.post('Profiler.setSamplingInterval', { interval: Number(process.env.PROFILE_US ?? 200) });
        await session.post('Profiler.start');
      }
      const gc = new GCProfiler();
      gc.start();
      const started = performance.now();
      const before = process.cpuUsage();
      // The first: dev's warm-up (the practice edit and a rebuild of the content as it is).
      const answer = edit === 0 ? await builds.warmUp(1) : await builds.build(edit + 1, reported);
      const used = process.cpuUsage(before);
      if (!answer.built) throw new Error(JSON.stringify(answer));
      if (edit === 0) {
        console.log(`warm-up (practice edit and rebuild): ${(performance.now() - started).toFixed(0)} ms`);
        continue;
      }
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
      const stats = gc.stop()?.statistics ?? [];
      const gcMs = stats.reduce((sum, { cost }) => sum + cost / 1000, 0);
      if (process.env.BENCH_EACH) {
        const kinds = new Map<string, number>();
        for (const { gcType, cost } of stats) kinds.set(gcType, (kinds.get(gcType) ?? 0) + cost / 1000);
        // With --expose-gc (BENCH_EACH), the heap after a full collection: what the builder keeps between edits.
        (globalThis as { gc?: () => void }).gc?.();
        console.log(
          `  GC by kind: ${[...kinds].map(([kind, ms]) => `${kind} ${ms.toFixed(0)}`).join(', ')}; heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MB`,
        );
      }
      gcEach.push(gcMs);
      if (process.env.BENCH_EACH)
        console.log(`  edit ${edit}: wall ${wall.at(-1)!.toFixed(0)} ms, CPU ${cpu.at(-1)!.toFixed(0)} ms, GC ${gcMs.toFixed(0)} ms`);
      changed.push(answer.changed.length);
    }
    if (session) {
      const { profile: taken } = await session.post('Profiler.stop');
      writeFileSync(profile!, JSON.stringify(taken));
    }
    console.log(
      `title edit rebuild in one process, ${articles.toLocaleString('en')} articles, ${wall.length} edits: ` +
        `wall p50 ${median(wall).toFixed(0)} ms, max ${Math.max(...wall).toFixed(0)} ms; ` +
        `CPU p50 ${median(cpu).toFixed(0)} ms, max ${Math.max(...cpu).toFixed(0)} ms; ` +
        `garbage collection p50 ${median(gcEach).toFixed(0)} ms, max ${Math.max(...gcEach).toFixed(0)} ms; ` +
        `files changed p50 ${median(changed)}; load average ${os.loadavg()[0]!.toFixed(1)}`,
    );
    builds.close();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The builder's young generation as `npm run dev` gives its thread (dev-rebuilder.ts): 192 MB, halves of 64. */
const SEMI_SPACE = '--max-semi-space-size=64';
if (!process.execArgv.includes(SEMI_SPACE)) {
  const { spawnSync } = await import('node:child_process');
  const expose = process.env.BENCH_EACH ? ['--expose-gc'] : [];
  const run = spawnSync(process.execPath, [...process.execArgv, SEMI_SPACE, ...expose, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(run.status ?? 1);
}

const args = process.argv.slice(2);
const at = args.indexOf('--profile');
const profile = at >= 0 ? args[at + 1] : undefined;
const articles = Number(args.find((arg, index) => /^\d+$/.test(arg) && (at < 0 || index !== at + 1)) ?? 4000);
await main(articles, profile);
