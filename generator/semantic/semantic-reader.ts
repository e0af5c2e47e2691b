/**
 * The semantic index's parts, read through the lexical index's reader (index-reader.ts: the runtime's file
 * access and the isolate's bounded cache), decoded once per part read. Runtime-neutral.
 */
import { type IndexParts, partError } from '../search/index-reader.ts';
import {
  CENTROIDS_PATH,
  type ClusterHeader,
  clusterPath,
  type EncoderHeader,
  encoderPath,
  SEMANTIC_FORMAT,
  SEMANTIC_META_PATH,
  type SemanticMeta,
} from './semantic-format.ts';
import { writerKnobs } from './semantic-ranking.ts';
import { decodeVectorPart, type VectorPart } from './vector-part.ts';

export type EnabledMeta = Extract<SemanticMeta, { enabled: true }>;

export interface SemanticParts {
  /** null when the build left semantic search out (or the index has no semantic part at all). */
  meta(): Promise<EnabledMeta | null>;
  encoder(block: number): Promise<VectorPart<EncoderHeader>>;
  centroids(): Promise<VectorPart<{ count: number }>>;
  cluster(index: number): Promise<VectorPart<ClusterHeader>>;
}

const decoded = new WeakMap<Uint8Array, unknown>();

/** Bytes read once, decoded once (the decoded value lives as long as the cached bytes). */
function decodeOnce<T>(path: string, bytes: Uint8Array | null, decode: (bytes: Uint8Array) => T): T {
  if (bytes === null) throw partError(path, 'missing; rebuild the site');
  if (decoded.has(bytes)) return decoded.get(bytes) as T;
  let value: T;
  try {
    value = decode(bytes);
  } catch (error) {
    throw partError(path, `does not decode (${(error as Error).message}); rebuild the site`);
  }
  decoded.set(bytes, value);
  return value;
}

function checkMeta(meta: SemanticMeta): EnabledMeta | null {
  if (meta?.format !== SEMANTIC_FORMAT) throw new Error(`expected format ${SEMANTIC_FORMAT}`);
  if (!meta.enabled) return null;
  if (!(meta.dimensions > 0) || !Array.isArray(meta.encoderBlocks) || !(meta.clusters >= 0)) throw new Error('not a semantic index');
  if (meta.knobs !== writerKnobs()) throw new Error('written with other knobs');
  return meta;
}

export function createSemanticParts(parts: IndexParts): SemanticParts {
  const read = async <T>(path: string, decode: (bytes: Uint8Array) => T) => decodeOnce(path, await parts.bytes(path), decode);
  // No top-level file: an index written without the semantic step (the build always writes one), so words only.
  const meta = async () => {
    const bytes = await parts.bytes(SEMANTIC_META_PATH);
    return bytes === null ? null : decodeOnce(SEMANTIC_META_PATH, bytes, (found) => checkMeta(JSON.parse(new TextDecoder().decode(found))));
  };
  const vectors = async <H>(path: string, count: (header: H) => number) => {
    const dimensions = (await meta())?.dimensions ?? 0;
    return read(path, (bytes) => decodeVectorPart<H>(bytes, dimensions, count));
  };
  return {
    meta,
    encoder: (block) =>
      vectors<EncoderHeader>(encoderPath(block), (header) => {
        if (!Array.isArray(header.terms)) throw new Error('bad header');
        return header.terms.length;
      }),
    centroids: () => vectors<{ count: number }>(CENTROIDS_PATH, (header) => header.count),
    cluster: (index) =>
      vectors<ClusterHeader>(clusterPath(index), (header) => {
        if (!Array.isArray(header.documents)) throw new Error('bad header');
        return header.documents.length;
      }),
  };
}
