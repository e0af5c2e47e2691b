/** The search engine's rules (docs/api.md "Search", "Records"), over small hand-made indexes. */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import { createFileAssets } from '../../generator/server/file-assets.ts';
import { SEARCH_INDEX_FORMAT, SEARCH_META_PATH, type SearchDocument } from '../../generator/search/index-format.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { createSearch, type Search, type SearchQuery } from '../../generator/search/search.ts';
import { roundScore } from '../../generator/search/ranking.ts';
import { MANIFEST_PATH } from '../../generator/shared/data-paths.ts';
import { MAX_QUERY_TERMS, processQuery, tokenize } from '../../generator/search/text-analysis.ts';
import { CRAFTED_QUERIES } from '../helpers/crafted-queries.ts';
import { countReads } from '../helpers/search-documents.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { scratchDir } from '../helpers/scratch.ts';

function createDocument(id: string, fields: Partial<Omit<SearchDocument, 'id' | 'stored'>>): SearchDocument {
  const [, recordId = id] = id.split(':');
  const title = fields.title ?? '';
  return {
    id,
    title,
    tags: fields.tags ?? '',
    terms: fields.terms ?? '',
    summary: fields.summary ?? '',
    body: fields.body ?? '',
    stored: [recordId, title, `About ${title}`, `https://example.com/${id.replace(':', '/')}/`],
  };
}

/** The index of `documents` as the build writes it, in memory, with every read counted. */
function indexOf(documents: SearchDocument[]) {
  const memory = createMemoryAssets(new Map(writeSearchIndex(documents).map(({ path, body }) => [path, body])));
  const reads: string[] = [];
  return { source: countReads(memory, reads), reads };
}

// Four documents alike in everything but type and id score the same: only the tie-break orders them.
const twins = ['services:beta', 'expertise:zeta', 'intelligence:mu', 'expertise:alpha'].map((id) =>
  createDocument(id, { title: 'Widget pricing', body: 'How widgets are priced.' }),
);
const documents = [
  ...twins,
  createDocument('intelligence:widget-guide', {
    title: 'Widget pricing guide for widget sellers',
    tags: 'widget pricing',
    summary: 'Widget pricing.',
  }),
  createDocument('services:gadgets', { title: 'Gadget repair', body: 'We repair gadgets and sometimes a widget.' }),
  createDocument('expertise:unrelated', { title: 'Garden design', body: 'Lawns and borders.' }),
];
const INDEX = () => indexOf(documents).source;

const query = (q: string, more: Partial<SearchQuery> = {}): SearchQuery => ({ q, type: 'all', limit: 20, offset: 0, ...more });
const keys = (items: { type: string; id: string }[]) => items.map((item) => `${item.type}:${item.id}`);

describe('createSearch', () => {
  it('orders by score, then type, then id', async () => {
    const { items } = await createSearch(INDEX()).search(query('widget pricing'));
    expect(keys(items).slice(0, 5)).toEqual([
      'intelligence:widget-guide',
      'expertise:alpha',
      'expertise:zeta',
      'intelligence:mu',
      'services:beta',
    ]);
    expect(new Set(items.slice(1, 5).map((item) => item.score)).size).toBe(1);
    for (let i = 1; i < items.length; i++) expect(items[i]!.score).toBeLessThanOrEqual(items[i - 1]!.score);
  });

  it('answers items with the stored fields and a score rounded to 4 decimals, above 0', async () => {
    const { items } = await createSearch(INDEX()).search(query('widget'));
    expect(items[0]).toEqual({
      type: 'intelligence',
      id: 'widget-guide',
      slug: 'widget-guide',
      title: 'Widget pricing guide for widget sellers',
      summary: 'About Widget pricing guide for widget sellers',
      url: 'https://example.com/intelligence/widget-guide/',
      score: expect.any(Number),
    });
    for (const item of items) {
      expect(item.score).toBeGreaterThan(0);
      expect(Math.round(item.score * 10_000) / 10_000).toBe(item.score);
    }
  });

  it('rounds scores to 4 decimals and never to 0', () => {
    expect(roundScore(1.234_56)).toBe(1.2346);
    expect(roundScore(0.000_01)).toBe(0.0001);
    expect(roundScore(7)).toBe(7);
  });

  it('narrows to one collection with `type`, counting only its matches', async () => {
    const search = createSearch(INDEX());
    const all = await search.search(query('widget'));
    const expertise = await search.search(query('widget', { type: 'expertise' }));
    expect(keys(expertise.items)).toEqual(['expertise:alpha', 'expertise:zeta']);
    expect(expertise.total).toBe(2);
    expect(all.total).toBe(6);
  });

  it('pages with offset and limit, and gives [] with the true total past the end', async () => {
    const search = createSearch(INDEX());
    const all = await search.search(query('widget'));
    const pages = await Promise.all([0, 2, 4].map((offset) => search.search(query('widget', { offset, limit: 2 }))));
    expect(pages.flatMap((page) => keys(page.items))).toEqual(keys(all.items));
    for (const page of pages) expect(page.total).toBe(all.total);
    expect(await search.search(query('widget', { offset: 6, limit: 2 }))).toEqual({ total: 6, items: [] });
    expect(await search.search(query('widget', { offset: 9007199254740991 }))).toEqual({ total: 6, items: [] });
  });

  it('finds nothing, as a normal answer, for stop words or punctuation only, reading nothing for them', async () => {
    const { source, reads } = indexOf(documents);
    const search = createSearch(source);
    expect(await search.search(query('the and of'))).toEqual({ total: 0, items: [] });
    expect(await search.search(query('?! -- ...'))).toEqual({ total: 0, items: [] });
    expect(reads).toEqual([]);
    expect(await search.search(query('zebra'))).toEqual({ total: 0, items: [] });
  });

  it('processes queries as documents: word forms, American spellings, typos, a prefix on the last word', async () => {
    const search = createSearch(INDEX());
    for (const q of ['widgets', 'priced', 'pricing', 'widgte pricing', 'widget pri']) {
      expect(keys((await search.search(query(q))).items)).toContain('intelligence:widget-guide');
    }
    expect(processQuery('Optimisation of THE optimization')).toEqual(['optim']);
    // Typos are forgiven in titles, tags and summaries, not in bodies: "sometimes" is only in a body.
    expect((await search.search(query('sometimes'))).total).toBe(1);
    expect((await search.search(query('sometimse'))).total).toBe(0);
    // Prefix only on the last word: "pri" alone in first place matches nothing.
    expect((await search.search(query('pri gadget'))).total).toBe(1);
  });

  it('reads each part once, however many searches run at once', async () => {
    const { source, reads } = indexOf(documents);
    const search = createSearch(source);
    expect(reads).toEqual([]);
    await Promise.all(Array.from({ length: 5 }, () => search.search(query('widget'))));
    await search.search(query('widget'));
    expect(reads.length).toBeGreaterThan(2);
    expect(new Set(reads).size).toBe(reads.length);
    expect(reads).toContain(SEARCH_META_PATH);
  });

  it('fails a search whose part is missing or unreadable, names the part, and reads it again on the next search', async () => {
    const { source } = indexOf(documents);
    let failing: 'throw' | 'missing' | 'corrupt' | undefined = 'throw';
    const flaky = {
      read: async (file: string) => {
        if (file === SEARCH_META_PATH && failing === 'throw') throw new Error('network down');
        if (file === SEARCH_META_PATH && failing === 'missing') return null;
        if (file === SEARCH_META_PATH && failing === 'corrupt') return '{"format": "search-ind';
        return source.read(file);
      },
      readBytes: source.readBytes,
    };
    const search = createSearch(flaky);
    await expect(search.search(query('widget'))).rejects.toThrow('network down');
    failing = 'missing';
    await expect(search.search(query('widget'))).rejects.toThrow(`search index part ${SEARCH_META_PATH}: missing`);
    failing = 'corrupt';
    await expect(search.search(query('widget'))).rejects.toThrow(`search index part ${SEARCH_META_PATH}: not valid JSON`);
    failing = undefined;
    expect((await search.search(query('widget'))).total).toBe(6);
  });
});

describe('toSearchText', () => {
  it('keeps the words of links and images and drops addresses and HTML', () => {
    const markdown =
      '## Setup\n\nSee [the guide](https://example.com/guide) and ![a chart](/img/c.svg).\n<br>Visit https://x.dev now.\n\n[ref]: https://example.com';
    expect(toSearchText(markdown)).toBe('## Setup See the guide and a chart. Visit now.');
  });
});

/** Made-up words, letters only, none a stop word: "qab", "qac", ... */
describe('result cards', () => {
  // A slug other than the id, a url elsewhere, accents.
  const corpus = [
    ...documents,
    createDocument('services:renamed', { title: 'Widget widget widget', tags: 'widget widget', body: 'widget '.repeat(7) }),
    createDocument('intelligence:moved', { title: 'Moved page', summary: 'Elsewhere.', body: 'Café naïve don’t' }),
  ];
  corpus.at(-2)!.stored[0] = 'renamed-slug';
  corpus.at(-2)!.stored[3] = 'https://example.com/services/renamed-slug/';
  corpus.at(-1)!.stored[3] = 'https://elsewhere.example/moved';

  it('answers items with the slug, title, summary and url each document stores', async () => {
    const { items } = await createSearch(indexOf(corpus).source).search(query('widget moved', { limit: 100 }));
    const byKey = new Map(corpus.map((document) => [document.id, document.stored]));
    // Every document but "Garden design".
    expect(items.length).toBe(corpus.length - 1);
    for (const item of items) {
      const [slug, title, summary, url] = byKey.get(`${item.type}:${item.id}`)!;
      expect(item).toEqual({ type: item.type, id: item.id, slug, title, summary, url, score: item.score });
    }
  });

  it('finds every word of a long body, however rare or common', async () => {
    const words = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
    const search = createSearch(indexOf([...corpus, createDocument('intelligence:long', { title: 'Long', body: words.join(' ') })]).source);
    for (const word of [words[0]!, words[1500]!, words[2999]!])
      expect(keys((await search.search(query(word))).items)).toEqual(['intelligence:long']);
  });

  it('refuses an index in another format', async () => {
    const { source } = indexOf(corpus);
    const other = {
      ...source,
      read: async (file: string) => (file === SEARCH_META_PATH ? '{"format":"search-index/1"}' : source.read(file)),
    };
    await expect(createSearch(other).search(query('widget'))).rejects.toThrow(`format ${SEARCH_INDEX_FORMAT}; rebuild the site`);
  });
});

describe('the build', () => {
  const outDirs: string[] = [];
  afterAll(() => {
    for (const dir of outDirs) rmSync(path.dirname(dir), { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = path.join(scratchDir('search-build'), 'dist');
    outDirs.push(dir);
    return dir;
  };

  it('writes the index and counts its documents in the manifest', async () => {
    const outDir = tempDir();
    await buildSite({ contentDir: VALID_FIXTURE, outDir, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    const manifest = JSON.parse(readFileSync(path.join(outDir, MANIFEST_PATH), 'utf8'));
    const meta = JSON.parse(readFileSync(path.join(outDir, SEARCH_META_PATH), 'utf8'));
    expect(manifest.search_documents).toBe(meta.documents);
    expect(meta.documents).toBeGreaterThan(0);
  });

  it('fails with the size, the budget and what to do when the index is over SEARCH_INDEX_BUDGET_MB', async () => {
    const env = { SOURCE_DATE_EPOCH: '1795000000', SEARCH_INDEX_BUDGET_MB: '0.001' };
    await expect(buildSite({ contentDir: VALID_FIXTURE, outDir: tempDir(), env })).rejects.toThrow(
      /^search index is [\d.]+ MB, over the budget of 0\.001 MB \(SEARCH_INDEX_BUDGET_MB\); .*raise SEARCH_INDEX_BUDGET_MB/,
    );
  });

  it('rejects a budget that is not a positive number', async () => {
    const env = { SOURCE_DATE_EPOCH: '1795000000', SEARCH_INDEX_BUDGET_MB: 'lots' };
    await expect(buildSite({ contentDir: VALID_FIXTURE, outDir: tempDir(), env })).rejects.toThrow(
      'SEARCH_INDEX_BUDGET_MB must be a positive number',
    );
  });
});

/** Search over the real content's index, built once for this suite. */
let site: Promise<Search> | undefined;
const siteDirs: string[] = [];
afterAll(() => {
  for (const dir of siteDirs) rmSync(path.dirname(dir), { recursive: true, force: true });
});
function siteSearch(): Promise<Search> {
  site ??= (async () => {
    const out = path.join(scratchDir('crafted'), 'dist');
    await buildSite({ contentDir: 'content', outDir: out, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    siteDirs.push(out);
    return createSearch(createFileAssets(out));
  })();
  return site;
}

describe('search under crafted queries', () => {
  it('counts a repeated word once', async () => {
    const search = await siteSearch();
    const once = await search.search({ q: 'agentic commerce', type: 'all', limit: 20, offset: 0 });
    const repeated = await search.search({ q: 'agentic agentic commerce agentic commerce commerce', type: 'all', limit: 20, offset: 0 });
    expect(once.total).toBeGreaterThan(0);
    expect(repeated).toEqual(once);
  });

  it(`searches at most ${MAX_QUERY_TERMS} distinct terms, in query order`, () => {
    expect(processQuery(CRAFTED_QUERIES['many distinct words']!)).toHaveLength(MAX_QUERY_TERMS);
    expect(processQuery('agent agent agent commerce')).toEqual(['agent', 'commerc']);
  });

  it('never turns one character into several words', () => {
    expect(tokenize('\uFDFA').filter(Boolean)).toHaveLength(1);
    expect(tokenize('\u33C2').filter(Boolean)).toEqual(['am']);
    expect(tokenize('café ﬁnance Brand™ ½').filter(Boolean)).toEqual(['cafe', 'finance', 'BrandTM', '12']);
  });

  it('splits text of ASCII characters only as the Unicode letter and digit classes split it', () => {
    // Every ASCII character, and strings of them at random: the ASCII path must give the same words.
    const unicodeSplit = (text: string) => text.replace(/['\u2019](?:s\b)?/g, '').split(/[^\p{L}\p{N}]+/u);
    const every = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)).join('');
    expect(tokenize(every)).toEqual(unicodeSplit(every));
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 30) }, () => every[Math.floor(random() * 128)]).join('');
      expect(tokenize(text)).toEqual(unicodeSplit(text));
    }
  });

  it.each(Object.entries(CRAFTED_QUERIES))('answers "%s" with at most the capped terms and a valid result', async (_name, q) => {
    expect([...q].length).toBeLessThanOrEqual(200);
    expect(processQuery(q).length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    const answer = await (await siteSearch()).search({ q, type: 'all', limit: 20, offset: 0 });
    expect(answer.items.length).toBeLessThanOrEqual(20);
    for (const item of answer.items) expect(item.score).toBeGreaterThan(0);
  });
});
