/**
 * Search documents for the search suites: those the build indexes for a content folder, and synthetic ones
 * made from their words (seeded, so every run indexes the same), with the queries to try on them.
 */
import { collections } from '../../generator/schemas/collections.ts';
import { createCatalogue } from '../../generator/pipeline/catalogue/catalogue.ts';
import { selectPublished } from '../../generator/pipeline/catalogue/publish.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { createSearchDocuments, toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import { renderRecordBody } from '../../generator/pipeline/render-bodies.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { NO_CACHE } from '../../generator/pipeline/build-cache.ts';
import { createRandom } from './synthetic-content.ts';

/** The documents a build of `contentDir` indexes, in the build's order. */
export async function loadSearchDocuments(contentDir: string): Promise<SearchDocument[]> {
  const content = validateContent(await loadContent(contentDir, { collections, limits: resolveBuildSettings({}).limits }), collections);
  const published = selectPublished(content, collections, '2026-11-18');
  const catalogue = createCatalogue(published, collections, {
    siteUrl: 'https://api.example.test',
    builtAt: '2026-11-18T11:06:40Z',
    render: renderRecordBody,
    cache: NO_CACHE,
  });
  return createSearchDocuments(catalogue, toSearchText);
}

const wordsOf = (text: string) => text.split(/\s+/).filter(Boolean);

/**
 * `count` documents of the three searchable types whose fields are drawn from the words of `base`'s fields
 * (so word frequencies are the content's own), some fields empty, bodies of 0 to 400 words.
 */
export function syntheticSearchDocuments(base: readonly SearchDocument[], count: number, seed = 1): SearchDocument[] {
  const random = createRandom(seed);
  const pools = {
    title: base.flatMap((document) => wordsOf(document.title)),
    tags: base.flatMap((document) => wordsOf(document.tags)),
    terms: base.flatMap((document) => wordsOf(document.terms)),
    summary: base.flatMap((document) => wordsOf(document.summary)),
    body: base.flatMap((document) => wordsOf(document.body)),
  };
  const draw = (pool: string[], words: number) => Array.from({ length: words }, () => pool[Math.floor(random() * pool.length)]!).join(' ');
  const types = ['services', 'expertise', 'intelligence', 'intelligence'];
  return Array.from({ length: count }, (_, index) => {
    const type = types[Math.floor(random() * types.length)]!;
    const id = `synthetic-${index.toString(36)}`;
    const title = draw(pools.title, 2 + Math.floor(random() * 7));
    const summary = random() < 0.05 ? '' : draw(pools.summary, 10 + Math.floor(random() * 30));
    return {
      id: `${type}:${id}`,
      title,
      tags: draw(pools.tags, Math.floor(random() * 6)),
      terms: draw(pools.terms, Math.floor(random() * 4)),
      summary,
      body: draw(pools.body, Math.floor(random() ** 0.5 * 400)),
      stored: [id, title, summary, `https://example.com/${type}/${id}/`],
    };
  });
}

interface Readable {
  read(path: string): Promise<string | null>;
  readBytes(path: string): Promise<Uint8Array | null>;
}

/** `assets` with every path read pushed to `reads`; `bytesOnly` counts only the binary (postings) reads. */
export function countReads(assets: Readable, reads: string[], bytesOnly = false): Readable {
  return {
    read: (path) => {
      if (!bytesOnly) reads.push(path);
      return assets.read(path);
    },
    readBytes: (path) => {
      reads.push(path);
      return assets.readBytes(path);
    },
  };
}
