/**
 * The search index: one document per published record of each searchable collection (the collections table
 * says which, and which fields), written by the index writer (generator/search) as the parts under SEARCH_DIR
 * that the edge handler reads per query. A pure function of the catalogue, like the other outputs.
 */
import { analyseField, type SearchIndexFile } from '../../../search/index-writer.ts';
import { checkSearchBytes, keptDocuments, keptSearchIndexFiles, type SearchHolder, sizeOf } from './search-state.ts';
import { createSynonymTable, type SynonymTable } from '../../../search/synonyms.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { createSearchDocuments, searchText } from '../search-documents.ts';
import type { BuildHelper } from '../../helper/build-helper.ts';
import { DEFAULT_SEARCH_INDEX_BUDGET_MB } from '../../build-settings.ts';

/** The editors' synonyms as the index holds them, or null when there are none. */
export function synonymTable(catalogue: Catalogue): SynonymTable | null {
  const { synonyms } = catalogue;
  return synonyms && (synonyms.groups.length > 0 || synonyms.one_way.length > 0) ? createSynonymTable(synonyms) : null;
}

/** Throws when the index's parts together are larger than the budget (in megabytes). */
export function checkSearchBudget(files: readonly SearchIndexFile[], budgetMb: number): void {
  checkSearchBytes(
    files.reduce((sum, { body }) => sum + sizeOf(body), 0),
    budgetMb,
  );
}

/**
 * Builds the index's parts in this thread; throws when they are over the budget. With a build cache that
 * outlives the build (`npm run dev`'s), the index is kept in it and updated by term, and with `keys` (each
 * document's inputs, search-inputs.ts) so are the documents, by record (search-state.ts).
 */
export function buildSearchIndex(
  catalogue: Catalogue,
  budgetMb = DEFAULT_SEARCH_INDEX_BUDGET_MB,
  keys?: readonly string[],
): { files: OutputFile[]; documents: number } {
  const holder = catalogue.memo('search index', 'kept', (): SearchHolder => ({}));
  const kept = keys && keptDocuments(holder, catalogue.siteUrl, keys);
  const documents = createSearchDocuments(catalogue, searchText(catalogue.memo), kept?.known);
  kept?.keep(documents);
  // Analyses are kept between rebuilds (and within one build), so only changed text is analysed again.
  const analyse = (text: string) => catalogue.memo('search analysis', text, () => analyseField(text));
  return { files: keptSearchIndexFiles(holder, documents, analyse, synonymTable(catalogue), budgetMb), documents: documents.length };
}

/** buildSearchIndex's files, each with its bytes (what a carried-over group makes when it must). */
export const searchIndexBodies = (catalogue: Catalogue, budgetMb?: number): OutputFile[] =>
  buildSearchIndex(catalogue, budgetMb).files.map((file) => ('make' in file ? { path: file.path, body: file.make() } : file));

/**
 * Builds the index's parts in the build's helper thread, beside the rest of the build: the same functions
 * on the same documents, so the same bytes. Resolves with the files, or rejects with the writer's error
 * (the budget's included).
 */
export function buildSearchIndexInHelper(
  helper: BuildHelper,
  catalogue: Catalogue,
  budgetMb = DEFAULT_SEARCH_INDEX_BUDGET_MB,
): { files: Promise<OutputFile[]>; documents: number } {
  // The helper makes each body's search text itself: one less pass over every body in this thread.
  const documents = createSearchDocuments(catalogue, (body) => body);
  return { files: helper.searchIndex(documents, budgetMb, synonymTable(catalogue)), documents: documents.length };
}
