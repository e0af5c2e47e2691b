/**
 * The query encoder's parts: each vocabulary term (as text-analysis.ts makes it) with a static vector made from
 * the model's vector of its most common surface word and the vectors of the documents that hold it, in blocks
 * of SEMANTIC.encoderBlockSize terms in code-unit order.
 * Runtime-neutral, pure: the build embeds the words (vector-maker.ts) and hands the vectors in.
 */
import { processTerm, tokenize } from '../search/text-analysis.ts';
import { compareText } from '../shared/compare-text.ts';
import { encoderPath } from './semantic-format.ts';
import { SEMANTIC } from './semantic-ranking.ts';
import { dequantize, encodeVectorPart, normalize, type QuantizedVector, quantize } from './vector-part.ts';
import type { VectorFile } from './vector-index-writer.ts';

export interface Vocabulary {
  /** Each term's surface word to embed (its most common one in the documents, else the model's word). */
  words: Map<string, string>;
}

/** Terms of the documents' texts and of the model's own word list, each with the surface word that stands for it. */
export function collectVocabulary(texts: Iterable<string>, modelWords: readonly string[]): Vocabulary {
  const counts = new Map<string, Map<string, number>>();
  const add = (word: string, weight: number) => {
    const lower = word.toLowerCase();
    const term = processTerm(lower);
    if (!term || lower.length > 40) return;
    const surface = counts.get(term) ?? new Map<string, number>();
    counts.set(term, surface);
    surface.set(lower, (surface.get(lower) ?? 0) + weight);
  };
  for (const text of texts) for (const token of tokenize(text)) add(token, 1);
  for (const word of modelWords) add(word, 0);
  const words = new Map<string, string>();
  for (const [term, surface] of counts) {
    // The commonest surface word; ties to the shorter, then the first in code-unit order.
    const [best] = [...surface].sort(([a, x], [b, y]) => y - x || a.length - b.length || compareText(a, b));
    words.set(term, best![0]);
  }
  return { words };
}

/** The mean of `vectors`, to take away from each. */
function meanOf(vectors: readonly Float64Array[], dimensions: number): Float64Array {
  const mean = new Float64Array(dimensions);
  for (const vector of vectors) for (let i = 0; i < dimensions; i++) mean[i]! += vector[i]!;
  for (let i = 0; i < dimensions; i++) mean[i]! /= Math.max(vectors.length, 1);
  return mean;
}

/** What the documents say a term means: per term, the sum of the centred vectors of the documents whose text holds it. */
export function contextVectors(texts: readonly string[], documents: readonly QuantizedVector[], dimensions: number) {
  const floats = documents.map(({ codes, scale }) => dequantize(codes, scale));
  const mean = meanOf(floats, dimensions);
  const sums = new Map<string, Float64Array>();
  texts.forEach((text, d) => {
    const seen = new Set<string>();
    for (const token of tokenize(text)) {
      const term = processTerm(token);
      if (!term || seen.has(term)) continue;
      seen.add(term);
      let sum = sums.get(term);
      if (!sum) {
        sum = new Float64Array(dimensions);
        sums.set(term, sum);
      }
      for (let i = 0; i < dimensions; i++) sum[i]! += floats[d]![i]! - mean[i]!;
    }
  });
  return sums;
}

/**
 * Each term's static vector: its word's vector less the mean of every word's (a single word's vector from a
 * sentence model shares a large "one word alone" part with every other), blended with what the documents
 * that hold the term say it means (`SEMANTIC.contextWeight`). On the paraphrase questions, with the same
 * document vectors, the semantic ranking alone went from 0.27 (the word's vector) to 0.40 (centred) to 0.58
 * (blended), where the full model's own query vectors give 0.54 (docs/semantic-search.md).
 */
function termVectors(words: readonly QuantizedVector[], contexts: readonly (Float64Array | undefined)[], dimensions: number) {
  const floats = words.map(({ codes, scale }) => dequantize(codes, scale));
  const mean = meanOf(floats, dimensions);
  const weight = SEMANTIC.contextWeight;
  return floats.map((vector, t) => {
    const own = normalize(vector.map((value, i) => value - mean[i]!));
    const context = contexts[t] ? normalize(contexts[t]) : own;
    return quantize(own.map((value, i) => (1 - weight) * value + weight * context[i]!));
  });
}

/** The encoder's blocks and the first term of each. */
export function writeEncoder(
  vocabulary: Vocabulary,
  vectors: ReadonlyMap<string, QuantizedVector>,
  contexts: ReadonlyMap<string, Float64Array>,
  dimensions: number,
): { files: VectorFile[]; firsts: string[] } {
  const terms = [...vocabulary.words.keys()].sort(compareText);
  const encoded = termVectors(
    terms.map((term) => vectors.get(vocabulary.words.get(term)!)!),
    terms.map((term) => contexts.get(term)),
    dimensions,
  );
  const files: VectorFile[] = [];
  const firsts: string[] = [];
  for (let start = 0; start < terms.length; start += SEMANTIC.encoderBlockSize) {
    const block = terms.slice(start, start + SEMANTIC.encoderBlockSize);
    const part = encodeVectorPart({ terms: block }, encoded.slice(start, start + block.length), dimensions);
    files.push({ path: encoderPath(firsts.length), body: part });
    firsts.push(block[0]!);
  }
  return { files, firsts };
}
