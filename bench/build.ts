/**
 * Generator benchmark: synthetic corpora of 1,000, 4,000 and 20,000 articles (other collections at
 * realistic sizes), each built by the real generator in a fresh process, with and without the search index.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';

interface Run {
  buildMs: number;
  processMs: number;
  cpuMs: number;
  peakRssMb: number;
  files: number;
  mb: number;
}

/** What each row builds: the API's data alone, with the search index, and the whole site (record and list pages too). */
const VARIANTS = [
  { label: 'API only', flags: ['--no-search', '--no-pages'] },
  { label: 'API and search', flags: ['--no-pages'] },
  { label: 'whole site', flags: [] },
] as const;

/** A cold build: no previous output to link unchanged files from. */
function buildOnce(content: string, out: string, flags: readonly string[]): Run {
  rmSync(out, { recursive: true, force: true });
  rmSync(`${out}.digests.json`, { force: true });
  const args = ['--import', 'tsx', 'bench/build-once.ts', content, out, ...flags];
  const wallStart = performance.now();
  const output = execFileSync(process.execPath, args, { encoding: 'utf8' });
  return { ...JSON.parse(output), processMs: performance.now() - wallStart };
}

/** The best of `runs`: the figure least disturbed by whatever else the machine is doing. */
function best(runs: Run[]): Run {
  return runs.reduce((a, b) => (b.buildMs < a.buildMs ? b : a));
}

/**
 * Output goes to a memory-backed folder where there is one: on a shared VM the disk's speed for thousands of
 * small files varies tenfold within an hour, which would drown the generator's own figures. One run per row
 * also writes to the disk, for reference.
 */
const MEMORY_DIR = '/dev/shm';

export async function benchBuild(sizes = [1000, 4000, 20000], runs = 3): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-build-'));
  const outRoot = existsSync(MEMORY_DIR) ? mkdtempSync(path.join(MEMORY_DIR, 'bench-build-')) : root;
  console.log(
    '\n## Build (fresh process per build, best of %d; output to %s, and once to disk)\n',
    runs,
    outRoot === root ? 'disk' : 'memory (tmpfs)',
  );
  console.log('| articles | outputs | build wall | whole command wall | CPU | peak RSS | files | output | build wall, to disk |');
  console.log('|---:|:---|---:|---:|---:|---:|---:|---:|---:|');
  const pageCost: string[] = [];
  try {
    for (const articles of sizes) {
      const content = path.join(root, `content-${articles}`);
      await writeSyntheticContent(content, { articles });
      const times: number[] = [];
      for (const { label, flags } of VARIANTS) {
        const n = articles >= 20000 ? 1 : runs;
        const run = best(Array.from({ length: n }, () => buildOnce(content, path.join(outRoot, 'dist'), flags)));
        const disk = buildOnce(content, path.join(root, 'dist'), flags);
        times.push(run.buildMs);
        console.log(
          `| ${articles} | ${label} | ${run.buildMs.toFixed(0)} ms | ${run.processMs.toFixed(0)} ms | ${run.cpuMs.toFixed(0)} ms | ${run.peakRssMb.toFixed(0)} MB | ${run.files} | ${run.mb.toFixed(1)} MB | ${disk.buildMs.toFixed(0)} ms |`,
        );
      }
      const ratio = times[2]! / times[1]!;
      pageCost.push(
        `${articles} articles: whole site ${ratio.toFixed(2)}x the API with search (goal <= 1.15x) ${ratio <= 1.15 ? 'ok' : 'MISSED'}`,
      );
      rmSync(content, { recursive: true, force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(outRoot, { recursive: true, force: true });
  }
  console.log(
    '\nGoals: 4,000 articles without the index under 1.2 s wall, 20,000 under 6 s, peak memory under 500 MB; with the index, 4,000 under 2 s.',
  );
  console.log(`Record and list pages:\n${pageCost.join('\n')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBuild();
