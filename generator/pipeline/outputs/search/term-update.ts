/**
 * The search index's update by term after an edit, as either of a build's threads runs it: the index's parts
 * read back from the output (each only if it still has its kept digest), then the update every `npm run dev`
 * rebuild runs (index-update.ts). The build's helper thread runs it while the build's own thread makes the
 * other outputs (stored-search-update.ts, build-helper.ts); that thread then changes its own copy of the
 * parts as the update did (updatedParts).
 */
import { SEARCH_DIR } from '../../../search/index-format.ts';
import { type TermEdits, updateTerms } from '../../../search/index-update.ts';
import { type Card, cardsFile, CARDS_PER_FILE, type SearchIndexFile } from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import { layoutFromParts } from './index-from-parts.ts';
import { readIntactPart, readStoredIndex, type StoredIndex } from './search-store.ts';
import { nativeBytesEqual } from './native-bytes-equal.ts';

const CARDS = `${SEARCH_DIR}/cards/`;

/** The index's parts but the cards, each with its kept digest, as the store keeps them. */
export const partsOf = (stored: StoredIndex): [path: string, digest: string][] =>
  [...stored.digests].flatMap(([path, [digest]]) => (path.startsWith(CARDS) ? [] : [[path, digest] as [string, string]]));

const decoder = new TextDecoder();
/** A part's bytes as the index takes them: a binary part as bytes, any other as text. */
const partBody = (path: string, bytes: Uint8Array) => (path.endsWith('.bin') ? bytes : decoder.decode(bytes));

/** The index's `parts` in the output, each only if it still has its kept digest. */
export function readParts(outDir: string, parts: readonly [path: string, digest: string][]): Map<string, string | Uint8Array> | undefined {
  const files = new Map<string, string | Uint8Array>();
  for (const [path, digest] of parts) {
    const bytes = readIntactPart(outDir, path, digest);
    if (!bytes) return undefined;
    files.set(path, partBody(path, bytes));
  }
  return files;
}

/** The index's parts read before their update was asked for, and which parts they are. */
export interface ReadAhead {
  outDir: string;
  parts: [path: string, digest: string][];
  files: Map<string, string | Uint8Array>;
}

/**
 * The index's parts in `outDir` as its store names them, read by the build's helper thread while the build's
 * thread loads and validates the content (build-site.ts): 41 MB at 100,000 documents, some 70 ms that the
 * update by term spent on the build's critical path, in a thread whose core was idle. Undefined without a
 * store, or with a part not intact.
 */
export function readAhead(outDir: string): ReadAhead | undefined {
  const stored = readStoredIndex(outDir);
  const parts = stored && partsOf(stored);
  const files = parts && readParts(outDir, parts);
  return files && { outDir, parts: parts!, files };
}

/** The files read ahead, when they are the very parts, with the very digests, that `task` updates. */
export function filesReadAhead(task: TermUpdate, ahead: ReadAhead | undefined): Map<string, string | Uint8Array> | undefined {
  if (ahead?.outDir !== task.outDir || ahead.parts.length !== task.parts.length) return undefined;
  for (let i = 0; i < task.parts.length; i++) {
    const [path, digest] = task.parts[i]!;
    if (ahead.parts[i]![0] !== path || ahead.parts[i]![1] !== digest) return undefined;
  }
  return ahead.files;
}

/**
 * An update by term as either thread runs it (termUpdate): the edits, and where the index's parts are. The
 * build's helper thread takes it while the build's own makes the other outputs (build-helper.ts).
 */
export interface TermUpdate {
  outDir: string;
  /** The index's parts but the cards, each with its kept digest. */
  parts: [path: string, digest: string][];
  count: number;
  lengths: Uint32Array;
  changed: TermEdits['changed'];
  /** Every document of the edited documents' card files, by number. */
  cards: [number, Card][];
  synonyms: SynonymTable | null;
}

/** What an update by term writes and removes of the index's parts; undefined when a part is not intact, or the index is to be written whole. */
export type TermUpdated = { written: SearchIndexFile[]; removed: string[] } | undefined;

/**
 * The update by term of the index's parts as the output holds them (readParts), or of `files` as read already,
 * which it changes as the update writes and removes parts.
 */
export function termUpdate(task: TermUpdate, files = readParts(task.outDir, task.parts)): TermUpdated {
  const layout = files && layoutFromParts(files);
  if (!files || !layout) return undefined;
  const cards = new Map(task.cards);
  const edits = { count: task.count, lengths: task.lengths, changed: task.changed, byNumber: (number: number) => cards.get(number) };
  const update = updateTerms(
    { meta: layout.meta, records: layout.records, parts: layout.parts, files },
    edits,
    task.synonyms,
    nativeBytesEqual,
  );
  return update && { written: update.written, removed: update.removed };
}

/** Every document of the card files `chunks`, as the cards show them. */
export function cardsOf(chunks: readonly number[], count: number, byNumber: (number: number) => Card | undefined): [number, Card][] {
  const cards: [number, Card][] = [];
  for (const chunk of chunks)
    for (let number = chunk * CARDS_PER_FILE; number < Math.min(count, (chunk + 1) * CARDS_PER_FILE); number++) {
      const { id, stored } = byNumber(number)!;
      cards.push([number, { id, stored }]);
    }
  return cards;
}

/** A part's body, or for a part this thread did not read, how to read it back when asked (partRead). */
export type PartBody = string | Uint8Array | (() => string | Uint8Array);

/** A part as the output holds it, checked against its kept digest: read only if the build must write it again. */
const partRead = (outDir: string, path: string, digest: string) => () => {
  const bytes = readIntactPart(outDir, path, digest);
  if (!bytes) throw new Error(`${path} in the output changed while the build ran; run the build again`);
  return partBody(path, bytes);
};

/**
 * The index's parts after an update by term in another thread, which read and changed its own copy
 * (index-update.ts updateTerms): the parts it wrote, then the card files of the edited documents (made here,
 * the same bytes), then the parts it removed, in that order, so the map's order is the one updateTerms
 * leaves (the output's list of the index's files follows it). The parts it did not change are not read here:
 * they are carried over with their kept digests.
 */
export function updatedParts(
  outDir: string,
  parts: readonly [path: string, digest: string][],
  update: NonNullable<TermUpdated>,
  { chunks, byNumber }: { chunks: readonly number[]; byNumber: (number: number) => Card | undefined },
): Map<string, PartBody> {
  const files = new Map<string, PartBody>(parts.map(([path, digest]) => [path, partRead(outDir, path, digest)]));
  for (const { path, body } of update.written) if (!path.startsWith(CARDS)) files.set(path, body);
  for (const chunk of chunks) {
    const card = cardsFile(chunk, byNumber);
    files.set(card.path, card.body);
  }
  for (const path of update.removed) files.delete(path);
  return files;
}
