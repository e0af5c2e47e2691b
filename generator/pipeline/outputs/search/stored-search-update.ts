/**
 * The search index of `npm run build` updated by term from the state a previous build kept on disk
 * (stored-search.ts): the edited documents' previous analyses from the store, the index's own parts read
 * back from the output (each only if it has its kept digest), then the update every `npm run dev` rebuild
 * runs (index-update.ts). Parts the update did not change are carried over with their kept digests.
 */
import { cardsPath, type SearchDocument, SEARCH_DIR } from '../../../search/index-format.ts';
import { type SearchIndexUpdate, updateSearchIndex } from '../../../search/index-update.ts';
import {
  analyseField,
  cardsFile,
  CARDS_PER_FILE,
  documentAnalyser,
  type FieldAnalysis,
  type SearchIndexState,
} from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import type { OutputFile } from '../output-file.ts';
import { layoutFromParts } from './index-from-parts.ts';
import { checkSearchBytes, sizeOf } from './search-state.ts';
import {
  partOf,
  readAnalyses,
  readIntactPart,
  readStoredIndex,
  type SearchStore,
  type StoredAnalyses,
  type StoredIndex,
} from './search-store.ts';

const CARDS = `${SEARCH_DIR}/cards/`;

/** The previous analyses of the documents at `changed` (indexes of `stored`), or undefined when one is not kept. */
function previousAnalyses(store: SearchStore, stored: StoredIndex, changed: readonly number[]) {
  const parts = new Map<number, StoredAnalyses>();
  const analyses = new Map<number, FieldAnalysis[]>();
  for (const was of changed) {
    const part = partOf(stored.ids[was]!);
    if (!parts.has(part)) parts.set(part, readAnalyses(store.outDir, part, stored.scope));
    const entry = parts.get(part)!.find(([id, key]) => id === stored.ids[was] && key === stored.keys[was]);
    if (!entry) return undefined;
    analyses.set(was, JSON.parse(entry[2]) as FieldAnalysis[]);
  }
  return { parts, analyses };
}

/** The index's parts in the output (cards aside), each only if it still has its kept digest. */
function readParts(store: SearchStore, stored: StoredIndex): Map<string, string | Uint8Array> | undefined {
  const decoder = new TextDecoder();
  const files = new Map<string, string | Uint8Array>();
  for (const [path, [digest]] of stored.digests) {
    if (path.startsWith(CARDS)) continue;
    const bytes = readIntactPart(store.outDir, path, digest);
    if (!bytes) return undefined;
    files.set(path, path.endsWith('.bin') ? bytes : decoder.decode(bytes));
  }
  return files;
}

/**
 * The index's files for `documents` (bodies still Markdown; `searchText` makes an edited one's text),
 * updated by term from the store; undefined when the store cannot be trusted for them.
 */
export function updateFromStore(
  store: SearchStore,
  scope: string,
  documents: readonly SearchDocument[],
  keys: readonly string[],
  synonyms: SynonymTable | null,
  searchText: (markdown: string) => string,
  budgetMb: number,
): OutputFile[] | undefined {
  const stored = store.trust ? readStoredIndex(store.outDir, scope) : undefined;
  if (!stored || stored.synonyms !== JSON.stringify(synonyms) || stored.ids.length !== documents.length) return undefined;
  const was = new Map(stored.ids.map((id, index) => [id, index]));
  const changed: [number, number][] = [];
  const now = documents.map((document, index) => {
    const before = was.get(document.id);
    if (before === undefined) return undefined;
    if (stored.keys[before] === keys[index]) return document;
    changed.push([before, index]);
    return { ...document, body: searchText(document.body) };
  });
  if (now.includes(undefined)) return undefined;
  const previous = previousAnalyses(
    store,
    stored,
    changed.map(([before]) => before),
  );
  const files = previous && readParts(store, stored);
  const layout = files && layoutFromParts(files);
  if (!previous || !files || !layout) return undefined;
  const state: SearchIndexState = {
    documents: stored.ids.map((id) => ({ id }) as SearchDocument),
    lengths: stored.lengths,
    numbers: new Map(stored.ids.map((id, index) => [id, stored.numbers[index]!])),
    synonyms,
    ...layout,
    files,
  };
  const current = now as SearchDocument[];
  const analysed = new Map<string, FieldAnalysis>();
  const analyse = (text: string, field: string) => {
    const analysis = analysed.get(`${field}\n${text}`) ?? analyseField(text);
    analysed.set(`${field}\n${text}`, analysis);
    return analysis;
  };
  const changedSet = new Set(changed.map(([before]) => before));
  const update = updateSearchIndex(state, current, analyse, synonyms, {
    same: (index) => !changedSet.has(index),
    analysis: (index) => previous.analyses.get(index)!,
  });
  // Written whole after all (an average moved to another grid point): the documents left unchanged still
  // hold Markdown, so the caller writes the index whole from their text, keeping the store anew.
  if (update.whole) return undefined;
  return updatedFiles(store, { stored, scope, current, keys, synonyms, previous: previous.parts, changed, analyse, update, budgetMb });
}

interface Updated {
  stored: StoredIndex;
  scope: string;
  current: readonly SearchDocument[];
  keys: readonly string[];
  synonyms: SynonymTable | null;
  /** The analysis parts read, by index. */
  previous: Map<number, StoredAnalyses>;
  /** The edited documents: their index in `stored`, and in `current`. */
  changed: [was: number, index: number][];
  analyse: (text: string, field: string) => FieldAnalysis;
  update: SearchIndexUpdate;
  budgetMb: number;
}

/** The update's files (the unchanged ones carried over with their kept digests), and the store it leaves to save. */
function updatedFiles(store: SearchStore, u: Updated): OutputFile[] {
  const { stored, current, update } = u;
  const written = new Set(update.written.map(({ path }) => path));
  const sizes = new Map<string, number>();
  const files: OutputFile[] = [];
  for (const [path, body] of update.state.files) {
    const kept = written.has(path) ? undefined : stored.digests.get(path);
    sizes.set(path, kept?.[1] ?? sizeOf(body));
    files.push(kept ? { path, carried: kept[0], make: () => body } : { path, body });
  }
  let byNumber: SearchDocument[] | undefined;
  const card = (chunk: number) => {
    if (!byNumber) {
      byNumber = new Array<SearchDocument>(current.length);
      for (const document of current) byNumber[update.state.numbers.get(document.id)!] = document;
    }
    return cardsFile(chunk, (number) => byNumber![number]!).body;
  };
  for (let chunk = 0; chunk < Math.ceil(current.length / CARDS_PER_FILE); chunk++) {
    const path = cardsPath(chunk);
    if (update.state.files.has(path)) continue;
    const kept = stored.digests.get(path);
    const body = kept ? undefined : card(chunk);
    sizes.set(path, kept?.[1] ?? sizeOf(body!));
    files.push(kept ? { path, carried: kept[0], make: () => card(chunk) } : { path, body: body! });
  }
  checkSearchBytes(
    [...sizes.values()].reduce((sum, size) => sum + size, 0),
    u.budgetMb,
  );
  store.keepUpdate({ stored: nextStored(u), sizes, parts: nextParts(u) });
  return files;
}

/** The kept documents after the update. */
function nextStored(u: Updated): Omit<StoredIndex, 'digests'> {
  const { current, update } = u;
  return {
    scope: u.scope,
    ids: current.map(({ id }) => id),
    keys: [...u.keys],
    numbers: Uint32Array.from(current, ({ id }) => update.state.numbers.get(id)!),
    lengths: update.state.lengths,
    synonyms: JSON.stringify(u.synonyms),
  };
}

/** The analysis parts the edited documents are in, with their analyses now under their keys now. */
function nextParts(u: Updated): Map<number, StoredAnalyses> {
  const analyser = documentAnalyser(u.analyse, u.synonyms);
  const edited = new Set(u.changed.map(([was]) => u.stored.ids[was]!));
  const parts = new Map([...u.previous].map(([index, entries]) => [index, entries.filter(([id]) => !edited.has(id))]));
  for (const [, index] of u.changed) {
    const document = u.current[index]!;
    parts.get(partOf(document.id))!.push([document.id, u.keys[index]!, JSON.stringify(analyser(document))]);
  }
  return parts;
}
