/**
 * An index's layout read back from its own parts (meta.json, the dictionary blocks, the postings shards, the
 * typo files), as the writer laid it out (search/index-layout.ts): the sorted terms, each one's entry and
 * record (a view of its shard, as layBlock leaves it), each block's files, the typo files and their terms.
 * A build that kept no state in memory (`npm run build`, a fresh process) updates the index by term from
 * this. Anything that does not add up (a part missing, blocks cut elsewhere than the writer cuts them) gives
 * undefined: the caller then writes the index whole.
 */
import {
  type DictionaryBlock,
  dictionaryPath,
  postingsPath,
  SEARCH_DIR,
  SEARCH_INDEX_FORMAT,
  SEARCH_META_PATH,
  type SearchMeta,
} from '../../../search/index-format.ts';
import { type Entries, type IndexLayout, layoutOf, type TermRecords } from '../../../search/index-layout.ts';
import { blockStarts, shardNumber, termHash } from '../../../search/part-cutting.ts';
import { ByteReader } from '../../../search/postings-codec.ts';
import { SEARCH_FIELDS, TYPO_FIELDS } from '../../../search/ranking.ts';
import { typoFileTerms } from '../../../search/typo-dictionary.ts';

export type PartBodies = ReadonlyMap<string, string | Uint8Array>;

const TYPOS = `${SEARCH_DIR}/typos/`;
const TYPO_FIELD_IDS = TYPO_FIELDS.map((field) => SEARCH_FIELDS.indexOf(field));
const decoder = new TextDecoder();
const text = (body: string | Uint8Array | undefined) => (body === undefined || typeof body === 'string' ? body : decoder.decode(body));

/** The layout, records and meta of the index whose parts are `files` (cards need not be among them). */
export function layoutFromParts(files: PartBodies): { meta: SearchMeta; records: TermRecords; parts: IndexLayout } | undefined {
  const meta = JSON.parse(text(files.get(SEARCH_META_PATH)) ?? 'null') as SearchMeta | null;
  if (meta?.format !== SEARCH_INDEX_FORMAT || !Array.isArray(meta.blocks)) return undefined;
  const terms: string[] = [];
  const starts: number[] = [];
  const entries: Entries = new Map();
  const records: TermRecords = new Map();
  const blockFiles: IndexLayout['blockFiles'] = [];
  for (let b = 0; b < meta.blocks.length; b++) {
    const body = files.get(dictionaryPath(b));
    if (body === undefined) return undefined;
    const block = JSON.parse(text(body)!) as DictionaryBlock;
    const laid: IndexLayout['blockFiles'][number] = [{ path: dictionaryPath(b), body }];
    for (let j = 0; files.has(postingsPath(shardNumber(b, j))); j++) {
      laid.push({ path: postingsPath(shardNumber(b, j)), body: files.get(postingsPath(shardNumber(b, j)))! });
    }
    starts.push(terms.length);
    for (let i = 0; i < block.terms.length; i++) {
      const term = block.terms[i]!;
      const location = block.locations.slice(i * 3, i * 3 + 3) as [number, number, number];
      const shard = files.get(postingsPath(location[0]));
      if (!(shard instanceof Uint8Array) || location[1] + location[2] > shard.length) return undefined;
      entries.set(term, { postings: block.postings[i]!, location });
      const bytes = shard.subarray(location[1], location[1] + location[2]);
      records.set(term, { bytes, postings: block.postings[i]!, typo: inTypoField(bytes) });
      terms.push(term);
    }
    blockFiles.push(laid);
  }
  const hashes = Uint32Array.from(terms, termHash);
  if (blockStarts(hashes).join() !== starts.join()) return undefined;
  const typoParts = typoFiles(files);
  if (!typoParts) return undefined;
  const parts = layoutOf({ terms, hashes, starts, entries, blockFiles, ...typoParts });
  return { meta, records, parts };
}

/** Whether a record has postings in a field a typo may find it in: its header lists each field it is in. */
function inTypoField(record: Uint8Array): boolean {
  const reader = new ByteReader(record, 0, record.length);
  for (let fields = reader.varint(); fields > 0; fields--) {
    const id = reader.varint();
    if (reader.varint() > 0 && TYPO_FIELD_IDS.includes(id)) return true;
  }
  return false;
}

/** The typo files by key, and each one's terms; undefined when one is not a typo file. */
function typoFiles(files: PartBodies) {
  const typos = new Map<string, Uint8Array>();
  const typoTerms = new Map<string, { head: string[]; tail: string[] }>();
  for (const [path, body] of files) {
    if (!path.startsWith(TYPOS) || !path.endsWith('.bin') || !(body instanceof Uint8Array)) continue;
    const key = path.slice(TYPOS.length, -'.bin'.length);
    typos.set(key, body);
    try {
      typoTerms.set(key, typoFileTerms(body));
    } catch {
      return undefined;
    }
  }
  return { typos, typoTerms };
}
