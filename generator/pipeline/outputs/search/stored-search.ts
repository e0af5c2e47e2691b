/**
 * The search index of `npm run build` with its state kept on disk (search-store.ts): written whole the
 * first time (keeping each document's analysis), then updated by term from what was kept and the output's
 * own parts (index-from-parts.ts), byte for byte what a whole write gives (test/pipeline/stored-search.test.ts).
 * Whatever cannot be trusted (no store, another scope or synonyms, documents added or removed, a part
 * changed by hand, an analysis missing) makes the caller write the index whole, keeping the state anew.
 */
import type { SearchDocument } from '../../../search/index-format.ts';
import { type SearchIndexFile, startIndexWrite } from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { BuildHelper } from '../../helper/build-helper.ts';
import type { OutputFile } from '../output-file.ts';
import { checkSearchBudget, synonymTable } from './search-file.ts';
import { createSearchDocuments, searchDocumentSource, toSearchText } from '../search-documents.ts';
import { type KeptWhole, partOf, type SearchStore, type StoredAnalyses, stageAnalyses, stagingDir } from './search-store.ts';
import { updateFromStore, updateFromStoreInThread } from './stored-search-update.ts';
/** A whole write that keeps what the store needs, its documents given as they come (startIndexWrite). */
export interface IndexKeeping {
  /** Analyses the document (its body as search text) under its key; keeps its analysis, not its texts. */
  add(document: SearchDocument, key: string): void;
  finish(): { files: SearchIndexFile[]; kept: KeptWhole };
}

/** A whole write keeping each document's analysis, by store part, for the store on disk (staged in `staging`). */
export function startIndexKeeping(synonyms: SynonymTable | null, { scope, staging }: { scope: string; staging: string }): IndexKeeping {
  const byPart = new Map<number, StoredAnalyses>();
  const ids: string[] = [];
  let key = '';
  const write = startIndexWrite(undefined, synonyms, (index, fields) => {
    const id = ids[index]!;
    const part = partOf(id);
    const entries = byPart.get(part) ?? [];
    byPart.set(part, entries);
    entries.push([id, key, JSON.stringify(fields)]);
  });
  return {
    add(document, documentKey) {
      ids.push(document.id);
      key = documentKey;
      write.add(document);
    },
    finish() {
      const state = write.finish();
      const numbers = Uint32Array.from(ids, (id) => state.numbers.get(id)!);
      stageAnalyses(staging, scope, byPart);
      return {
        files: [...state.files].map(([path, body]) => ({ path, body })),
        kept: { numbers, lengths: state.lengths, staged: staging },
      };
    },
  };
}

/**
 * The index of `documents` (bodies as search text) written whole, with what the store keeps of it. The
 * documents are the caller's own copies, given up: each body is let go once analysed (only the analysis is
 * kept, and the writer's state is not), so a whole build's bodies are never held beside its analyses.
 */
export function writeIndexKeeping(
  documents: SearchDocument[],
  keys: readonly string[],
  synonyms: SynonymTable | null,
  where: { scope: string; staging: string },
): { files: SearchIndexFile[]; kept: KeptWhole } {
  const keeping = startIndexKeeping(synonyms, where);
  documents.forEach((document, index) => {
    keeping.add(document, keys[index]!);
    document.body = '';
  });
  return keeping.finish();
}

/**
 * The index of the catalogue's documents for a build with a store: updated by term from it, or else written
 * whole (in the helper thread when there is one) with what the store keeps of it.
 */
export function storedSearch(
  catalogue: Catalogue,
  helper: BuildHelper | undefined,
  budgetMb: number,
  { store, scope }: { store: SearchStore; scope: string },
  inputs: { keys: readonly string[]; mark: string },
): OutputFile[] | Promise<OutputFile[]> {
  const synonyms = synonymTable(catalogue);
  const searchText = (body: string) => catalogue.memo('search text', body, () => toSearchText(body));
  const args = [store, scope, searchDocumentSource(catalogue, (body) => body), inputs, synonyms, searchText, budgetMb] as const;
  const whole = () => writeWhole(catalogue, helper, budgetMb, { store, scope, inputs, synonyms, searchText });
  // With a helper thread, the update by term runs there while this thread makes the other outputs.
  if (helper) return updateFromStoreInThread((task) => helper.termUpdate(task), ...args).then((updated) => updated ?? whole());
  return updateFromStore(...args) ?? whole();
}

/** The index written whole (in the helper thread when there is one), keeping the store anew. */
function writeWhole(
  catalogue: Catalogue,
  helper: BuildHelper | undefined,
  budgetMb: number,
  {
    store,
    scope,
    inputs,
    synonyms,
    searchText,
  }: {
    store: SearchStore;
    scope: string;
    inputs: { keys: readonly string[]; mark: string };
    synonyms: SynonymTable | null;
    searchText: (body: string) => string;
  },
): OutputFile[] | Promise<OutputFile[]> {
  const { keys } = inputs;
  const documents = createSearchDocuments(catalogue, (body) => body);
  const keep = (written: { files: OutputFile[]; kept: KeptWhole }) => {
    store.keepWhole(scope, documents, inputs, synonyms, written.files as SearchIndexFile[], written.kept);
    return written.files;
  };
  const staging = stagingDir(store.outDir);
  if (helper) return helper.searchIndexKeeping(documents, budgetMb, synonyms, { keys, scope, staging }).then(keep);
  const texts = documents.map((document) => ({ ...document, body: searchText(document.body) }));
  const written = writeIndexKeeping(texts, keys, synonyms, { scope, staging });
  checkSearchBudget(written.files, budgetMb);
  return keep(written);
}
