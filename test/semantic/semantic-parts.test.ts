/**
 * The semantic index's parts without the model: vector parts and the encoder read back as written, the
 * approximate neighbour search against the exact one on a fixed set, and the fusion's rules as properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createIndexParts } from '../../generator/search/index-reader.ts';
import type { Ranked } from '../../generator/search/scoring.ts';
import { collectVocabulary, writeEncoder } from '../../generator/semantic/encoder-writer.ts';
import { fuse, fusedScore } from '../../generator/semantic/hybrid.ts';
import { encodeQuery } from '../../generator/semantic/query-encoder.ts';
import { SEMANTIC_FORMAT, SEMANTIC_META_PATH } from '../../generator/semantic/semantic-format.ts';
import { writerKnobs } from '../../generator/semantic/semantic-ranking.ts';
import { createSemanticParts, type EnabledMeta } from '../../generator/semantic/semantic-reader.ts';
import { decodeVectorPart, dequantize, encodeVectorPart, normalize, quantize } from '../../generator/semantic/vector-part.ts';
import { nearestDocuments } from '../../generator/semantic/vector-search.ts';
import { writeVectorIndex } from '../../generator/semantic/vector-index-writer.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const DIMENSIONS = 32;

function randomVectors(count: number, seed: number, centres = 12): Float64Array[] {
  const random = createRandom(seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const middles = Array.from({ length: centres }, () => Float64Array.from({ length: DIMENSIONS }, gaussian));
  return Array.from({ length: count }, (_, i) => normalize(middles[i % centres]!.map((value) => value + 0.8 * gaussian())));
}

/** An index of `vectors` (and an encoder of `words`) as the edge reads it. */
function semanticIndex(vectors: Float64Array[], words: Map<string, Float64Array> = new Map(), contexts = new Map<string, Float64Array>()) {
  const quantized = vectors.map(quantize);
  const index = writeVectorIndex(quantized, DIMENSIONS);
  const vocabulary = collectVocabulary([], [...words.keys()]);
  const encoder = writeEncoder(vocabulary, new Map([...words].map(([word, vector]) => [word, quantize(vector)])), contexts, DIMENSIONS);
  const meta: EnabledMeta = {
    format: SEMANTIC_FORMAT,
    enabled: true,
    model: 'test',
    dimensions: DIMENSIONS,
    documents: vectors.length,
    encoderBlocks: encoder.firsts,
    clusters: index.clusters,
    knobs: writerKnobs(),
  };
  const files = new Map<string, string | Uint8Array>([[SEMANTIC_META_PATH, JSON.stringify(meta)]]);
  for (const file of [...index.files, ...encoder.files]) files.set(file.path, file.body);
  const parts = createSemanticParts(createIndexParts(createMemoryAssets(files)));
  return { parts, files, meta };
}

describe('vector parts', () => {
  it('read back the header, scales and codes they were written with', () => {
    const vectors = randomVectors(5, 1).map(quantize);
    const bytes = encodeVectorPart({ documents: [1, 2, 3, 4, 5] }, vectors, DIMENSIONS);
    const part = decodeVectorPart<{ documents: number[] }>(bytes, DIMENSIONS, (header) => header.documents.length);
    expect(part.header.documents).toEqual([1, 2, 3, 4, 5]);
    vectors.forEach(({ codes, scale }, i) => {
      expect(part.scales[i]).toBe(scale);
      expect([...part.codes.subarray(i * DIMENSIONS, (i + 1) * DIMENSIONS)]).toEqual([...codes]);
    });
    expect(() => decodeVectorPart(bytes.subarray(0, bytes.length - 1), DIMENSIONS, () => 5)).toThrow(/length/);
  });

  it('quantize within a hundredth of the unit vector, and a stored vector quantizes to itself', () => {
    for (const vector of randomVectors(50, 2)) {
      const { codes, scale } = quantize(vector);
      const back = dequantize(codes, scale);
      expect(Math.max(...back.map((value, i) => Math.abs(value - vector[i]!)))).toBeLessThan(0.01);
      expect([...quantize(back).codes]).toEqual([...codes]);
    }
  });
});

describe('the query encoder', () => {
  it('gives the mean of the query terms’ vectors, less the vocabulary’s mean, and null for unknown words', async () => {
    const words = new Map([...'alpha bravo charlie delta echo foxtrot'.split(' ')].map((word, i) => [word, randomVectors(6, 3)[i]!]));
    const { parts, meta } = semanticIndex(randomVectors(10, 4), words);
    const mean = new Float64Array(DIMENSIONS);
    for (const vector of words.values()) {
      const back = dequantize(quantize(vector).codes, quantize(vector).scale);
      back.forEach((value, i) => {
        mean[i]! += value / words.size;
      });
    }
    const term = (word: string) => {
      const { codes, scale } = quantize(
        dequantize(quantize(words.get(word)!).codes, quantize(words.get(word)!).scale).map((v, i) => v - mean[i]!),
      );
      return dequantize(codes, scale);
    };
    const expected = normalize(term('bravo').map((value, i) => value + term('echo')[i]!));
    const got = (await encodeQuery(parts, meta, 'the bravo and an echo, zulu'))!;
    expect(Math.max(...got.map((value, i) => Math.abs(value - expected[i]!)))).toBeLessThan(1e-12);
    expect(await encodeQuery(parts, meta, 'zulu yankee')).toBeNull();
    // What the documents holding a term say it means moves its vector by SEMANTIC.contextWeight (0.4).
    const context = randomVectors(1, 7)[0]!;
    const blended = semanticIndex(randomVectors(10, 4), words, new Map([['bravo', context]]));
    const mixed = normalize(term('bravo').map((value, i) => 0.6 * value + 0.4 * context[i]!));
    const got2 = (await encodeQuery(blended.parts, blended.meta, 'bravo'))!;
    expect(Math.max(...got2.map((value, i) => Math.abs(value - mixed[i]!)))).toBeLessThan(0.02);
  });
});

describe('the vector index', () => {
  const vectors = randomVectors(3000, 5);
  const { parts, meta } = semanticIndex(vectors);

  it('finds, reading 4 of its clusters, at least 90% of the exact 10 nearest neighbours on a fixed set', async () => {
    let found = 0;
    const queries = randomVectors(100, 6);
    for (const query of queries) {
      const options = { range: [0, vectors.length] as const, count: 10, minSimilarity: -1 };
      const exact = await nearestDocuments(parts, meta, query, { ...options, probes: meta.clusters });
      const approximate = new Set((await nearestDocuments(parts, meta, query, options)).map(({ document }) => document));
      found += exact.filter(({ document }) => approximate.has(document)).length;
      // The exact search is the brute force over every quantized vector.
      expect(exact.map(({ document }) => document)).toEqual(
        vectors
          .map((vector, document) => {
            const { codes, scale } = quantize(vector);
            return { document, value: codes.reduce((sum, code, i) => sum + query[i]! * code, 0) * scale };
          })
          .sort((a, b) => b.value - a.value || a.document - b.document)
          .slice(0, 10)
          .map(({ document }) => document),
      );
    }
    expect(meta.clusters).toBe(12);
    expect(found / (queries.length * 10)).toBeGreaterThanOrEqual(0.9);
  });

  it('keeps to the type’s range', async () => {
    const near = await nearestDocuments(parts, meta, vectors[0]!, { range: [100, 200], minSimilarity: -1 });
    expect(near.length).toBeGreaterThan(0);
    for (const { document } of near) expect(document >= 100 && document < 200).toBe(true);
  });
});

describe('the fusion', () => {
  it('keeps records with every word first and in lexical order, scores descending, pages that add up, an exact total', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 8 }),
        fc.uniqueArray(fc.nat(60), { maxLength: 25 }),
        (words, seed, near) => {
          const random = createRandom(seed);
          // Lexical results: words found per document, scored as the lexical ranking does, sorted.
          const lexical: Ranked[] = Array.from({ length: 40 }, (_, document) => {
            const found = Math.floor(random() * (words + 1));
            const parts = Array.from({ length: found }, () => random() * 0.99).reduce((sum, part) => sum + part, 0);
            // As ranking.ts scores: the words rule's tiers up to 3 words, the saturated parts alone past them.
            const raw = (words <= 3 ? found * 100 + Math.floor(random() * (found + 1)) * 10 : 0) + parts;
            return { document, raw, score: Math.round(raw * 1e4) / 1e4 };
          })
            .filter(({ raw }) => raw > 0)
            .sort((a, b) => b.score - a.score || a.document - b.document);
          const semantic = near.map((document, i) => ({ document, similarity: 1 - i / 100 }));
          const input = { words, lexical, lexicalTotal: lexical.length, semantic, isLexicalMatch: () => false, floor: 0.1 };
          const all = fuse({ ...input, offset: 0, limit: 1000 });
          const everyWord = lexical.filter(({ raw }) => Math.floor(raw / 100) >= words);
          expect(all.page.slice(0, everyWord.length)).toEqual(everyWord);
          for (let i = 1; i < all.page.length; i++) {
            const [a, b] = [all.page[i - 1]!, all.page[i]!];
            expect(a.score > b.score || (a.score === b.score && a.document < b.document)).toBe(true);
          }
          const ids = all.page.map(({ document }) => document);
          expect(new Set(ids).size).toBe(ids.length);
          expect(all.total).toBe(new Set([...lexical.map(({ document }) => document), ...near]).size);
          expect(all.page.length).toBe(all.total);
          const pages = [0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70].flatMap((offset) => fuse({ ...input, offset, limit: 7 }).page);
          expect(pages).toEqual(all.page);
          for (const { score } of all.page) expect(score).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('scores the fused band between records with every word and records with fewer', () => {
    for (let words = 1; words <= 8; words++) {
      expect(fusedScore(words, 1)).toBeLessThan(words <= 3 ? 100 * words : words + 1);
      // The best a record with fewer words can score: under the words rule, every word exact and each BM25 part
      // near 1; past it, every word's part near 1.
      expect(fusedScore(words, 0)).toBeGreaterThanOrEqual(words <= 3 ? (words - 1) * 111 + 1 : words);
    }
  });

  it('keeps the lexical lead: the best lexical result past the complete matches is never passed by a record only meaning found', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }),
        fc.uniqueArray(fc.double({ min: 0.01, max: 0.99, noNaN: true }), { minLength: 1, maxLength: 20 }),
        fc.uniqueArray(fc.nat(60), { minLength: 1, maxLength: 20 }),
        fc.double({ min: 0.11, max: 1, noNaN: true }),
        (words, parts, near, top) => {
          // Lexical results with fewer words than the query (none complete), numbered from 100 so that meaning's
          // records (0 to 60) win every tie on document number.
          const tier = words <= 3 ? 100 * (words - 1) : 0;
          const lexical: Ranked[] = [...parts]
            .sort((a, b) => b - a)
            .map((part, i) => ({ document: 100 + i, raw: tier + part, score: Math.round((tier + part) * 1e4) / 1e4 }));
          const semantic = near.map((document, i) => ({ document, similarity: top - (i * (top - 0.1)) / near.length }));
          const input = { words, lexical, lexicalTotal: lexical.length, semantic, floor: 0.1, isLexicalMatch: () => false };
          const { page } = fuse({ ...input, offset: 0, limit: 100 });
          const leader = page.findIndex(({ document }) => document === 100);
          expect(page.slice(0, leader).every(({ document }) => document >= 100)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('asks whether a neighbour is a lexical match only when the lexical list is cut', () => {
    const lexical: Ranked[] = [{ document: 1, raw: 150.5, score: 150.5 }];
    const asked: number[] = [];
    const input = {
      words: 2,
      lexical,
      semantic: [{ document: 9, similarity: 0.9 }],
      floor: 0.1,
      isLexicalMatch: (document: number) => {
        asked.push(document);
        return true;
      },
      offset: 0,
      limit: 10,
    };
    expect(fuse({ ...input, lexicalTotal: 1 }).total).toBe(2);
    expect(asked).toEqual([]);
    expect(fuse({ ...input, lexicalTotal: 50 }).total).toBe(50);
    expect(asked).toEqual([9]);
  });
});
