/**
 * What the search index is made from (output-tracker.ts): its documents, in order, and the editors'
 * synonyms. The index is carried over whole while they are unchanged (an edit to a field search does not
 * read, or to a page's layout), and made again when any searchable text changes.
 *
 * A document is made from its record's file (title, summary, tags, body, address) and the names of the terms
 * it names; everything else it holds is in the tracker's scope. So its key is its file's digest and its terms,
 * and no document is made or serialized to know whether the index changed: a build reads each record's digest.
 */
import { createHash } from 'node:crypto';
import { apiCollections } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { createSearchDocuments, documentTerms, toSearchText } from '../search-documents.ts';

/**
 * The index's key, its number of documents and, when every document has a file, each one's own key in
 * document order (what a build's store of the index compares to find the documents an edit changed).
 */
export function searchInputs(catalogue: Catalogue, budgetMb: number | undefined): { key: string; documents: number; keys?: string[] } {
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
