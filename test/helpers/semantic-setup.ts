/**
 * Vitest global setup: makes the sentence model's vectors for the content folders the suites build with
 * semantic search on (the real content, the golden copy), once, before any test file runs. Without it, on a
 * fresh checkout each of those suites would embed the same text at the same moment. The vectors go to the
 * build's own cache (docs/semantic-search.md); the builds then find them there.
 */
import { buildSemanticFiles } from '../../generator/pipeline/outputs/semantic/semantic-files.ts';
import { FIXTURES_DIR } from './fixture.ts';
import { loadSearchDocuments } from './search-documents.ts';

export default async function setup(): Promise<void> {
  const folders = ['content', `${FIXTURES_DIR}/golden-content`];
  const documents = (await Promise.all(folders.map(loadSearchDocuments))).flat();
  try {
    await buildSemanticFiles(documents, { enabled: true });
  } catch (error) {
    // The semantic suites say what is missing (run npm ci); the other suites run regardless.
    console.warn(error instanceof Error ? error.message : String(error));
  }
}
