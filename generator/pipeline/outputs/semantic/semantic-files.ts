/**
 * The semantic index (generator/semantic): a vector per searchable document, made at build time by the
 * sentence model from the text that represents it (record-text.ts), and the query encoder distilled from the
 * same model, written as parts the edge reads per query. Vectors are cached by the digest of their text
 * (vector-cache.ts), so a build embeds only new text. With semantic search off, only a top-level file saying
 * so is written. Build side: Node only.
 */
import { SEMANTIC_FORMAT, SEMANTIC_META_PATH, type SemanticMeta } from '../../../semantic/semantic-format.ts';
import { writerKnobs } from '../../../semantic/semantic-ranking.ts';
import { collectVocabulary, contextVectors, writeEncoder } from '../../../semantic/encoder-writer.ts';
import { writeVectorIndex } from '../../../semantic/vector-index-writer.ts';
import { project } from '../../../semantic/projection.ts';
import { dequantize, type QuantizedVector, quantize } from '../../../semantic/vector-part.ts';
import type { SearchDocument } from '../../../search/index-format.ts';
import { compareText } from '../../../shared/compare-text.ts';
import type { OutputFile } from '../output-file.ts';
import { recordText } from './record-text.ts';
import { DIMENSIONS, modelIdentity, modelWords } from './sentence-model.ts';
import { cachedProjection } from './projection-cache.ts';
import { openVectorCache, VECTOR_CACHE_DIR } from './vector-cache.ts';
import { makeVectors } from './vector-maker.ts';

export interface SemanticOptions {
  /** SEMANTIC_SEARCH: off writes only the file that says so. */
  enabled: boolean;
  /** The vector cache's folder (vector-cache.ts); null keeps nothing between builds. */
  cacheDir?: string | null;
  /** Embedding threads at most (two by default on two cores or more). */
  threads?: number;
  /** The model's package (sentence-model.ts); tests name a missing one. */
  modelPackage?: string;
}

/**
 * Every vector projected onto the principal axes of the model's own words' vectors (projection.ts), or as it
 * is. Those words depend on the model only, so the axes are kept between builds (projection-cache.ts) and an
 * edit does not find them again; measured as good as the axes of every vector (docs/semantic-search.md).
 */
function reduceDimensions(vectors: readonly QuantizedVector[], training: readonly QuantizedVector[], cacheDir: string | null) {
  const projection = cachedProjection(training, cacheDir);
  if (!projection) return { reduced: vectors, dimensions: DIMENSIONS, projection };
  const reduced = vectors.map(({ codes, scale }) => quantize(project(projection, dequantize(codes, scale))));
  return { reduced, dimensions: projection.dimensions, projection };
}

const metaFile = (meta: SemanticMeta): OutputFile => ({ path: SEMANTIC_META_PATH, body: JSON.stringify(meta) });

/** The semantic index's files for the search index's documents (numbered the same way: by `type:id`). */
export async function buildSemanticFiles(documents: readonly SearchDocument[], options: SemanticOptions): Promise<OutputFile[]> {
  if (!options.enabled) return [metaFile({ format: SEMANTIC_FORMAT, enabled: false })];
  return (await writeSemanticIndex(documents, options)).files;
}

/** The files, and the projection that took the model's vectors to the index's (for the bench, which projects the model's query vectors). */
export async function writeSemanticIndex(documents: readonly SearchDocument[], options: SemanticOptions) {
  const model = modelIdentity();
  const cache = openVectorCache(model, DIMENSIONS, options.cacheDir);
  const ordered = [...documents].sort((a, b) => compareText(a.id, b.id));
  const texts = ordered.map(recordText);
  const own = modelWords(options.modelPackage);
  const vocabulary = collectVocabulary(
    ordered.flatMap(({ title, tags, terms, summary, body }) => [`${title} ${tags} ${terms} ${summary} ${body}`]),
    own,
  );
  const words = [...new Set(vocabulary.words.values())].sort(compareText);
  const vectors = await makeVectors([...texts, ...words, ...own], cache, options);
  cache.save();
  const cacheDir = options.cacheDir === undefined ? VECTOR_CACHE_DIR : options.cacheDir;
  const training = vectors.slice(texts.length + words.length);
  const { reduced, dimensions, projection } = reduceDimensions(vectors.slice(0, texts.length + words.length), training, cacheDir);
  const wordVectors = new Map<string, QuantizedVector>(words.map((word, i) => [word, reduced[texts.length + i]!]));
  const documentVectors = reduced.slice(0, texts.length);
  const encoder = writeEncoder(vocabulary, wordVectors, contextVectors(texts, documentVectors, dimensions), dimensions);
  const index = writeVectorIndex(documentVectors, dimensions);
  const meta: SemanticMeta = {
    format: SEMANTIC_FORMAT,
    enabled: true,
    model,
    dimensions,
    documents: ordered.length,
    encoderBlocks: encoder.firsts,
    clusters: index.clusters,
    knobs: writerKnobs(),
  };
  return { files: [metaFile(meta), ...encoder.files, ...index.files], projection };
}
