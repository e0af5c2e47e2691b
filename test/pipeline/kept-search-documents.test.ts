/**
 * `npm run dev` keeps each build's search documents for the next (search-state.ts), so a document must hold
 * nothing of the build that made it. A document whose lazy body held its build's catalogue kept every
 * build's catalogue alive, each through the one before: the builder's heap after a full collection grew by
 * a catalogue per edit (about 5 MB an edit at 4,000 articles, 190 MB resident at 100,000).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collections } from '../../generator/schemas/collections.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { createCatalogue } from '../../generator/pipeline/catalogue/catalogue.ts';
import { selectPublished } from '../../generator/pipeline/catalogue/publish.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { createSearchDocuments, searchText, toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import { renderRecordBody } from '../../generator/pipeline/render-bodies.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { keptDocuments } from '../../generator/pipeline/outputs/search/search-state.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** The documents of the repository's content, made as dev's builds make them, with a weak reference to their catalogue. */
async function documentsOfOneBuild(): Promise<{ documents: SearchDocument[]; catalogue: WeakRef<object> }> {
  const content = validateContent(await loadContent('content', { collections, limits: resolveBuildSettings({}).limits }), collections);
  const cache = createBuildCache();
  const catalogue = createCatalogue(selectPublished(content, collections, '2026-11-18'), collections, {
    siteUrl: 'https://api.example.test',
    builtAt: '2026-11-18T11:06:40Z',
    render: renderRecordBody,
    cache,
  });
  return { documents: createSearchDocuments(catalogue, searchText(catalogue.memo)), catalogue: new WeakRef(catalogue) };
}

describe('kept search documents', () => {
  it('hold nothing of the catalogue they were made from, and still give their bodies when asked', async () => {
    const { documents, catalogue } = await documentsOfOneBuild();
    // A weak reference's target lives to the end of the task that made it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(documents.length).toBeGreaterThan(10);
    expect(catalogue.deref()).toBeUndefined();
    const body = documents.find((document) => document.id.startsWith('intelligence'))!.body;
    expect(body.length).toBeGreaterThan(100);
    expect(body).toBe(toSearchText(body));
  });
});

describe('the documents kept by their inputs', () => {
  it('are found at their place, or where they moved from; a record whose inputs changed gets none', () => {
    const holder = {};
    const keys = ['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `digest-${name}\tterms`);
    const documents = keys.map((key) => ({ key }) as unknown as SearchDocument);
    const first = keptDocuments(holder, 'https://example.test', keys);
    expect(keys.map((_, index) => first.known(index))).toEqual(keys.map(() => undefined));
    first.keep(documents);
    // `b` and `d` swap places (a date edit reorders), `e` is edited; the others are new strings of the same inputs.
    const now = [keys[0]!, keys[3]!, keys[2]!, keys[1]!, 'digest-e2\tterms', keys[5]!].map((key) => `${key} `.trim());
    const second = keptDocuments(holder, 'https://example.test', now);
    expect(now.map((_, index) => second.known(index))).toEqual([
      documents[0],
      documents[3],
      documents[2],
      documents[1],
      undefined,
      documents[5],
    ]);
    second.keep(documents);
    expect(keptDocuments(holder, 'https://elsewhere.test', now).known(0)).toBeUndefined();
  });
});
