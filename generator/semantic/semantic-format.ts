/**
 * The semantic index's file layout: what the build writes under SEMANTIC_DIR for the edge to read per query.
 * A query reads the top-level file, the encoder blocks of its own words, the centroids and a few clusters,
 * so its cost depends on the query and the knobs, not on the number of documents. docs/semantic-search.md
 * describes every part.
 */
import { DATA_DIR } from '../shared/data-paths.ts';

/** Changes whenever a part's layout does; the reader refuses any other. */
export const SEMANTIC_FORMAT = 'semantic-index/1';

export const SEMANTIC_DIR = `${DATA_DIR}/semantic`;
export const SEMANTIC_META_PATH = `${SEMANTIC_DIR}/meta.json`;
/** A block of the query encoder: consecutive terms (in code-unit order) with their static vectors. */
export const encoderPath = (block: number) => `${SEMANTIC_DIR}/encoder/${block}.bin`;
/** Every cluster's centroid, in cluster order. */
export const CENTROIDS_PATH = `${SEMANTIC_DIR}/centroids.bin`;
/** One cluster: its documents' numbers (the lexical index's) and quantized vectors. */
export const clusterPath = (cluster: number) => `${SEMANTIC_DIR}/clusters/${cluster}.bin`;

/** SEMANTIC_META_PATH. Written always: `enabled: false` says the build left semantic search out. */
export type SemanticMeta =
  | { format: typeof SEMANTIC_FORMAT; enabled: false }
  | {
      format: typeof SEMANTIC_FORMAT;
      enabled: true;
      /** The model the document vectors and the encoder were made with. */
      model: string;
      dimensions: number;
      documents: number;
      /** The first term of each encoder block. */
      encoderBlocks: string[];
      clusters: number;
      /** The writer's knobs (semantic-ranking.ts `writerKnobs`), as JSON. */
      knobs: string;
    };

/** An encoder block's header: its terms, in code-unit order. */
export interface EncoderHeader {
  terms: string[];
}

/** A cluster's header: its documents' numbers, ascending. */
export interface ClusterHeader {
  documents: number[];
}
