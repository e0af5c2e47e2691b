/**
 * What the search index is made from (output-tracker.ts): its documents, in order, and the editors'
 * synonyms. The index is carried over whole while they are unchanged (an edit to a field search does not
 * read, or to a page's layout), and made again when any searchable text changes.
 *
 * A document is made from its record's file (title, summary, tags, body, address) and the names of the terms
 * it names; everything else it holds is in the tracker's scope. So its key is its file's digest and its terms,
 * and no document is made or serialized to know whether the index changed: a build reads each record's digest.
 */
import { createHash, hash } from 'node:crypto';
import { type AnyEntry, apiCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { createSearchDocuments, documentTerms, toSearchText } from '../search-documents.ts';
import { ranksByFile } from '../reached-records.ts';
import type { StoredIndex } from './search-store.ts';

type Inputs = { key: string; documents: number; keys?: string[] };

/**
 * The inputs of a steady build that names only what its edit reached (output-tracker.ts): the previous
 * build's, with the reached records' own keys made again, found at their positions. No record's facts
 * changed, so the documents are the same records in the same order, and a record the edit did not reach kept
 * its file and term names. The key is the previous one, chained with what changed (or the same when
 * nothing did): kept in memory only, never compared with a key made otherwise but through such a chain.
 */
function patchedInputs(catalogue: Catalogue, before: Inputs & { keys: string[] }): Inputs | undefined {
  const reached = catalogue.track.reached();
  if (!reached || !catalogue.track.steady()) return undefined;
  const keys = before.keys.slice();
  const offsets = new Map<string, { offset: number; termsOf: (record: AnyEntry) => string }>();
  let offset = 0;
  for (const [key, collection] of apiCollections(catalogue.collections)) {
    if (!collection.api.search) continue;
    offsets.set(key, { offset, termsOf: documentTerms(key, collection, catalogue) });
    offset += catalogue.records[key]!.length;
  }
  if (offset !== keys.length) return undefined;
  let patch = '';
  for (const { record, collection = '' } of reached) {
    const searched = offsets.get(collection);
    if (!searched) continue;
    const file = catalogue.track.digest(record.file);
    if (!file) return undefined;
    const at = searched.offset + ranksByFile(catalogue, collection).get(record.file)!;
    const own = `${file}\t${searched.termsOf(record as AnyEntry)}`;
    if (keys[at] === own) continue;
    keys[at] = own;
    patch += `${at}\t${own}\n`;
  }
  return { key: chained(before.key, patch), documents: before.documents, keys };
}

/** A key chained with the patch of the keys that changed since it was made, or the same key when none did. */
const chained = (key: string, patch: string) => (patch ? hash('sha1', `${key}\n${patch}`, 'base64') : key);

/** What a build's store of the index keeps of the inputs its keys were made under (storedInputs reads it). */
export const inputsMark = (budgetMb: number | undefined, key: string) => `${budgetMb ?? ''}\n${key}`;

/**
 * The inputs from those a build's store of the index kept (search-store.ts), with the records whose file
 * changed since made again: a record whose file has the digest its kept key holds has that key still (its
 * term names are of its file and of the taxonomies, which the store's scope holds). The key is the kept one,
 * chained with what changed, as patchedInputs chains it: kept keys and their key are saved together, so the
 * chain starts from the key of those very keys. Undefined when the store kept none for this budget, or
 * for as many records.
 */
function storedInputs(catalogue: Catalogue, budgetMb: number | undefined, stored: StoredIndex): Inputs | undefined {
  const key = storedKey(stored, budgetMb);
  if (key === undefined) return undefined;
  const keys = stored.keys.slice();
  let at = 0;
  let patch = '';
  for (const [key, collection] of apiCollections(catalogue.collections)) {
    if (!collection.api.search) continue;
    let termsOf: ((record: AnyEntry) => string) | undefined;
    for (const record of catalogue.records[key]!) {
      const file = catalogue.track.digest(record.file);
      const was = keys[at];
      if (!file || was === undefined) return undefined;
      if (!(was.startsWith(file) && was.charCodeAt(file.length) === TAB)) {
        termsOf ??= documentTerms(key, collection, catalogue);
        const own = `${file}\t${termsOf(record)}`;
        keys[at] = own;
        patch += `${at}\t${own}\n`;
      }
      at++;
    }
  }
  if (at !== keys.length) return undefined;
  return { key: chained(key, patch), documents: at, keys };
}

/** The key a store's documents' keys were made under, when it kept them for this budget (inputsMark); else undefined. */
function storedKey(stored: StoredIndex, budgetMb: number | undefined): string | undefined {
  const prefix = inputsMark(budgetMb, '');
  return stored.inputs.startsWith(prefix) ? stored.inputs.slice(prefix.length) : undefined;
}

const TAB = 9;

/**
 * The index's key, its number of documents and, when every document has a file, each one's own key in
 * document order (what a build's store of the index compares to find the documents an edit changed).
 * `stored`: the keys a build's store of the index kept, when there is one.
 */
export function searchInputs(
  catalogue: Catalogue,
  budgetMb: number | undefined,
  stored?: () => StoredIndex | undefined,
  previousStamp?: string,
): Inputs {
  const before = catalogue.track.steady() ? catalogue.track.previousKept<Inputs>(`search inputs\n${budgetMb ?? ''}`) : undefined;
  // The store is read only when the inputs kept in memory (npm run dev) do not answer. A store saved by the very
  // build the tracked outputs are of (the same stamp) holds that build's keys, so a steady edit patches the
  // records it reached, as npm run dev does; any other store is checked record by record.
  const fromStore = () => {
    const kept = stored?.();
    if (!kept) return undefined;
    const key = previousStamp !== undefined && kept.stamp === previousStamp ? storedKey(kept, budgetMb) : undefined;
    return (
      (key !== undefined && patchedInputs(catalogue, { key, documents: kept.keys.length, keys: kept.keys })) ||
      storedInputs(catalogue, budgetMb, kept)
    );
  };
  const inputs =
    (before?.keys && patchedInputs(catalogue, { ...before, keys: before.keys })) || fromStore() || allInputs(catalogue, budgetMb);
  catalogue.track.keep(`search inputs\n${budgetMb ?? ''}`, () => inputs);
  return inputs;
}

/** The inputs from every record's file digest and term names. */
function allInputs(catalogue: Catalogue, budgetMb: number | undefined): Inputs {
  const digest = createHash('sha1').update(`${budgetMb ?? ''}\n${JSON.stringify(catalogue.synonyms)}\n`);
  let documents = 0;
  const each: string[] = [];
  for (const [key, collection] of apiCollections(catalogue.collections)) {
    if (!collection.api.search) continue;
    const termsOf = documentTerms(key, collection, catalogue);
    let keys = '';
    for (const record of catalogue.records[key]!) {
      const file = catalogue.track.digest(record.file);
      // A record the build did not read from a file of its own (none today): its document is the key.
      if (!file) return wholeDocuments(catalogue, budgetMb);
      const own = `${file}\t${termsOf(record)}`;
      each.push(own);
      keys += `${own}\n`;
      documents++;
    }
    digest.update(`${key}\n${keys}`);
  }
  return { key: digest.digest('base64'), documents, keys: each };
}

/** The key from the documents themselves. */
function wholeDocuments(catalogue: Catalogue, budgetMb: number | undefined): { key: string; documents: number } {
  const documents = createSearchDocuments(catalogue, (body) => catalogue.memo('search text', body, () => toSearchText(body)));
  const digest = createHash('sha1').update(`${budgetMb ?? ''}\n${JSON.stringify(catalogue.synonyms)}\n`);
  for (const document of documents) digest.update(`${JSON.stringify(document)}\n`);
  return { key: digest.digest('base64'), documents: documents.length };
}
