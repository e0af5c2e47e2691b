/**
 * Pagefind's search as it runs in production, under Deno beside our edge handler's (bench/search-deno.ts):
 * its own `pagefind.js` and WebAssembly from the bundle Pagefind wrote, every file fetched through `fetch`
 * (file: addresses; each fetched body counted), one process one fresh instance, Pagefind's default ranking.
 *
 *   deno run --allow-read bench/search-peer-deno.ts first BUNDLE QUERY         one search and its results' data
 *   deno run --allow-read bench/search-peer-deno.ts warm BUNDLE QUERIES ROUNDS  QUERIES: a JSON file of strings
 *   deno run --allow-read bench/search-peer-deno.ts rank BUNDLE QUERIES        QUERIES: JSON `[{ q, type }]`; each one's top 10 ids
 *
 * A search is what a results page of ours returns: the first PAGE results with their data (address, title,
 * excerpt); `type` other than `all` is Pagefind's `type` filter. Prints one JSON line, as search-deno.ts does.
 */
import { measure } from './cpu-measure.ts';
import { idOfUrl } from './search-peer-pages.ts';

interface Runtime {
  args: string[];
  readTextFile(path: string): Promise<string>;
  realPathSync(path: string): string;
  statSync(path: string): { size: number };
}
const { Deno } = globalThis as unknown as { Deno: Runtime };

/** Results a search returns with their data: our search's default page (`limit` 20). */
const PAGE = 20;
const TOP = 10;

interface PagefindResult {
  data(): Promise<{ url: string }>;
}
interface Pagefind {
  options(options: Record<string, unknown>): Promise<void>;
  search(term: string, options?: Record<string, unknown>): Promise<{ results: PagefindResult[] } | null>;
}

const [mode, bundle, arg, rounds] = Deno.args;
const base = `file://${Deno.realPathSync(bundle!)}/`;
let bytesRead = 0;
let requests = 0;
const fetchFile = globalThis.fetch;
globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const response = await fetchFile(input, init);
  const body = new Uint8Array(await response.arrayBuffer());
  bytesRead += body.byteLength;
  requests++;
  return new Response(body, { status: response.status, headers: response.headers });
};

const pagefind: Pagefind = await import(`${base}pagefind.js`);
/** The bundle served from /pagefind/ of a site at the root: results' addresses are the pages' paths. */
const OPTIONS = { basePath: base, baseUrl: '/' };
/** The script itself, which a browser loads before any fetch (its size on disk, uncompressed). */
const scriptBytes = Deno.statSync(`${Deno.realPathSync(bundle!)}/pagefind.js`).size;

/** The ids of the first `count` results of `q`, their data loaded. */
async function searchIds(q: string, type: string, count: number): Promise<string[]> {
  const found = await pagefind.search(q, type === 'all' ? {} : { filters: { type } });
  const data = await Promise.all((found?.results ?? []).slice(0, count).map((result) => result.data()));
  return data.map(({ url }) => idOfUrl(url));
}

if (mode === 'first') {
  // From the script loaded to the results shown: options, the WebAssembly, metadata, index and fragments.
  const figures = await measure(async () => {
    await pagefind.options(OPTIONS);
    await searchIds(arg!, 'all', PAGE);
  });
  console.log(JSON.stringify({ ...figures, bytesRead, requests, scriptBytes }));
} else if (mode === 'rank') {
  const queries: { q: string; type: string }[] = JSON.parse(await Deno.readTextFile(arg!));
  await pagefind.options(OPTIONS);
  const ids: string[][] = [];
  for (const { q, type } of queries) ids.push(await searchIds(q, type, TOP));
  console.log(JSON.stringify({ ids }));
} else if (mode === 'warm') {
  const queries: string[] = JSON.parse(await Deno.readTextFile(arg!));
  await pagefind.options(OPTIONS);
  for (const q of queries) await searchIds(q, 'all', PAGE);
  const times: number[][] = queries.map(() => []);
  for (let round = 0; round < Number(rounds ?? 3); round++) {
    for (const [i, q] of queries.entries()) times[i]!.push((await measure(() => searchIds(q, 'all', PAGE))).wallMs);
  }
  const medians = times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
  console.log(JSON.stringify({ medians }));
}
