/**
 * The editors' loop at 100,000 articles (a few minutes and about 4 GB of disk): the synthetic content is
 * built once with `npm run build`; then `npm run serve` on that build (start, a new build appearing, stop;
 * serve-scale.ts), and title edits through `npm run dev` (dev-loop.ts). BENCH_SCALE sets the size (0 skips).
 */
import './without-vectors.ts';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';
import { benchDevLoop } from './dev-loop.ts';
import { benchServeAtScale } from './serve-scale.ts';

export async function benchEditorsAtScale(articles = Number(process.env.BENCH_SCALE ?? 100_000)): Promise<void> {
  if (!articles) return;
  console.log(`\n## The editors' loop at ${articles.toLocaleString('en')} articles\n`);
  const root = mkdtempSync(path.join(os.tmpdir(), 'bench-scale-'));
  try {
    const content = path.join(root, 'content');
    await writeSyntheticContent(content, { articles });
    const dist = path.join(root, 'dist');
    const started = performance.now();
    const build = spawnSync(process.execPath, ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', dist], {
      env: { ...process.env, SOURCE_DATE_EPOCH: '1795000000' },
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`npm run build failed: ${build.stderr}`);
    console.log(`npm run build: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await benchServeAtScale(dist, articles);
    rmSync(dist, { recursive: true, force: true });
    await benchDevLoop(content, path.join(root, 'dev'), { articles, edits: 5, goal: { p50: 1000 } });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEditorsAtScale();
