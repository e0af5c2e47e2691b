/**
 * The index updated by term equals the index written whole, byte for byte, after random edits (titles,
 * tags, summaries, bodies, addresses), after an edit that moves an average's grid point, and after records
 * are added and removed; and a small edit writes few parts.
 */
import { hash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type KeptSearchIndex, keptSearchIndexFiles } from '../../generator/pipeline/outputs/search/search-state.ts';
import { analyseField } from '../../generator/search/index-writer.ts';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { updateSearchIndex } from '../../generator/search/index-update.ts';
import { nativeBytesEqual } from '../../generator/pipeline/outputs/search/native-bytes-equal.ts';
import { sameBytes } from '../../generator/search/record-update.ts';
import { type SearchIndexState, writeSearchIndexState } from '../../generator/search/index-writer.ts';
import { createSearch } from '../../generator/search/search.ts';
import { createSynonymTable, type SynonymTable } from '../../generator/search/synonyms.ts';
import { loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

type Files = Map<string, string | Uint8Array>;

const SYNONYMS: SynonymTable = createSynonymTable({
  groups: [{ words: ['checkout', 'payment page'] }, { words: ['catalog', 'product feed'] }],
});

/** The paths whose bytes differ between two sets of parts (missing on either side included). */
function differences(a: Files, b: Files): string[] {
  const text = (body: string | Uint8Array | undefined) =>
    body === undefined || typeof body === 'string' ? body : Buffer.from(body).toString('hex');
  return [...new Set([...a.keys(), ...b.keys()])].filter((path) => text(a.get(path)) !== text(b.get(path))).sort();
}

/** Applies an update to `disk` as the emit step would: writes and removals. */
function apply(disk: Files, update: ReturnType<typeof updateSearchIndex>): void {
  for (const { path, body } of update.written) disk.set(path, body);
  for (const path of update.removed) disk.delete(path);
}

async function answers(files: Files, queries: string[]) {
  const search = createSearch(createMemoryAssets(files));
  return Promise.all(queries.map((q) => search.rank({ q, type: 'all', limit: 10, offset: 0 })));
}

const analyse = (text: string) => analyseField(text);
const QUERIES = ['agentic commerce', 'checkout', 'retrieval evaluaton', 'product catal', 'fresh words', 'zzquux'];

describe('the index updated by term', () => {
  let base: SearchDocument[];
  beforeAll(async () => {
    const real = await loadSearchDocuments('content');
    base = [...real, ...syntheticSearchDocuments(real, 300, 11)];
  }, 60_000);

  it('equals a clean write after random edits of titles, tags, summaries, bodies and addresses', async () => {
    const random = createRandom(21);
    let documents = base;
    let state: SearchIndexState = writeSearchIndexState(documents, undefined, SYNONYMS);
    const disk: Files = new Map(state.files);
    const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
    const words = base.flatMap((document) => document.body.split(' ')).filter(Boolean);
    let byTerm = 0;
    for (let round = 0; round < 24; round++) {
      documents = [...documents];
      for (let edits = 1 + Math.floor(random() * 3); edits > 0; edits--) {
        const at = Math.floor(random() * documents.length);
        const document = { ...documents[at]!, stored: [...documents[at]!.stored] as SearchDocument['stored'] };
        const field = pick(['title', 'tags', 'summary', 'body', 'body', 'stored'] as const);
        const fresh = `fresh${round}x${edits} words ${pick(words)} payment page`;
        if (field === 'stored') document.stored[3] = `https://example.com/moved/${round}/`;
        else if (random() < 0.3) document[field] = document[field].split(' ').slice(1).join(' ');
        else document[field] = `${fresh} ${document[field]} ${pick(words)}`;
        if (field === 'title') document.stored[1] = document.title;
        documents[at] = document;
      }
      const update = updateSearchIndex(state, documents, undefined, SYNONYMS);
      state = update.state;
      apply(disk, update);
      const clean = writeSearchIndexState(documents, undefined, SYNONYMS).files;
      expect(differences(state.files, clean), `round ${round}`).toEqual([]);
      expect(differences(disk, clean), `round ${round}, as written`).toEqual([]);
      if (!update.whole) {
        byTerm++;
        // Few cards and no other block's parts: at this size (7 blocks) an edit's terms are in most blocks,
        // and a common term's record (with its documents' impacts) spans several shards.
        expect(update.written.length).toBeLessThan(clean.size * 0.65);
      }
    }
    expect(byTerm).toBeGreaterThan(12);
    expect(await answers(disk, QUERIES)).toEqual(await answers(writeSearchIndexState(documents, undefined, SYNONYMS).files, QUERIES));
  }, 120_000);

  it('moves dictionary cuts when many terms come and go, and still equals a clean write', () => {
    let state = writeSearchIndexState(base);
    const blocks = state.meta.blocks.length;
    const many = Array.from({ length: 1500 }, (_, i) => `zq${(i * 7919).toString(36)}`).join(' ');
    const steps = [
      base.map((document, i) => (i === 5 ? { ...document, body: `${document.body} ${many}` } : document)),
      base.map((document, i) => (i === 5 ? { ...document, tags: `${document.tags} ${many}` } : document)),
      base,
    ];
    for (const documents of steps) {
      const update = updateSearchIndex(state, documents);
      state = update.state;
      expect(update.whole === false || update.whole.includes('grid'), String(update.whole)).toBe(true);
      expect(differences(state.files, writeSearchIndexState(documents).files)).toEqual([]);
      if (documents !== base) expect(state.meta.blocks.length).toBeGreaterThan(blocks + 1);
      else expect(state.meta.blocks.length).toBe(blocks);
    }
  }, 60_000);

  it('writes the index whole when an average moves to another grid point, and equals a clean write', () => {
    const state = writeSearchIndexState(base);
    const documents = base.map((document, i) =>
      i === 0 ? { ...document, terms: Array.from({ length: 400 }, (_, k) => `term${k}`).join(' ') } : document,
    );
    const update = updateSearchIndex(state, documents);
    expect(update.whole).toMatch(/grid point/);
    expect(update.state.meta.boundAverages).not.toEqual(state.meta.boundAverages);
    expect(differences(update.state.files, writeSearchIndexState(documents).files)).toEqual([]);
  }, 60_000);

  it('writes the index whole when records are added or removed, and equals a clean write', () => {
    let state = writeSearchIndexState(base);
    const disk: Files = new Map(state.files);
    const added = [...base.slice(0, 40), { ...base[3]!, id: 'intelligence:aaa-new' }, ...base.slice(40)];
    const removed = base.filter((_, i) => i !== 7 && i !== 100);
    for (const documents of [added, removed]) {
      const update = updateSearchIndex(state, documents);
      state = update.state;
      apply(disk, update);
      expect(update.whole).toMatch(/added or removed/);
      const clean = writeSearchIndexState(documents).files;
      expect(differences(state.files, clean)).toEqual([]);
      expect(differences(disk, clean)).toEqual([]);
    }
  }, 60_000);

  it('finds each document where it was when an edit reorders them, and equals a clean write', () => {
    // An edit first, in the documents' order (its cards are made from each number's place in it).
    const first = base.map((document, i) => (i === 3 ? { ...document, title: `Quixotic ${document.title}` } : document));
    const state = updateSearchIndex(writeSearchIndexState(base), first).state;
    // Then two documents swap places (a date edit reorders a collection) and one of them is retitled.
    const documents = [...first];
    [documents[2], documents[30]] = [{ ...first[30]!, title: `Zanzibarian ${first[30]!.title}` }, first[2]!];
    const update = updateSearchIndex(state, documents);
    expect(update.whole).toBe(false);
    expect(differences(update.state.files, writeSearchIndexState(documents).files)).toEqual([]);
  }, 60_000);

  it("writes the same parts with Node's comparison of bytes as with the edge's loop, which agree on any bytes", () => {
    const random = createRandom(5);
    const bytes = Uint8Array.from({ length: 4099 }, () => Math.floor(random() * 256));
    const other = bytes.slice();
    other[4000] = bytes[4000]! ^ 1;
    // Views at odd offsets of larger buffers, of other lengths, and one byte apart.
    for (const [a, b] of [
      [bytes.subarray(3), bytes.slice(3)],
      [bytes.subarray(1, 99), bytes.subarray(2, 100)],
      [bytes, bytes.subarray(0, 4098)],
      [bytes, other],
      [bytes.subarray(0, 3999), other.subarray(0, 3999)],
      [new Uint8Array(0), new Uint8Array(0)],
    ] as const)
      expect(nativeBytesEqual(a, b)).toBe(sameBytes(a, b));
    // Two states of their own: an update changes its state's parts in place.
    let loop: SearchIndexState = writeSearchIndexState(base, undefined, SYNONYMS);
    let native: SearchIndexState = writeSearchIndexState(base, undefined, SYNONYMS);
    let documents = base;
    for (let round = 0; round < 6; round++) {
      documents = [...documents];
      const at = Math.floor(random() * documents.length);
      documents[at] = {
        ...documents[at]!,
        body: `${documents[at]!.body} round${round} edits ${documents[(at + 1) % documents.length]!.title}`,
      };
      const byLoop = updateSearchIndex(loop, documents, undefined, SYNONYMS);
      const byNode = updateSearchIndex(native, documents, undefined, SYNONYMS, nativeBytesEqual);
      expect(byNode.whole).toBe(byLoop.whole);
      expect(byNode.written.map(({ path }) => path)).toEqual(byLoop.written.map(({ path }) => path));
      expect(byNode.removed).toEqual(byLoop.removed);
      expect(differences(byNode.state.files, byLoop.state.files)).toEqual([]);
      loop = byLoop.state;
      native = byNode.state;
    }
  });

  it('writes nothing for documents that did not change (copies of them included)', () => {
    const state = writeSearchIndexState(base);
    const update = updateSearchIndex(
      state,
      [...base].map((document) => ({ ...document })),
    );
    expect(update.whole).toBe(false);
    expect(update.written).toEqual([]);
    expect(update.removed).toEqual([]);
  });

  it('is kept by a build cache: the next build gets the changed parts made and the others carried with their digests', () => {
    const holder: { kept?: KeptSearchIndex } = {};
    const first = keptSearchIndexFiles(holder, base, analyse, SYNONYMS, 500);
    expect(first.every((file) => 'body' in file)).toBe(true);
    const documents = base.map((document, i) => (i === 9 ? { ...document, title: `${document.title} revised` } : document));
    const second = keptSearchIndexFiles(holder, documents, analyse, SYNONYMS, 500);
    const clean = writeSearchIndexState(documents, undefined, SYNONYMS).files;
    expect(second.map(({ path }) => path).sort()).toEqual([...clean.keys()].sort());
    const made = second.filter((file) => 'body' in file);
    expect(made.length).toBeGreaterThan(1);
    expect(made.length).toBeLessThan(second.length / 2);
    for (const file of second) {
      const expected = clean.get(file.path)!;
      if ('body' in file) expect(differences(new Map([[file.path, file.body]]), new Map([[file.path, expected]]))).toEqual([]);
      else if ('carried' in file) expect(file.carried).toBe(hash('sha1', expected, 'base64'));
    }
    // The next builds hand on the same carried parts, and each makes the bytes of the index as it is now,
    // after an update by term and after one written whole (a document added).
    const again = base.map((document, i) => (i === 9 ? { ...document, title: `${document.title} twice revised` } : document));
    const added = [...again, { ...again[3]!, id: 'intelligence:aaa-new' }];
    let previous = new Map(second.map((file) => [file.path, file]));
    for (const documents of [again, added]) {
      const next = keptSearchIndexFiles(holder, documents, analyse, SYNONYMS, 500);
      const now = writeSearchIndexState(documents, undefined, SYNONYMS).files;
      const reused = next.filter((file) => previous.get(file.path) === file);
      if (documents === again) expect(reused.length).toBeGreaterThan(next.length * 0.8);
      else expect(reused.length).toBeGreaterThan(0);
      for (const file of next) {
        const body = 'make' in file ? file.make() : 'body' in file ? file.body : undefined;
        expect(differences(new Map([[file.path, body!]]), new Map([[file.path, now.get(file.path)!]])), file.path).toEqual([]);
      }
      previous = new Map(next.map((file) => [file.path, file]));
    }
    expect(() => keptSearchIndexFiles(holder, base, analyse, SYNONYMS, 0.01)).toThrow(/over the budget/);
    expect(holder.kept).toBeUndefined();
  });
});
