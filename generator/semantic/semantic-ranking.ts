/**
 * Every knob of semantic search and of its fusion with the lexical ranking, in one object: the figures that
 * chose them are in docs/semantic-search.md. The semantic index records the knobs it was written with (the
 * writer's part of them) and the reader refuses an index written with others.
 */
export const SEMANTIC = {
  /** Encoder terms per block (one block, about 8 KB, read per query word). */
  encoderBlockSize: 16,
  /** Documents per cluster the writer aims at: clusters = ceil(documents / clusterSize). */
  clusterSize: 256,
  /** A term's vector: this share from the documents that hold it, the rest from its word alone (encoder-writer.ts). */
  contextWeight: 0.4,
  /** Dimensions the index and the encoder keep (principal axes of the documents; 0: all of the model's). */
  projectedDimensions: 128,
  /** Documents the principal axes are found from (an even sample), and rounds of subspace iteration. */
  projectionSample: 20_000,
  projectionRounds: 15,
  /** Rounds of k-means. */
  kmeansRounds: 8,
  /** Documents per cluster k-means trains on (an even sample); every document is then put in its nearest. */
  kmeansSample: 64,
  /** Clusters a query reads, nearest centroids first. */
  probes: 4,
  /** Nearest documents a query takes from the vector index. */
  candidates: 20,
  /** Below this similarity (query vector against the quantized document vector) a neighbour is no answer. */
  minSimilarity: 0.1,
  /** Lexical results past those with every word that take part in the fusion. */
  lexicalDepth: 20,
  /**
   * The lexical side's share of the fused band's blend (hybrid.ts), the rest meaning's. Above 0.5, the band's
   * best lexical result is never passed by a record only meaning found: rank fusion let one pass it.
   */
  lexicalShare: 0.75,
} as const;

export type SemanticKnobs = typeof SEMANTIC;

/** The knobs that shape the index's parts; an index written with other ones is refused. */
export const writerKnobs = () =>
  JSON.stringify({
    encoderBlockSize: SEMANTIC.encoderBlockSize,
    contextWeight: SEMANTIC.contextWeight,
    clusterSize: SEMANTIC.clusterSize,
    kmeansRounds: SEMANTIC.kmeansRounds,
    kmeansSample: SEMANTIC.kmeansSample,
    projectedDimensions: SEMANTIC.projectedDimensions,
    projectionSample: SEMANTIC.projectionSample,
    projectionRounds: SEMANTIC.projectionRounds,
  });
