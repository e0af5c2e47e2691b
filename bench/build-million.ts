/**
 * A build of a million articles (no goal: the figures are reported): synthetic 400-word articles written
 * to disk as they are generated (never the whole folder in memory), then one cold `npm run build`, the whole
 * command in a fresh process, as a deploy runs it. Prints its time, CPU, peak resident memory (every
 * process and thread of the build), the output's files, bytes, largest folder and largest page, and checks a
 * sample of the output through the real `npm run serve` over HTTP: each sampled article's envelope and page
 * answer with its title, the article list counts every article, and a search for its title finds it. The
 * content and output are deleted at the end (KEEP=1 keeps them).
 * Needs about 3 GB of disk for the content and 14 GB for the output at a million, and the build's memory
 * (see docs/builds.md); run it with nothing else heavy on the machine.
 * Usage: tsx bench/build-million.ts [ARTICLES=1000000] [BENCH_DIR=<temporary folder>] [CONTENT_DIR=<folder>]
 * CONTENT_DIR: content this bench's generator wrote before for the same number of articles (generated outside
 * the measured run on a shared machine, as it takes minutes of disk time); it is deleted at the end too.
 */
import './without-vectors.ts';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeSyntheticContent } from '../test/helpers/synthetic-content.ts';
import { loadNow, surveyTree, timed } from './build-scale.ts';
import { runBuildCommand } from './editing.ts';
import { get, startServe } from './serve-scale.ts';

/** Articles sampled for the correctness check: both ends and a spread between (the rate limit allows 100 requests a minute). */
const SAMPLES = 12;

interface Sample {
  id: string;
  title: string;
}

/** The sampled articles' ids and titles, read back from the generated files. */
function sampleArticles(content: string, articles: number): Sample[] {
  const indexes = new Set([1, articles]);
  for (let n = 1; indexes.size < Math.min(SAMPLES, articles); n++) indexes.add(1 + Math.floor((n * (articles - 1)) / (SAMPLES - 1)));
  return [...indexes].map((index) => {
    const id = `article-${index}`;
    const text = readFileSync(path.join(content, 'intelligence', `${id}.md`), 'utf8');
    return { id, title: /^title: "(.*)"$/m.exec(text)![1]! };
  });
}

interface Checked {
  envelopes: number;
  pages: number;
  /** Sampled articles a search for their title found in its first page of answers (20), and their ranks. */
  found: number;
  ranks: (number | null)[];
  listed: number | undefined;
  failures: string[];
}

/** Asks the built output, served by `npm run serve`, for each sampled article. */
async function checkSample(out: string, samples: Sample[]): Promise<Checked> {
  const server = await startServe(out);
  const checked: Checked = { envelopes: 0, pages: 0, found: 0, ranks: [], listed: undefined, failures: [] };
  try {
    const list = await get(server.port, '/v1/intelligence/list?limit=1');
    checked.listed = (JSON.parse(list.body) as { meta: { pagination: { total: number } } }).meta.pagination.total;
    for (const { id, title } of samples) {
      const envelope = await get(server.port, `/v1/intelligence/get?id=${id}`);
      const data =
        envelope.status === 200 ? (JSON.parse(envelope.body) as { data: { id: string; title: string; url: string } }).data : undefined;
      if (data?.id === id && data.title === title) checked.envelopes++;
      else checked.failures.push(`${id}: envelope ${envelope.status} ${data?.title ?? ''}`);
      const page = data && (await get(server.port, new URL(data.url).pathname));
      if (page?.status === 200 && page.body.includes(title)) checked.pages++;
      else checked.failures.push(`${id}: page ${page?.status} at ${data?.url}`);
      const search = await get(server.port, `/v1/search?q=${encodeURIComponent(title)}&type=intelligence`);
      const hits = search.status === 200 ? (JSON.parse(search.body) as { data: { id: string }[] }).data : [];
      const rank = hits.findIndex((hit) => hit.id === id);
      checked.ranks.push(rank < 0 ? null : rank + 1);
      if (rank >= 0) checked.found++;
      else if (search.status !== 200) checked.failures.push(`${id}: search ${search.status}`);
    }
  } finally {
    server.child.kill('SIGTERM');
  }
  return checked;
}

export async function benchBuildMillion(articles = 1_000_000): Promise<void> {
  const root = process.env.BENCH_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'bench-million-'));
  mkdirSync(root, { recursive: true });
  const content = process.env.CONTENT_DIR ?? path.join(root, `content-${articles}`);
  const out = path.join(root, 'dist');
  try {
    console.log(`\n## A build of ${articles.toLocaleString('en')} articles (no goal; figures reported)\n`);
    const generating = performance.now();
    if (!process.env.CONTENT_DIR) await writeSyntheticContent(content, { articles });
    const samples = sampleArticles(content, articles);
    const made = process.env.CONTENT_DIR ? `generated before, in ${content}` : `${((performance.now() - generating) / 1000).toFixed(0)} s`;
    console.log(`- content generated and written as made: ${made} (${loadNow()})`);
    // A million articles' search index is some 660 MB, past the 500 MB a build allows by default (a guard on
    // a deploy's size, SEARCH_INDEX_BUDGET_MB): raised here, as a site that large would, unless given.
    process.env.SEARCH_INDEX_BUDGET_MB ??= '2000';
    const load = loadNow();
    const started = performance.now();
    const built = timed(() => {
      try {
        return runBuildCommand(content, out);
      } catch (error) {
        // A build that runs out of memory ends without a figure of its own: its time and last words.
        const said = String((error as Error).message)
          .trim()
          .split('\n')
          .slice(-6)
          .join(' / ');
        throw new Error(`npm run build failed after ${((performance.now() - started) / 1000).toFixed(0)} s (${loadNow()}): ${said}`);
      }
    });
    const cpu = built.cpu;
    console.log(
      `- cold npm run build: ${(built.ms / 1000).toFixed(1)} s, CPU ${cpu.toFixed(1)} s, peak ${(built.result.peakMb / 1024).toFixed(2)} GB (${load} at its start, ${loadNow()} at its end)`,
    );
    const tree = surveyTree(out);
    console.log(
      `- output: ${tree.files.toLocaleString('en')} files, ${(tree.bytes / 1024 ** 3).toFixed(2)} GiB, ${(tree.bytes / articles / 1024).toFixed(1)} KB per article`,
    );
    console.log(`- largest folder: ${tree.folder.entries.toLocaleString('en')} entries (${tree.folder.path})`);
    console.log(`- largest HTML page: ${(tree.page.bytes / 1024).toFixed(1)} KB (${tree.page.path})`);
    const checked = await checkSample(out, samples);
    const ranks = checked.ranks.map((rank) => rank ?? '-').join(', ');
    console.log(
      `- sample of ${samples.length} articles over HTTP (npm run serve): envelopes with the right title ${checked.envelopes}/${samples.length}, pages ${checked.pages}/${samples.length}; article list total ${checked.listed?.toLocaleString('en')} (expected ${articles.toLocaleString('en')}); a search for the title finds the article in its first 20: ${checked.found}/${samples.length} (ranks ${ranks})`,
    );
    for (const failure of checked.failures) console.log(`  - failed: ${failure}`);
  } finally {
    if (process.env.KEEP !== '1') {
      for (const file of [
        out,
        ...['digests.json', 'digests', 'build.bin', 'inputs.json', 'inputs', 'kept.bin', 'load', 'search'].map(
          (record) => `${out}.${record}`,
        ),
        content,
      ])
        rmSync(file, { recursive: true, force: true });
      if (!process.env.BENCH_DIR) rmSync(root, { recursive: true, force: true });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBuildMillion(Number(process.argv[2] ?? 1_000_000));
