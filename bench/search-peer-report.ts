/**
 * The tables of bench/search-peer.ts: per size, relevance side by side (MRR@10 and recall@10, and ours minus
 * Pagefind's), then cost side by side (Pagefind's figure over ours), each speed figure with the load average
 * it was taken at and the quality it came with.
 */
import { judgements } from '../test/helpers/relevance-judgements.ts';
import { questionJudgements } from '../test/helpers/relevance-questions.ts';
import { median } from './search.ts';
import type { EngineFigures, PeerRow } from './search-peer.ts';
import type { Relevance } from './search-relevance.ts';

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const ratio = (peer: number, ours: number) => (ours > 0 && Number.isFinite(peer) ? `${fixed(peer / ours, 2)}x` : 'n/a');

const CLASSES: [keyof Relevance, string][] = [
  ['judged', `judged questions (${judgements.length})`],
  ['questions', `natural-language questions (${questionJudgements.length})`],
  ['probe', 'body-words probe'],
  ['synonyms', 'synonym class (ours with content/synonyms.yaml; Pagefind has no synonyms)'],
];

function printRelevance({ ours, peer }: PeerRow): void {
  console.log('| class | ours MRR@10 / recall@10 | Pagefind MRR@10 / recall@10 | ours - Pagefind, MRR@10 / recall@10 |');
  console.log('|---|---:|---:|---:|');
  const pair = ({ mrr, recall }: { mrr: number; recall: number }) => `${fixed(mrr, 3)} / ${fixed(recall, 3)}`;
  for (const [key, label] of CLASSES) {
    const queries = key === 'probe' ? ours.relevance.probe.queries : 1;
    if (!queries) continue;
    const [a, b] = [ours.relevance[key], peer?.relevance[key]];
    const difference = b ? pair({ mrr: a.mrr - b.mrr, recall: a.recall - b.recall }) : 'n/a';
    console.log(`| ${label}${key === 'probe' ? ` (${queries})` : ''} | ${pair(a)} | ${b ? pair(b) : 'n/a'} | ${difference} |`);
  }
}

const worst = (values: number[]) => Math.max(...values);
const kb = (bytes: number) => `${fixed(bytes / 1024)} KB`;
type Measure = (figures: EngineFigures) => { text: string; value: number };
const firstCpu: Measure = ({ first }) => ({
  text: `${fixed(median(first.cpuMs))} ms (${fixed(worst(first.cpuMs))})`,
  value: median(first.cpuMs),
});
const firstWall: Measure = ({ first }) => ({
  text: `${fixed(median(first.wallMs))} ms (${fixed(worst(first.wallMs))})`,
  value: median(first.wallMs),
});
const firstBytes: Measure = ({ first }) => ({ text: `${kb(median(first.bytes))} (${kb(worst(first.bytes))})`, value: median(first.bytes) });
const warm: Measure = ({ warm: { p50, p99 } }) => ({ text: `${fixed(p50, 2)} / ${fixed(p99, 2)} ms`, value: p50 });

function printCost({ ours, peer, peerBuild }: PeerRow): void {
  const quality = `judged MRR@10 ${fixed(ours.relevance.judged.mrr, 3)} / ${peer ? fixed(peer.relevance.judged.mrr, 3) : 'n/a'}`;
  const built = peerBuild.stopped
    ? `stopped at ${fixed(peerBuild.peakRssMb, 0)} MB after ${fixed(peerBuild.buildMs / 1000, 1)} s (${peerBuild.stopped})`
    : `${fixed(peerBuild.buildMs / 1000, 2)} s`;
  const rows: string[][] = [
    [
      'index build (ours: the index written in memory; Pagefind: its whole command, HTML read and bundle written)',
      `${fixed(ours.build.buildMs / 1000, 2)} s`,
      built,
      peerBuild.stopped ? 'n/a' : ratio(peerBuild.buildMs, ours.build.buildMs),
      `${fixed(ours.load.build)} / ${fixed(peerBuild.load)}`,
    ],
    [
      'build peak memory (RSS)',
      `${fixed(ours.build.peakRssMb, 0)} MB`,
      `${fixed(peerBuild.peakRssMb, 0)} MB`,
      ratio(peerBuild.peakRssMb, ours.build.peakRssMb),
      `${fixed(ours.load.build)} / ${fixed(peerBuild.load)}`,
    ],
    [
      `index (Pagefind: what a search may load; its whole bundle ${peerBuild.bundleFiles} files, ${fixed(peerBuild.bundleMb)} MB)`,
      `${ours.build.files} files, ${fixed(ours.build.mb)} MB`,
      peerBuild.stopped ? 'n/a' : `${peerBuild.files} files, ${fixed(peerBuild.mb)} MB`,
      peerBuild.stopped ? 'n/a' : ratio(peerBuild.mb, ours.build.mb),
      '',
    ],
  ];
  const side = (label: string, measure: Measure, load = '') => {
    const [a, b] = [measure(ours), peer && measure(peer)];
    rows.push([label, a.text, b?.text ?? 'n/a', b ? ratio(b.value, a.value) : 'n/a', load]);
  };
  side('first query CPU in a fresh instance, median (worst) of the 5 queries', firstCpu, fixed(ours.load.first));
  side('first query wall time, median (worst)', firstWall);
  side(`first query bytes fetched, median (max) (Pagefind: besides pagefind.js, ${peer ? kb(peer.scriptBytes) : 'n/a'})`, firstBytes);
  side('warm query p50 / p99 (200 queries, median of 3 rounds; ratio of p50)', warm, fixed(ours.load.warm));
  console.log(`\n| measure (${quality}, ours / Pagefind) | ours | Pagefind | Pagefind / ours | load average |`);
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
}

/** Per size: the relevance table, then the cost table. */
export function printPeerRows(rows: PeerRow[]): void {
  for (const row of rows) {
    console.log(`\n### ${row.docs.toLocaleString('en')} distractors (${row.style}), beside Pagefind\n`);
    printRelevance(row);
    printCost(row);
  }
  console.log('\nFirst queries: each a fresh Deno process, the two engines in turn, the median of 3 per query.');
}
