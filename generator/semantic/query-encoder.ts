/**
 * The query encoder the edge can run: a static vector per vocabulary term, distilled at build time from the
 * model (encoder-writer.ts), read in blocks like the lexical dictionary. A query's vector is the mean of its
 * terms' vectors, in query order (so the sum, and the answer, are the same everywhere).
 * Runtime-neutral.
 */
import { processQuery } from '../search/text-analysis.ts';
import type { EnabledMeta, SemanticParts } from './semantic-reader.ts';
import { normalize } from './vector-part.ts';
import { lastAtOrBefore } from '../shared/sorted-search.ts';

/** The query's unit vector, or null when none of its terms is in the encoder's vocabulary. */
export async function encodeQuery(parts: SemanticParts, meta: EnabledMeta, q: string): Promise<Float64Array | null> {
  const terms = processQuery(q);
  const blocks = await Promise.all(
    terms.map((term) => {
      const block = lastAtOrBefore(meta.encoderBlocks, term);
      return block < 0 ? null : parts.encoder(block);
    }),
  );
  const sum = new Float64Array(meta.dimensions);
  let found = 0;
  terms.forEach((term, t) => {
    const part = blocks[t];
    const index = part ? part.header.terms.indexOf(term) : -1;
    if (!part || index < 0) return;
    const weight = part.scales[index]!;
    const base = index * meta.dimensions;
    for (let i = 0; i < meta.dimensions; i++) sum[i]! += weight * part.codes[base + i]!;
    found++;
  });
  return found === 0 ? null : normalize(sum);
}
