/**
 * What the search index is made from (output-tracker.ts): its documents, in order, and the editors'
 * synonyms. The index is carried over whole while they are unchanged (an edit to a field search does not
 * read, or to a page's layout), and made again when any searchable text changes.
 */
import { createHash } from 'node:crypto';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { createSearchDocuments, toSearchText } from './search-file.ts';

export function searchInputs(catalogue: Catalogue, budgetMb: number | undefined): { key: string; documents: number } {
  const documents = createSearchDocuments(catalogue, (body) => catalogue.memo('search text', body, () => toSearchText(body)));
  const digest = createHash('sha1').update(`${budgetMb ?? ''}\n${JSON.stringify(catalogue.synonyms)}\n`);
  for (const document of documents) digest.update(`${JSON.stringify(document)}\n`);
  return { key: digest.digest('base64'), documents: documents.length };
}
