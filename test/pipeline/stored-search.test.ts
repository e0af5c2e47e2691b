/**
 * The search index kept on disk by `npm run build` (search-store.ts, stored-search.ts): after random edits,
 * the index updated by term from what an earlier build kept, and from that build's parts read back from
 * the output, equals a clean write byte for byte; anything that cannot be trusted (a part changed by hand,
 * a damaged or missing analysis, another scope or synonyms, records added or removed, a store from a build
 * that never finished saving) is refused, so the build writes the index whole.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutFromParts } from '../../generator/pipeline/outputs/search/index-from-parts.ts';
import { openSearchStore, type SearchStore, stagingDir, storeDir } from '../../generator/pipeline/outputs/search/search-store.ts';
import { updateFromStore, updateFromStoreInThread } from '../../generator/pipeline/outputs/search/stored-search-update.ts';
import { startBuildHelper } from '../../generator/pipeline/helper/build-helper.ts';
import { writeIndexKeeping } from '../../generator/pipeline/outputs/search/stored-search.ts';
import { type SearchDocumentSource, toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import { type SearchDocument, SEARCH_DIR } from '../../generator/search/index-format.ts';
import { CARDS_PER_FILE, writeSearchIndexState } from '../../generator/search/index-writer.ts';
import { createSynonymTable, type SynonymTable } from '../../generator/search/synonyms.ts';
import { loadSearchDocuments, syntheticSearchDocuments } from '../helpers/search-documents.ts';
import { createRandom } from '../helpers/synthetic-content.ts';
import { scratchDir } from '../helpers/scratch.ts';

const SYNONYMS: SynonymTable = createSynonymTable({ groups: [{ words: ['checkout', 'payment page'] }] });
const SCOPE = 'generator and settings';
const BUDGET = 500;
const MARK = 'inputs';
const keyOf = (document: SearchDocument) => hash('sha1', JSON.stringify(document), 'base64');
const digestOf = (body: string | Uint8Array) => hash('sha1', body, 'base64');

/** The index's files under `out`, by path. */
function onDisk(out: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(out, full), digestOf(readFileSync(full)));
    }
  };
  mkdirSync(path.join(out, SEARCH_DIR), { recursive: true });
  walk(path.join(out, SEARCH_DIR));
  return files;
}

/** Puts `files` in place as the emit step does (a carried file stays when its copy has the digest), then saves the store. */
function emit(out: string, files: readonly OutputFile[], store: SearchStore): void {
  const before = onDisk(out);
  const digests = new Map<string, string>();
  for (const file of files) {
    const target = path.join(out, file.path);
    if ('carried' in file && before.get(file.path) === file.carried) {
      digests.set(file.path, file.carried);
      continue;
    }
    const body = 'body' in file ? file.body : 'carried' in file ? file.make() : '';
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
    digests.set(file.path, digestOf(body));
  }
  for (const file of before.keys()) if (!digests.has(file)) rmSync(path.join(out, file));
  store.save(digests);
}

/** The clean write's files, by path and digest. */
const clean = (documents: readonly SearchDocument[], synonyms: SynonymTable | null) =>
  new Map([...writeSearchIndexState(documents, undefined, synonyms).files].map(([file, body]) => [file, digestOf(body)]));

/** A whole write kept in a new store under `out`. */
function writeWhole(out: string, documents: readonly SearchDocument[], synonyms: SynonymTable | null = SYNONYMS) {
  const store = openSearchStore(out);
  const keys = documents.map(keyOf);
  // A build killed before it saved left its staged parts: the next whole save removes them with its own.
  mkdirSync(path.join(storeDir(out), 'staging-999999-1'), { recursive: true });
  // Copies: the writer lets each one's body go once analysed.
  const copies = documents.map((document) => ({ ...document }));
  const written = writeIndexKeeping(copies, keys, synonyms, { scope: SCOPE, staging: stagingDir(out) });
  store.keepWhole(SCOPE, documents, { keys, mark: MARK }, synonyms, written.files, written.kept);
  emit(out, written.files, store);
  expect(readdirSync(storeDir(out)).filter((name) => name.startsWith('staging-'))).toEqual([]);
}

/** `documents` as a build's source gives them, counting the documents made. */
function sourceOf(documents: readonly SearchDocument[]): SearchDocumentSource & { made: number } {
  return {
    count: documents.length,
    made: 0,
    idAt: (index) => documents[index]!.id,
    at(index) {
      this.made++;
      return documents[index]!;
    },
  };
}

/** The index updated from the store under `out`; documents go in as the build gives them, bodies still Markdown. */
const update = (out: string, documents: readonly SearchDocument[], synonyms: SynonymTable | null = SYNONYMS, scope = SCOPE) => {
  const store = openSearchStore(out);
  const source = sourceOf(documents.map((document) => ({ ...document, body: `<p>${document.body}</p>` })));
  const files = updateFromStore(store, scope, source, { keys: documents.map(keyOf), mark: MARK }, synonyms, toSearchText, BUDGET);
  return { store, files, made: source.made };
};

describe('the search index kept on disk by npm run build', () => {
  let base: SearchDocument[];
  let root: string;
  beforeAll(async () => {
    const real = await loadSearchDocuments('content');
    base = [...real, ...syntheticSearchDocuments(real, 200, 5)];
    root = scratchDir('stored-search');
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads the layout back from the parts as the writer laid it out', () => {
    const state = writeSearchIndexState(base, undefined, SYNONYMS);
    const read = layoutFromParts(new Map([...state.files].filter(([file]) => !file.includes('/cards/'))))!;
    expect(read.parts.terms).toEqual(state.parts.terms);
    expect(read.parts.starts).toEqual(state.parts.starts);
    expect([...read.parts.entries]).toEqual([...state.parts.entries]);
    expect([...read.parts.typoTerms].sort()).toEqual([...state.parts.typoTerms].sort());
    for (const [term, record] of state.records) {
      expect({ ...read.records.get(term)!, bytes: [...read.records.get(term)!.bytes] }).toEqual({ ...record, bytes: [...record.bytes] });
    }
  });

  it('updates by term after random edits, equal to a clean write each time', () => {
    const out = path.join(root, 'edits');
    writeWhole(out, base);
    const random = createRandom(7);
    const words = base.flatMap((document) => document.body.split(' ')).filter(Boolean);
    let documents = base;
    let byTerm = 0;
    for (let round = 0; round < 10; round++) {
      documents = [...documents];
      for (let edits = 1 + Math.floor(random() * 2); edits > 0; edits--) {
        const at = Math.floor(random() * documents.length);
        const field = (['title', 'summary', 'body', 'tags'] as const)[Math.floor(random() * 4)]!;
        const document = { ...documents[at]!, stored: [...documents[at]!.stored] as SearchDocument['stored'] };
        document[field] = `fresh${round}x${edits} ${words[Math.floor(random() * words.length)]} payment page ${document[field]}`;
        if (field === 'title') document.stored[1] = document.title;
        documents[at] = document;
      }
      const { store, files } = update(out, documents);
      if (files) {
        // Written whole after all (an average moved to another grid point) keeps no store: the next round writes whole.
        if (files.filter((file) => 'body' in file).length < files.length / 2) byTerm++;
        emit(out, files, store);
      } else writeWhole(out, documents);
      expect(onDisk(out), `round ${round}`).toEqual(clean(documents, SYNONYMS));
    }
    expect(byTerm).toBeGreaterThanOrEqual(7);
  }, 60_000);

  it('makes only the edited documents and their cards, and follows documents that moved', () => {
    const out = path.join(root, 'reach');
    writeWhole(out, base);
    const edited = base.map((document, i) => (i === 40 ? { ...document, body: `${document.body} quagga` } : document));
    const { store, files, made } = update(out, edited);
    // The edited document and the others of its card file, not one per document.
    expect(made).toBeLessThanOrEqual(CARDS_PER_FILE);
    emit(out, files!, store);
    expect(onDisk(out)).toEqual(clean(edited, SYNONYMS));
    // Two documents swap places (a record's edit reordered its collection), one of them edited.
    const swapped = [...edited];
    [swapped[5], swapped[6]] = [{ ...edited[6]!, summary: `${edited[6]!.summary} again` }, edited[5]!];
    const next = update(out, swapped);
    expect(next.files).toBeDefined();
    emit(out, next.files!, next.store);
    expect(onDisk(out)).toEqual(clean(swapped, SYNONYMS));
  }, 60_000);

  it('refuses a store it cannot trust, so the index is written whole', () => {
    const out = path.join(root, 'damage');
    writeWhole(out, base);
    const edited = base.map((document, i) => (i === 9 ? { ...document, body: `${document.body} quagga` } : document));
    expect(update(out, edited).files).toBeDefined();
    expect(update(out, edited, SYNONYMS, 'another scope').files).toBeUndefined();
    expect(update(out, edited, null).files).toBeUndefined();
    expect(update(out, edited.slice(1)).files).toBeUndefined();
    // An edit that moves an average to another grid point: the update would write the index whole.
    const long = Array.from({ length: 400 }, (_, k) => `term${k}`).join(' ');
    expect(
      update(
        out,
        base.map((document, i) => (i === 0 ? { ...document, terms: long } : document)),
      ).files,
    ).toBeUndefined();
    // A part of the index changed by hand in the output.
    const part = [...onDisk(out).keys()].find((file) => file.endsWith('.bin'))!;
    const bytes = readFileSync(path.join(out, part));
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
    writeFileSync(path.join(out, part), bytes);
    expect(update(out, edited).files).toBeUndefined();
    // The edited document's analysis damaged.
    writeWhole(out, base);
    for (const name of readdirSync(storeDir(out))) if (name !== 'index.bin') writeFileSync(path.join(storeDir(out), name), 'damaged');
    expect(update(out, edited).files).toBeUndefined();
    // A build that updated the output but was killed before its store was saved: the old store no longer matches.
    writeWhole(out, base);
    const { files } = update(out, edited);
    emit(out, files!, openSearchStore(out));
    expect(update(out, base).files).toBeUndefined();
  }, 60_000);

  it('reads nothing with trust off (--force), and keeps no store when a part has no digest', () => {
    const out = path.join(root, 'force');
    writeWhole(out, base);
    const store = openSearchStore(out, { trust: false });
    expect(
      updateFromStore(store, SCOPE, sourceOf(base), { keys: base.map(keyOf), mark: MARK }, SYNONYMS, toSearchText, BUDGET),
    ).toBeUndefined();
    const edited = base.map((document, i) => (i === 3 ? { ...document, title: `${document.title} again` } : document));
    const { store: next, files } = update(out, edited);
    expect(files).toBeDefined();
    next.save(new Map());
    expect(update(out, base).files).toBeUndefined();
  });

  it("updates by term in the build's helper thread to the same files, in the same order, as in its own thread", async () => {
    const out = path.join(root, 'in-thread');
    writeWhole(out, base);
    const edited = base.map((document, i) =>
      i === 40
        ? { ...document, body: `${document.body} quagga payment page` }
        : i === 100
          ? { ...document, title: `${document.title} anew` }
          : document,
    );
    const args = (documents: readonly SearchDocument[]) =>
      [
        openSearchStore(out),
        SCOPE,
        sourceOf(documents.map((document) => ({ ...document, body: `<p>${document.body}</p>` }))),
        { keys: documents.map(keyOf), mark: MARK },
        SYNONYMS,
        toSearchText,
        BUDGET,
      ] as const;
    /** Each file as the emit step sees it: written (its digest) or carried (its kept digest and the digest of what it makes). */
    const shape = (files: readonly OutputFile[] | undefined) =>
      files?.map((file) =>
        'carried' in file
          ? [file.path, 'carried', file.carried, digestOf(file.make())]
          : [file.path, 'written', digestOf('body' in file ? file.body : '')],
      );
    const here = updateFromStore(...args(edited));
    const helper = startBuildHelper();
    try {
      const store = openSearchStore(out);
      const [, ...rest] = args(edited);
      const inThread = await updateFromStoreInThread((task) => helper.termUpdate(task), store, ...rest);
      expect(shape(inThread)).toEqual(shape(here));
      expect(inThread!.filter((file) => 'body' in file).length).toBeLessThan(inThread!.length / 2);
      emit(out, inThread!, store);
      expect(onDisk(out)).toEqual(clean(edited, SYNONYMS));
      // A part of the index changed by hand: the helper finds it not intact, and the index is written whole.
      const part = [...onDisk(out).keys()].find((file) => file.endsWith('.bin'))!;
      writeFileSync(path.join(out, part), 'by hand');
      expect(await updateFromStoreInThread((task) => helper.termUpdate(task), ...args(base))).toBeUndefined();
    } finally {
      await helper.close();
    }
  }, 60_000);

  it('takes the parts its helper read ahead when they are those the update names, and reads them again when they are not', async () => {
    const out = path.join(root, 'read-ahead');
    writeWhole(out, base);
    const edit = (documents: readonly SearchDocument[], at: number, words: string) =>
      documents.map((document, i) => (i === at ? { ...document, body: `${document.body} ${words}` } : document));
    /** The update by term in the helper thread, with the store it updated (emit saves that store). */
    const inThread = async (helper: ReturnType<typeof startBuildHelper>, documents: readonly SearchDocument[]) => {
      const store = openSearchStore(out);
      const source = sourceOf(documents.map((document) => ({ ...document, body: `<p>${document.body}</p>` })));
      const keys = { keys: documents.map(keyOf), mark: MARK };
      const files = await updateFromStoreInThread(
        (task) => helper.termUpdate(task),
        store,
        SCOPE,
        source,
        keys,
        SYNONYMS,
        toSearchText,
        BUDGET,
      );
      return { store, files };
    };
    const helper = startBuildHelper();
    try {
      // Read ahead, then a part changed by hand: the update takes the bytes read ahead (intact when read), where
      // a read of its own would find the part not intact and write the index whole.
      helper.readSearchParts(out);
      // The helper takes its messages in order: answered, the read ahead is done.
      expect(await helper.digests([])).toEqual([]);
      const part = [...onDisk(out).keys()].find((file) => file.endsWith('.bin'))!;
      const intact = readFileSync(path.join(out, part));
      writeFileSync(path.join(out, part), 'by hand');
      const first = edit(base, 40, 'quagga payment page');
      const updated = await inThread(helper, first);
      expect(updated.files).toBeDefined();
      writeFileSync(path.join(out, part), intact);
      emit(out, updated.files!, updated.store);
      expect(onDisk(out)).toEqual(clean(first, SYNONYMS));
      // Read ahead of an index that another update then replaced: its parts' digests differ from those the next
      // update names, so that one reads the parts again, and equals a clean write.
      helper.readSearchParts(out);
      const second = edit(first, 90, 'zebra checkout');
      const { store, files } = update(out, second);
      emit(out, files!, store);
      const third = edit(second, 140, 'yak catalog');
      const again = await inThread(helper, third);
      expect(again.files).toBeDefined();
      emit(out, again.files!, again.store);
      expect(onDisk(out)).toEqual(clean(third, SYNONYMS));
    } finally {
      await helper.close();
    }
  }, 60_000);
});
