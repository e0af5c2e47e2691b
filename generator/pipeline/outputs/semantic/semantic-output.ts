/**
 * The semantic index as a build output: started beside the rest of the build (its embedding runs in its own
 * threads), awaited last. The documents are the search index's, made the same way.
 */
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { createSearchDocuments, toSearchText } from '../search-documents.ts';
import { buildSemanticFiles } from './semantic-files.ts';

/** The semantic index's files, on their way; a failure (the model missing) rejects when awaited. */
export function buildSemanticIndex(catalogue: Catalogue, enabled: boolean): Promise<OutputFile[]> {
  const documents = enabled
    ? createSearchDocuments(catalogue, (body) => catalogue.memo('search text', body, () => toSearchText(body)))
    : [];
  const files = buildSemanticFiles(documents, { enabled });
  // Awaited at the end of the build; until then a failure must not count as unhandled.
  files.catch(() => {});
  return files;
}
