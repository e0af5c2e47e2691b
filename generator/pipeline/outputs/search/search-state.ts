/**
 * The search index kept between builds by a build cache that lives as long as the process (`npm run dev`
 * keeps one): the first build writes the index whole and keeps its state; each later build updates it by
 * term (generator/search/index-update.ts) and hands the emit step only the parts whose bytes changed, the
 * others carried over with their digests (made from the kept bytes if the emit step cannot use its copy).
 * Without such a cache (a fresh `npm run build`), every build writes the index whole.
 */
import { hash } from 'node:crypto';
import type { SearchDocument } from '../../../search/index-format.ts';
import { updateSearchIndex } from '../../../search/index-update.ts';
import { type Analyse, type SearchIndexState, writeSearchIndexState } from '../../../search/index-writer.ts';
import type { SynonymTable } from '../../../search/synonyms.ts';
import type { OutputFile } from '../output-file.ts';
import { nativeBytesEqual } from './native-bytes-equal.ts';

const MB = 1024 * 1024;
const encoder = new TextEncoder();
export const sizeOf = (body: string | Uint8Array) => (typeof body === 'string' ? encoder.encode(body).byteLength : body.byteLength);

/**
 * What a build cache keeps of the last index: its state, its parts' sizes, and each part carried over as the
 * emit step was handed it (with its digest, as the emit step takes them), handed on again while its bytes stay.
 */
export interface KeptSearchIndex {
  state: SearchIndexState;
  carried: Map<string, OutputFile>;
  /** What the carried parts make their bytes from: the last index's parts (not those of the build that carried them first). */
  source: { files: ReadonlyMap<string, string | Uint8Array> };
  sizes: Map<string, number>;
  bytes: number;
}

/** What a build cache keeps for the search index: the last index, and its documents by their record's inputs. */
export interface SearchHolder {
  kept?: KeptSearchIndex | undefined;
  documents?: { siteUrl: string; keys: readonly string[]; documents: readonly SearchDocument[] } | undefined;
}

/**
 * The documents of the last build by their record's inputs (`keys`, in document order: the record's file
 * digest and the names of the terms it shows, search-inputs.ts), under the site's address, the one thing
 * besides them a document holds that an edit may change (its `url`). A document whose inputs are the same
 * is the same object as before, so the index update passes it by identity, and only the edited records'
 * documents are made: not 4,000 objects each with its address and term names, every build. A document is
 * looked for at its own index first (every one, but after an edit that reorders them), and by its inputs
 * only where that misses: a table of every key, made every build, was a fifth of the search's time at
 * 100,000 articles. That table holds only the documents whose place now has other inputs: a document that
 * moved left such a place behind (an edited record's own place is one, and a table of every key made for
 * it was 7 ms of a title edit at 20,000).
 */
export function keptDocuments(holder: SearchHolder, siteUrl: string, keys: readonly string[]) {
  const before = holder.documents?.siteUrl === siteUrl ? holder.documents : undefined;
  holder.documents = undefined;
  let byKey: Map<string, SearchDocument> | undefined;
  return {
    known(index: number): SearchDocument | undefined {
      if (!before) return undefined;
      const key = keys[index]!;
      if (before.keys[index] === key) return before.documents[index];
      if (!byKey) {
        byKey = new Map();
        for (let at = 0; at < before.keys.length; at++)
          if (before.keys[at] !== keys[at]) byKey.set(before.keys[at]!, before.documents[at]!);
      }
      return byKey.get(key);
    },
    /** Keeps this build's documents (one per key, in the same order) for the next. */
    keep(documents: readonly SearchDocument[]) {
      if (documents.length === keys.length) holder.documents = { siteUrl, keys, documents };
    },
  };
}

/** Throws when the index's parts together, `bytes`, are larger than the budget (in megabytes). */
export function checkSearchBytes(bytes: number, budgetMb: number): void {
  const size = bytes / MB;
  if (size <= budgetMb) return;
  throw new Error(
    `search index is ${size < 0.1 ? size.toPrecision(2) : size.toFixed(1)} MB, over the budget of ${budgetMb} MB (SEARCH_INDEX_BUDGET_MB); ` +
      'a search reads only the parts it needs, so this bounds the size of a deploy: unpublish stale records, ' +
      'or raise SEARCH_INDEX_BUDGET_MB if the host accepts a larger one',
  );
}

/** The index's state for `documents`, written whole; every part made. */
function writeWhole(documents: readonly SearchDocument[], analyse: Analyse, synonyms: SynonymTable | null): KeptSearchIndex {
  const state = writeSearchIndexState(documents, analyse, synonyms);
  const sizes = new Map([...state.files].map(([path, body]) => [path, sizeOf(body)]));
  const bytes = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  return { state, carried: new Map(), source: { files: state.files }, sizes, bytes };
}

/**
 * The index's files for `documents`, from `holder`'s kept index when there is one (which this updates), else
 * written whole (and kept). Throws when over the budget; after any failure nothing is kept, so the next
 * build writes the index whole.
 */
export function keptSearchIndexFiles(
  holder: SearchHolder,
  documents: readonly SearchDocument[],
  analyse: Analyse,
  synonyms: SynonymTable | null,
  budgetMb: number,
): OutputFile[] {
  const before = holder.kept;
  holder.kept = undefined;
  if (!before) {
    const kept = writeWhole(documents, analyse, synonyms);
    checkSearchBytes(kept.bytes, budgetMb);
    holder.kept = kept;
    return [...kept.state.files].map(([path, body]) => ({ path, body }));
  }
  const { state, written, removed } = updateSearchIndex(before.state, documents, analyse, synonyms, nativeBytesEqual);
  const kept: KeptSearchIndex = { ...before, state };
  kept.source.files = state.files;
  const changed = new Set<string>();
  for (const { path, body } of written) {
    kept.bytes += sizeOf(body) - (kept.sizes.get(path) ?? 0);
    kept.sizes.set(path, sizeOf(body));
    kept.carried.delete(path);
    changed.add(path);
  }
  for (const path of removed) {
    kept.bytes -= kept.sizes.get(path) ?? 0;
    kept.sizes.delete(path);
    kept.carried.delete(path);
  }
  checkSearchBytes(kept.bytes, budgetMb);
  holder.kept = kept;
  // A part carried before is the same object again: one look-up a part, of thousands, each build.
  const files: OutputFile[] = [];
  for (const path of state.files.keys()) files.push(kept.carried.get(path) ?? handOn(kept, path, changed.has(path)));
  return files;
}

/** A part for the emit step: with its bytes when they changed, else carried with its digest (and kept so). */
function handOn(kept: KeptSearchIndex, path: string, changed: boolean): OutputFile {
  const body = kept.state.files.get(path)!;
  if (changed) return { path, body };
  const { source } = kept;
  const file = { path, carried: hash('sha1', body, 'base64'), make: () => source.files.get(path)! };
  kept.carried.set(path, file);
  return file;
}
