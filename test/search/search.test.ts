/** The search engine's rules (CONTRACT "Search", "Ordering"), over small hand-made indexes. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { toSearchText } from '../../generator/pipeline/outputs/search/search-file.ts';
import { serializeSearchIndex } from '../../generator/search/index-writer.ts';
import {
  BODY_PRUNING,
  BODY_TERM_REPEAT,
  BODY_TERMS_PER_DOCUMENT,
  bodyTerms,
  pruneSearchBodies,
} from '../../generator/search/body-pruning.ts';
import { createSearch, type Search, type SearchQuery } from '../../generator/search/search.ts';
import { loadSearchIndex } from '../../generator/search/index-reader.ts';
import { MAX_QUERY_POSTINGS, miniSearchOptions, roundScore, selectAffordableTerms } from '../../generator/search/ranking.ts';
import { MANIFEST_PATH, SEARCH_INDEX_PATH } from '../../generator/shared/data-paths.ts';
import { MAX_QUERY_TERMS, processQuery, processTerm, tokenize } from '../../generator/search/text-analysis.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { CRAFTED_QUERIES } from '../helpers/crafted-queries.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';

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

/** The index of whole (unpruned) documents, in the format the build writes. */
const serialize = (documents: SearchDocument[]): string => serializeSearchIndex(documents, null);

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
const INDEX_JSON = serialize(documents);

const query = (q: string, more: Partial<SearchQuery> = {}): SearchQuery => ({ q, type: 'all', limit: 20, offset: 0, ...more });
const keys = (items: { type: string; id: string }[]) => items.map((item) => `${item.type}:${item.id}`);

describe('createSearch', () => {
  it('orders by score, then type, then id', async () => {
    const { items } = await createSearch(async () => INDEX_JSON).search(query('widget pricing'));
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
    const { items } = await createSearch(async () => INDEX_JSON).search(query('widget'));
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
    const search = createSearch(async () => INDEX_JSON);
    const all = await search.search(query('widget'));
    const expertise = await search.search(query('widget', { type: 'expertise' }));
    expect(keys(expertise.items)).toEqual(['expertise:alpha', 'expertise:zeta']);
    expect(expertise.total).toBe(2);
    expect(all.total).toBe(6);
  });

  it('pages with offset and limit, and gives [] with the true total past the end', async () => {
    const search = createSearch(async () => INDEX_JSON);
    const all = await search.search(query('widget'));
    const pages = await Promise.all([0, 2, 4].map((offset) => search.search(query('widget', { offset, limit: 2 }))));
    expect(pages.flatMap((page) => keys(page.items))).toEqual(keys(all.items));
    for (const page of pages) expect(page.total).toBe(all.total);
    expect(await search.search(query('widget', { offset: 6, limit: 2 }))).toEqual({ total: 6, items: [] });
    expect(await search.search(query('widget', { offset: 9007199254740991 }))).toEqual({ total: 6, items: [] });
  });

  it('finds nothing, as a normal answer, for stop words or punctuation only', async () => {
    const readIndex = vi.fn(async () => INDEX_JSON);
    const search = createSearch(readIndex);
    expect(await search.search(query('the and of'))).toEqual({ total: 0, items: [] });
    expect(await search.search(query('?! -- ...'))).toEqual({ total: 0, items: [] });
    expect(await search.search(query('zebra'))).toEqual({ total: 0, items: [] });
  });

  it('processes queries as documents: word forms, American spellings, typos, a prefix on the last word', async () => {
    const search = createSearch(async () => INDEX_JSON);
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

  it('reads the index once, on the first search, however many searches run at once', async () => {
    const readIndex = vi.fn(async () => INDEX_JSON);
    const search = createSearch(readIndex);
    expect(readIndex).not.toHaveBeenCalled();
    await Promise.all(Array.from({ length: 5 }, () => search.search(query('widget'))));
    await search.search(query('gadget'));
    expect(readIndex).toHaveBeenCalledTimes(1);
  });

  it('tries again on the next search after a failed load', async () => {
    const readIndex = vi
      .fn<() => Promise<string | null>>()
      .mockRejectedValueOnce(new Error('network down'))
      .mockResolvedValueOnce(null)
      .mockResolvedValue(INDEX_JSON);
    const search = createSearch(readIndex);
    await expect(search.search(query('widget'))).rejects.toThrow('network down');
    await expect(search.search(query('widget'))).rejects.toThrow('search index not found');
    expect((await search.search(query('widget'))).total).toBe(6);
    await search.search(query('widget'));
    expect(readIndex).toHaveBeenCalledTimes(3);
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
const madeUpWords = (count: number, prefix = 'q') =>
  Array.from(
    { length: count },
    (_, i) => prefix + [...(i + 26 * 26).toString(26)].map((digit) => String.fromCharCode(97 + parseInt(digit, 26))).join(''),
  );

/** The body terms the serialized index holds for each document id, read from MiniSearch's own JSON of it. */
function indexedBodyTerms(json: string): Map<string, string[]> {
  const index = loadSearchIndex(json).toJSON() as {
    documentIds: Record<string, string>;
    fieldIds: Record<string, number>;
    index: [string, Record<string, Record<string, number>>][];
  };
  const terms = new Map<string, string[]>(Object.values(index.documentIds).map((id) => [id, []]));
  for (const [term, fields] of index.index) {
    for (const shortId of Object.keys(fields[index.fieldIds.body!] ?? {})) terms.get(index.documentIds[shortId]!)!.push(term);
  }
  return terms;
}

describe('the index format', () => {
  // Term frequencies above 1 in several fields, a slug other than the id, a url elsewhere, accents.
  const corpus = [
    ...documents,
    createDocument('services:renamed', { title: 'Widget widget widget', tags: 'widget widget', body: 'widget '.repeat(7) }),
    createDocument('intelligence:moved', { title: 'Moved page', summary: 'Elsewhere.', body: 'Café naïve don’t' }),
  ];
  corpus.at(-2)!.stored[0] = 'renamed-slug';
  corpus.at(-2)!.stored[3] = 'https://example.com/services/renamed-slug/';
  corpus.at(-1)!.stored[3] = 'https://elsewhere.example/moved';

  it('loads exactly the index MiniSearch builds and loads from its own JSON, stored fields included', () => {
    for (const pruning of [null, BODY_PRUNING]) {
      const reference = new MiniSearch<SearchDocument>(miniSearchOptions);
      reference.addAll(pruning ? pruneSearchBodies(corpus, pruning) : corpus);
      const viaMiniSearch = MiniSearch.loadJSON<SearchDocument>(JSON.stringify(reference), miniSearchOptions);
      const loaded = loadSearchIndex(serializeSearchIndex(corpus, pruning));
      expect(JSON.stringify(loaded)).toBe(JSON.stringify(viaMiniSearch));
      // The same terms, postings and documents as the index built in memory (loadJSON orders terms otherwise).
      expect(loaded.toJSON().index.sort(([a], [b]) => (a < b ? -1 : 1))).toEqual(
        reference.toJSON().index.sort(([a], [b]) => (a < b ? -1 : 1)),
      );
    }
  });

  it('answers items with the slug, title, summary and url each document stores', async () => {
    const { items } = await createSearch(async () => serializeSearchIndex(corpus)).search(query('widget moved', { limit: 100 }));
    const byKey = new Map(corpus.map((document) => [document.id, document.stored]));
    // Every document but "Garden design".
    expect(items.length).toBe(corpus.length - 1);
    for (const item of items) {
      const [slug, title, summary, url] = byKey.get(`${item.type}:${item.id}`)!;
      expect(item).toEqual({ type: item.type, id: item.id, slug, title, summary, url, score: item.score });
    }
  });

  it('refuses an index in another format', async () => {
    await expect(createSearch(async () => JSON.stringify(new MiniSearch(miniSearchOptions))).search(query('widget'))).rejects.toThrow(
      /format/,
    );
  });
});

describe('body pruning', () => {
  // Twenty documents sharing a vocabulary, one of them with a 2,000-word body, and one whose body alone
  // mentions DMARC among words all the others use.
  const shared = madeUpWords(120);
  const long = madeUpWords(2000, 'z');
  const corpus = [
    createDocument('intelligence:long', { title: 'Everything', body: long.join(' ') }),
    createDocument('services:lifecycle', {
      title: 'Lifecycle email',
      summary: 'Email flows.',
      body: `${shared.join(' ')} SPF and DMARC alignment.`,
    }),
    ...Array.from({ length: 18 }, (_, i) => createDocument(`expertise:filler-${i}`, { title: `Filler ${i}`, body: shared.join(' ') })),
  ];
  const json = serializeSearchIndex(corpus);

  it(`keeps at most ${BODY_TERMS_PER_DOCUMENT} terms of a body in the index, whatever its length`, () => {
    expect(bodyTerms(corpus[0]!.body).frequency.size).toBeGreaterThan(1900);
    const indexed = indexedBodyTerms(json);
    expect(indexed.get('intelligence:long')).toHaveLength(BODY_TERMS_PER_DOCUMENT);
    for (const terms of indexed.values()) expect(terms.length).toBeLessThanOrEqual(BODY_TERMS_PER_DOCUMENT);
    // The index of the same documents unpruned holds them all.
    expect(indexedBodyTerms(serializeSearchIndex(corpus, null)).get('intelligence:long')!.length).toBeGreaterThan(1900);
  });

  it('still finds a rare word that only one body holds', async () => {
    const { items } = await createSearch(async () => json).search(query('dmarc'));
    expect(keys(items)).toEqual(['services:lifecycle']);
    expect(indexedBodyTerms(json).get('services:lifecycle')).toContain('dmarc');
  });

  it('changes bodies only, and cuts no term from the bodies of a small corpus however common', async () => {
    const pruned = pruneSearchBodies(corpus);
    pruned.forEach((document, i) => {
      expect({ ...document, body: '' }).toEqual({ ...corpus[i], body: '' });
    });
    // 20 documents: a word in 19 of them stays in their bodies (the cut needs more than max(20%, 100)).
    expect(BODY_PRUNING.cutMinDocuments).toBeGreaterThan(corpus.length);
    expect(indexedBodyTerms(json).get('expertise:filler-0')).toHaveLength(BODY_TERMS_PER_DOCUMENT);
    expect((await createSearch(async () => json).search(query(shared[0]!))).total).toBe(19);
  });

  it('writes bodies the index reads back as the same terms (processTerm is stable on the words it keeps)', () => {
    // Real bodies (content/) and the awkward cases: accents, apostrophes, British spellings, digits, capitals.
    const contentDir = fileURLToPath(new URL('../../content', import.meta.url));
    const markdown = readdirSync(contentDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
    const bodies = [
      "Café CAFÉ naïve merchant's don't Optimisation optimising analysed GA4 x402 e-commerce 3-D Señor Zürich it’s",
      ...markdown.map((file) => toSearchText(readFileSync(path.join(contentDir, file), 'utf8'))),
    ];
    const documents = bodies.map((body, i) => createDocument(`intelligence:doc-${i}`, { body }));
    const keepAll = { termsPerDocument: Infinity, cutShare: 1, cutMinDocuments: Infinity };
    for (const [pruning, bound] of [
      [keepAll, Infinity],
      [BODY_PRUNING, BODY_TERMS_PER_DOCUMENT],
    ] as const) {
      pruneSearchBodies(documents, pruning).forEach((document, i) => {
        const original = bodyTerms(documents[i]!.body).frequency;
        const rewritten = bodyTerms(document.body);
        for (const [term, tf] of rewritten.frequency) {
          expect(tf).toBe(Math.min(original.get(term)!, BODY_TERM_REPEAT));
          const word = rewritten.word.get(term)!;
          expect(tokenize(word)).toEqual([word]);
          expect(processTerm(word)).toBe(term);
        }
        if (bound === Infinity) expect([...rewritten.frequency.keys()].sort()).toEqual([...original.keys()].sort());
        else expect(rewritten.frequency.size).toBe(Math.min(bound, original.size));
      });
    }
    // And the index itself holds exactly the terms chosen for each body.
    const indexed = indexedBodyTerms(serializeSearchIndex(documents));
    for (const document of pruneSearchBodies(documents)) {
      expect(indexed.get(document.id)!.sort()).toEqual([...bodyTerms(document.body).frequency.keys()].sort());
    }
  });
});

describe('the build', () => {
  const outDirs: string[] = [];
  afterAll(() => {
    for (const dir of outDirs) rmSync(dir, { recursive: true, force: true });
  });
  const tempDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'search-build-'));
    outDirs.push(dir);
    return dir;
  };

  it('writes the index and counts its documents in the manifest', async () => {
    const outDir = tempDir();
    await buildSite({ contentDir: VALID_FIXTURE, outDir, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    const manifest = JSON.parse(readFileSync(path.join(outDir, MANIFEST_PATH), 'utf8'));
    const index = loadSearchIndex(readFileSync(path.join(outDir, SEARCH_INDEX_PATH), 'utf8'));
    expect(manifest.search_documents).toBe(index.documentCount);
    expect(index.documentCount).toBeGreaterThan(0);
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
function siteSearch(): Promise<Search> {
  site ??= (async () => {
    const out = mkdtempSync(path.join(os.tmpdir(), 'crafted-'));
    await buildSite({ contentDir: 'content', outDir: out, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    const json = readFileSync(path.join(out, SEARCH_INDEX_PATH), 'utf8');
    rmSync(out, { recursive: true, force: true });
    return createSearch(async () => json);
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

  it.each(Object.entries(CRAFTED_QUERIES))('answers "%s" with at most the capped terms and a valid result', async (_name, q) => {
    expect([...q].length).toBeLessThanOrEqual(200);
    expect(processQuery(q).length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    const answer = await (await siteSearch()).search({ q, type: 'all', limit: 20, offset: 0 });
    expect(answer.items.length).toBeLessThanOrEqual(20);
    for (const item of answer.items) expect(item.score).toBeGreaterThan(0);
  });
});

describe('selectAffordableTerms', () => {
  const postings: Record<string, number> = { rare: 10, mid: 900, common: 3500, huge: 6000 };
  const of = (term: string) => postings[term] ?? 0;

  it('keeps every term of an ordinary query', () => {
    expect(selectAffordableTerms(['rare', 'mid'], of)).toEqual(['rare', 'mid']);
  });

  it('leaves out the most common terms past the budget, keeping query order', () => {
    expect(MAX_QUERY_POSTINGS).toBe(4000);
    expect(selectAffordableTerms(['common', 'rare', 'huge', 'mid'], of)).toEqual(['rare', 'mid']);
  });

  it('always keeps the rarest term, even when it alone is over the budget', () => {
    expect(selectAffordableTerms(['huge'], of)).toEqual(['huge']);
    expect(selectAffordableTerms(['huge', 'common'], of)).toEqual(['common']);
  });
});
