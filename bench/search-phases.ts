/**
 * Where a first search's CPU goes, by step, in fresh Deno isolates: the search's steps (search.ts: the
 * top-level file, the plan with its dictionary, typo files and records, the ranking with its walk, the
 * result cards) each timed, for each first-search query (search.ts FIRST_QUERIES), as a fresh isolate's
 * first search and after a search for other words in the same isolate (the code then run and compiled,
 * the query's own parts still unread: the difference is what running our code the first time costs).
 * Medians of RUNS isolates each. Over an index that bench/search.ts built and kept:
 * `SEARCH_BENCH_DIR=<folder> npx tsx bench/search.ts 100000`, then
 * `npx tsx bench/search-phases.ts <folder>/100000 [runs] [queries...]`.
 */
import { FIRST_QUERIES, median, runIn } from './search.ts';

/** Words none of FIRST_QUERIES has, over common and rare terms, with a half-typed word and a misspelling. */
const OTHER_WORDS = 'merchant fraud latenc protocl';
const STEPS = ['meta', 'plan', 'rank', 'cards'] as const;

/** Per step, the median CPU of `runs` isolates searching `q` (after `other` words when given). */
function phases(dir: string, q: string, runs: number, other?: string): number[] {
  const figures = Array.from({ length: runs }, () => runIn('deno', ['phases', dir, q, ...(other ? [other] : [])]));
  return STEPS.map((step) => median(figures.map((figure) => figure[step]!)));
}

export function searchPhases(dir: string, runs: number, queries: readonly string[]): void {
  console.log(`\nA first search's CPU by step (${dir}; median of ${runs} fresh Deno isolates each, ms; the same after other words):\n`);
  console.log(`| query | ${STEPS.join(' | ')} | all |`);
  console.log(`|---|${STEPS.map(() => '---:|').join('')}---:|`);
  for (const q of queries) {
    const first = phases(dir, q, runs);
    const after = phases(dir, q, runs, q === OTHER_WORDS ? FIRST_QUERIES[0] : OTHER_WORDS);
    const cells = first.map((ms, i) => `${ms.toFixed(1)} / ${after[i]!.toFixed(1)}`);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0).toFixed(1);
    console.log(`| "${q}" | ${cells.join(' | ')} | ${sum(first)} / ${sum(after)} |`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [dir, runs, ...queries] = process.argv.slice(2);
  searchPhases(dir!, Number(runs ?? 5), queries.length > 0 ? queries : FIRST_QUERIES);
}
