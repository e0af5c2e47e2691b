/**
 * What `npm run build` keeps of the search index beside the output (`<out>.search/`, safe to delete), so the
 * next build updates the index by term (index-update.ts) instead of writing it whole:
 * - `index.bin`: the documents in build order (each one's id and key: its file's digest and its terms'
 *   names), their numbers and field lengths, the synonyms, the scope they were made under, and the digest
 *   of every part of the index as the emit step put it in place;
 * - 256 parts by a hash of the document's id, `XX.bin`: each document's fields analysed, under its key.
 * The index's own parts are read back from the output, each one only if its bytes have the digest kept
 * here (a part changed by hand, or written by another build since, makes the index whole).
 *
 * Each file is written whole and renamed into place, `index.bin` last, after the output is in place. So a
 * build killed while saving leaves the old `index.bin` (whose parts the output no longer matches, or whose
 * documents' analyses are found under another key: the index is then written whole) or the new one. An
 * analysis is used only under the key `index.bin` names for its document, and a key's analysis is the
 * same whoever made it (the scope is checked), so parts from two builds at once never mix wrongly.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { termHash } from '../../../search/part-cutting.ts';
import { type SearchDocument, SEARCH_DIR } from '../../../search/index-format.ts';
import type { SearchIndexFile } from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import { sizeOf } from './search-state.ts';
import { readIntact } from '../../carried-files.ts';
import { isRunning } from '../../emit/leftovers.ts';
import { writeWhole } from '../../whole-file.ts';
import { indexFromDisk, indexOnDisk } from './stored-index-disk.ts';

/** Raise when what is kept changes shape, so no build reads another version's files. */
const VERSION = 4;
export const STORE_PARTS = 256;

/** The documents of the index in place, as `index.bin` keeps them. */
export interface StoredIndex {
  scope: string;
  ids: string[];
  keys: string[];
  /** The inputs the keys were made under (search-inputs.ts `inputsMark`): the next build's inputs follow from them. */
  inputs: string;
  /** Each document's number (its place in `type:id` order), in build order. */
  numbers: Uint32Array;
  lengths: Uint32Array;
  /** The synonyms as JSON ('null' for none). */
  synonyms: string;
  /** Every part of the index in the output, with its digest and size. */
  digests: Map<string, [digest: string, size: number]>;
  /**
   * The stamp of the output's record written by the build that saved this store (previous-output.ts): the next
   * build's tracked outputs name the same stamp when that very build recorded them too, so the keys here are
   * that build's inputs, and an edit's reach says which changed (search-inputs.ts). Absent in older stores.
   */
  stamp?: string | undefined;
}

/**
 * An analysis part: `[id, key, fields]` per document, the fields (FieldAnalysis[]) as JSON: a string per
 * document holds a whole build's analyses in a fraction of the memory their arrays take.
 */
export type StoredAnalyses = [id: string, key: string, fields: string][];

export const storeDir = (outDir: string) => `${path.resolve(outDir)}.search`;
export const partOf = (id: string) => termHash(id) % STORE_PARTS;
const partFile = (dir: string, index: number) => path.join(dir, `${index.toString(16).padStart(2, '0')}.bin`);
const mainFile = (dir: string) => path.join(dir, 'index.bin');
export const isSearchPart = (file: string) => file.startsWith(`${SEARCH_DIR}/`);

/**
 * The kept documents, when `index.bin` is whole and of this version, made under `scope`; under any scope
 * without one (what the build's helper thread reads ahead of an update by term, term-update.ts readAhead,
 * which uses the parts' digests only where the update's own read of the store names the very same parts).
 */
export function readStoredIndex(outDir: string, scope?: string): StoredIndex | undefined {
  try {
    const stored = indexFromDisk(deserialize(readFileSync(mainFile(storeDir(outDir)))), VERSION);
    return stored && (scope === undefined || stored.scope === scope) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/** The kept analyses of one part (empty when it is missing, damaged, of another version or scope). */
export function readAnalyses(outDir: string, index: number, scope: string): StoredAnalyses {
  try {
    const part = deserialize(readFileSync(partFile(storeDir(outDir), index))) as { version: unknown; scope: unknown; entries: unknown };
    if (part?.version !== VERSION || part.scope !== scope || !Array.isArray(part.entries)) return [];
    return part.entries as StoredAnalyses;
  } catch {
    return [];
  }
}

/** One part's bytes, as the build's helper thread serializes them for the main thread to write. */
export const serializeAnalyses = (scope: string, entries: StoredAnalyses) => serialize({ version: VERSION, scope, entries });

/** The bytes of the output's part `file`, only when they have `digest` (undefined when changed or gone). */
export function readIntactPart(outDir: string, file: string, digest: string): Uint8Array | undefined {
  const bytes = readIntact(outDir, file, digest);
  return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A folder inside the store for a whole write's analysis parts, written where they are made (the helper thread). */
export const stagingDir = (outDir: string) => path.join(storeDir(outDir), `staging-${process.pid}-${Date.now()}`);

/** Puts a whole write's staged parts in place (a part it has none of is removed), and removes dead builds' staging. */
function placeStaged(dir: string, staged: string): void {
  for (let index = 0; index < STORE_PARTS; index++) {
    const part = path.join(staged, path.basename(partFile(dir, index)));
    if (existsSync(part)) renameSync(part, partFile(dir, index));
    else rmSync(partFile(dir, index), { force: true });
  }
  for (const name of readdirSync(dir)) {
    const pid = Number(/^staging-(\d+)-/.exec(name)?.[1]);
    if (path.join(dir, name) === staged || (pid && pid !== process.pid && !isRunning(pid)))
      rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Saves the store: the analysis parts (entries of the parts given, or a whole write's staged folder), then
 * `index.bin`. Parts not given stay as they are.
 */
export function saveStore(outDir: string, stored: StoredIndex, parts: ReadonlyMap<number, StoredAnalyses> | string): void {
  const dir = storeDir(outDir);
  mkdirSync(dir, { recursive: true });
  if (typeof parts === 'string') placeStaged(dir, parts);
  else for (const [index, part] of parts) writeWhole(partFile(dir, index), serializeAnalyses(stored.scope, part));
  writeWhole(mainFile(dir), serialize(indexOnDisk(stored, VERSION)));
}

/** Forgets the kept index (the next build writes it whole). */
function forgetStore(outDir: string): void {
  rmSync(mainFile(storeDir(outDir)), { force: true });
}

/** What a whole write keeps for the store: numbers and lengths in build order, and the folder its analysis parts are in. */
export interface KeptWhole {
  numbers: Uint32Array;
  lengths: Uint32Array;
  staged: string;
}

/** Writes a whole write's analysis parts into `staged` (saveStore puts them in place once the output is). */
export function stageAnalyses(staged: string, scope: string, parts: ReadonlyMap<number, StoredAnalyses>): void {
  mkdirSync(staged, { recursive: true });
  for (const [index, entries] of parts)
    writeFileSync(path.join(staged, path.basename(partFile('', index))), serializeAnalyses(scope, entries));
}

/** What a build saves once its output is in place: the kept documents, less the parts' digests the emit step gives and its stamp. */
interface Pending {
  stored: Omit<StoredIndex, 'digests' | 'stamp'>;
  sizes: Map<string, number>;
  parts: Map<number, StoredAnalyses> | string;
}

/** The store of one build: the kept index read (unless `trust` is false), and what to save after the emit step. */
export function openSearchStore(outDir: string, { trust = true } = {}) {
  let pending: Pending | undefined;
  let read: { scope: string; stored: StoredIndex | undefined } | undefined;
  return {
    outDir,
    trust,
    /** The kept documents (readStoredIndex), read once a build: its inputs and its update both ask. Undefined with trust off. */
    stored(scope: string): StoredIndex | undefined {
      if (!trust) return undefined;
      if (read?.scope !== scope) read = { scope, stored: readStoredIndex(outDir, scope) };
      return read.stored;
    },
    /** Saves what the build made; `digests` are every output file's, as the emit step took them, and `stamp` its record's. */
    save(digests: ReadonlyMap<string, string> | undefined, stamp?: string): void {
      if (!pending || !digests) return;
      const kept = new Map<string, [string, number]>();
      for (const [path, size] of pending.sizes) {
        const digest = digests.get(path);
        if (digest === undefined) {
          forgetStore(outDir);
          return;
        }
        kept.set(path, [digest, size]);
      }
      saveStore(outDir, { ...pending.stored, digests: kept, stamp }, pending.parts);
    },
    /** After a whole write: all of the store anew. */
    keepWhole(
      scope: string,
      documents: readonly SearchDocument[],
      inputs: { keys: readonly string[]; mark: string },
      synonyms: SynonymTable | null,
      files: readonly SearchIndexFile[],
      kept: KeptWhole,
    ) {
      const stored = {
        scope,
        ids: documents.map(({ id }) => id),
        keys: [...inputs.keys],
        inputs: inputs.mark,
        numbers: kept.numbers,
        lengths: kept.lengths,
        synonyms: JSON.stringify(synonyms),
      };
      pending = { stored, sizes: new Map(files.map(({ path, body }) => [path, sizeOf(body)])), parts: kept.staged };
    },
    keepUpdate(next: Pending) {
      pending = next;
    },
    /**
     * After an index carried over whole, the kept documents again as they are, to be saved with this build's
     * stamp: its inputs are the ones kept (`mark`, the same key), so the next build may still patch them.
     */
    keepCarried(scope: string, mark: string) {
      const kept = read?.scope === scope ? read.stored : undefined;
      if (!kept || kept.inputs !== mark) return;
      const { digests, stamp: _, ...stored } = kept;
      pending = { stored, sizes: new Map([...digests].map(([path, [, size]]) => [path, size])), parts: new Map() };
    },
  };
}

export type SearchStore = ReturnType<typeof openSearchStore>;
