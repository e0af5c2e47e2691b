/**
 * The search index of `npm run build` updated by term from the state a previous build kept on disk
 * (stored-search.ts): the edited documents' previous analyses from the store, then the update by term of the
 * index's own parts read back from the output (term-update.ts), in this thread or the build's helper thread.
 * Parts the update did not change are carried over with their kept digests.
 */
import { cardsPath, type SearchDocument } from '../../../search/index-format.ts';
import type { TermEdits } from '../../../search/index-update.ts';
import {
  type Card,
  cardsFile,
  CARDS_PER_FILE,
  documentAnalyser,
  type FieldAnalysis,
  type SearchIndexFile,
} from '../../../search/index-writer.ts';
import { SEARCH_FIELDS } from '../../../search/ranking.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import type { OutputFile } from '../output-file.ts';
import type { SearchDocumentSource } from '../search-documents.ts';
import { checkSearchBytes, sizeOf } from './search-state.ts';
import { partOf, readAnalyses, type SearchStore, type StoredAnalyses, type StoredIndex } from './search-store.ts';
import { cardsOf, type PartBody, partsOf, readParts, type TermUpdate, type TermUpdated, termUpdate, updatedParts } from './term-update.ts';

const FIELDS = SEARCH_FIELDS.length;

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

/**
 * Where each document now was in the kept index. A document whose key is the one kept at its place is the
 * one kept there: the key holds its file's digest, and the digest its file's path and text, which make its
 * id. So only an edited document's id is looked at, and while each is in its place, so is every document;
 * else (an edit reordered records) each one is found by id. Undefined when one is new.
 */
function placesOf(stored: StoredIndex, source: SearchDocumentSource, edited: readonly number[]): Int32Array | undefined {
  const places = new Int32Array(source.count);
  for (let index = 0; index < places.length; index++) places[index] = index;
  if (edited.every((index) => stored.ids[index] === source.idAt(index))) return places;
  const byId = new Map(stored.ids.map((previous, at) => [previous, at]));
  for (let index = 0; index < source.count; index++) {
    const was = byId.get(source.idAt(index));
    if (was === undefined) return undefined;
    places[index] = was;
  }
  return places;
}

/**
 * The index's files for the documents of `source` (bodies still Markdown; `searchText` makes an edited one's
 * text), updated by term from the store; undefined when the store cannot be trusted for them. Only the edited
 * documents (their keys differ from the kept ones) and their cards' neighbours are made.
 */
export function updateFromStore(...args: UpdateArguments): OutputFile[] | undefined {
  const update = prepareUpdate(...args);
  if (!update) return undefined;
  const files = readParts(update.task.outDir, update.task.parts);
  return update.finish(files, files && termUpdate(update.task, files));
}

/**
 * The same, with the update by term run by `inThread` (the build's helper thread: build-helper.ts) while this
 * thread makes the other outputs; this thread reads the index's parts and changes them as the update did.
 */
export async function updateFromStoreInThread(
  inThread: (task: TermUpdate) => Promise<TermUpdated>,
  ...args: UpdateArguments
): Promise<OutputFile[] | undefined> {
  const prepared = prepareUpdate(...args);
  if (!prepared) return undefined;
  const { task, chunks, byNumber, finish } = prepared;
  const update = await inThread(task);
  return finish(update && updatedParts(task.outDir, task.parts, update, { chunks, byNumber }), update);
}

type UpdateArguments = [
  store: SearchStore,
  scope: string,
  source: SearchDocumentSource,
  inputs: { keys: readonly string[]; mark: string },
  synonyms: SynonymTable | null,
  searchText: (markdown: string) => string,
  budgetMb: number,
];

/** The update's task for either thread, and what makes the files once its parts are updated; undefined when the store cannot be trusted. */
function prepareUpdate(...[store, scope, source, inputs, synonyms, searchText, budgetMb]: UpdateArguments) {
  const { keys } = inputs;
  const stored = store.stored(scope);
  if (!stored || stored.synonyms !== JSON.stringify(synonyms) || stored.ids.length !== source.count) return undefined;
  // Plain loops over every document: a list or a call of their own for each of 100,000 cost an edit some 40 ms.
  const keyed: number[] = [];
  for (let index = 0; index < keys.length; index++) if (keys[index] !== stored.keys[index]) keyed.push(index);
  const places = placesOf(stored, source, keyed);
  if (!places) return undefined;
  const changed: [number, number][] = [];
  for (let index = 0; index < places.length; index++)
    if (stored.keys[places[index]!] !== keys[index]) changed.push([places[index]!, index]);
  const previous = previousAnalyses(
    store,
    stored,
    changed.map(([was]) => was),
  );
  if (!previous) return undefined;
  const moved = places.some((was, index) => was !== index);
  const numbers = moved ? Uint32Array.from(places, (was) => stored.numbers[was]!) : stored.numbers;
  const lengths = moved ? new Uint32Array(stored.lengths.length) : stored.lengths.slice();
  if (moved)
    for (const [index, was] of places.entries()) lengths.set(stored.lengths.subarray(was * FIELDS, (was + 1) * FIELDS), index * FIELDS);
  const analyser = documentAnalyser(undefined, synonyms);
  const edited = new Map<number, SearchDocument>();
  const analyses = new Map<number, string>();
  const edits: TermEdits['changed'] = [];
  for (const [was, index] of changed) {
    const markdown = source.at(index);
    const document = { ...markdown, body: searchText(markdown.body) };
    edited.set(index, document);
    const now = analyser(document);
    analyses.set(index, JSON.stringify(now));
    now.forEach(({ length }, fieldId) => {
      lengths[index * FIELDS + fieldId] = length;
    });
    edits.push({ number: numbers[index]!, old: previous.analyses.get(was)!, now });
  }
  const order = new Int32Array(source.count);
  numbers.forEach((number, index) => {
    order[number] = index;
  });
  const byNumber = (number: number) => (number < source.count ? (edited.get(order[number]!) ?? source.at(order[number]!)) : undefined);
  const chunks = [...new Set(edits.map(({ number }) => Math.floor(number / CARDS_PER_FILE)))];
  const task: TermUpdate = {
    outDir: store.outDir,
    parts: partsOf(stored),
    count: source.count,
    lengths,
    changed: edits,
    cards: cardsOf(chunks, source.count, byNumber),
    synonyms,
  };
  const ids = moved ? Array.from(places, (_, index) => source.idAt(index)) : stored.ids;
  const next = { scope, ids, keys: [...keys], inputs: inputs.mark, numbers, lengths, synonyms: stored.synonyms };
  const parts = nextParts(previous.parts, changed, { ids, keys, analyses });
  // Written whole after all (a part not intact, an average moved to another grid point): the caller writes it from every document.
  const finish = (files: ReadonlyMap<string, PartBody> | undefined, update: TermUpdated) =>
    files && update
      ? updatedFiles(store, { stored, files, written: update.written, count: source.count, byNumber, budgetMb, next, parts })
      : undefined;
  return { task, chunks, byNumber, finish };
}

interface Updated {
  stored: StoredIndex;
  /** The index's parts after the update (cards aside but the edited ones'). */
  files: ReadonlyMap<string, PartBody>;
  written: readonly SearchIndexFile[];
  count: number;
  byNumber: (number: number) => Card | undefined;
  budgetMb: number;
  /** The kept documents after the update, and the analysis parts to save. */
  next: Omit<StoredIndex, 'digests'>;
  parts: Map<number, StoredAnalyses>;
}

/** The update's files (the unchanged ones carried over with their kept digests), and the store it leaves to save. */
function updatedFiles(store: SearchStore, u: Updated): OutputFile[] {
  const { stored } = u;
  const written = new Set(u.written.map(({ path }) => path));
  const sizes = new Map<string, number>();
  const files: OutputFile[] = [];
  const bodyOf = (body: PartBody) => (typeof body === 'function' ? body() : body);
  for (const [path, body] of u.files) {
    const kept = written.has(path) ? undefined : stored.digests.get(path);
    if (kept) {
      files.push({ path, carried: kept[0], make: () => bodyOf(body) });
      sizes.set(path, kept[1]);
    } else {
      const made = bodyOf(body);
      files.push({ path, body: made });
      sizes.set(path, sizeOf(made));
    }
  }
  const card = (chunk: number) => cardsFile(chunk, u.byNumber).body;
  for (let chunk = 0; chunk < Math.ceil(u.count / CARDS_PER_FILE); chunk++) {
    const path = cardsPath(chunk);
    if (u.files.has(path)) continue;
    const kept = stored.digests.get(path);
    const body = kept ? undefined : card(chunk);
    sizes.set(path, kept?.[1] ?? sizeOf(body!));
    files.push(kept ? { path, carried: kept[0], make: () => card(chunk) } : { path, body: body! });
  }
  checkSearchBytes(
    [...sizes.values()].reduce((sum, size) => sum + size, 0),
    u.budgetMb,
  );
  store.keepUpdate({ stored: u.next, sizes, parts: u.parts });
  return files;
}

/** The analysis parts the edited documents are in, with their analyses now under their keys now. */
function nextParts(
  previous: ReadonlyMap<number, StoredAnalyses>,
  changed: readonly [was: number, index: number][],
  now: { ids: readonly string[]; keys: readonly string[]; analyses: ReadonlyMap<number, string> },
): Map<number, StoredAnalyses> {
  const edited = new Set(changed.map(([, index]) => now.ids[index]!));
  const parts = new Map([...previous].map(([part, entries]) => [part, entries.filter(([id]) => !edited.has(id))]));
  for (const [, index] of changed) {
    const id = now.ids[index]!;
    parts.get(partOf(id))!.push([id, now.keys[index]!, now.analyses.get(index)!]);
  }
  return parts;
}
