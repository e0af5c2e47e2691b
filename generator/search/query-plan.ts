/**
 * A query's plan: its words (a synonym phrase of the query is one word), and for each the terms it is
 * searched with (its own; the editors' synonyms; longer terms its last word prefixes; terms one edit away in
 * the short fields), at most RANKING.maxExpansions besides its own, the commonest kept, with their postings
 * records read. Runtime-neutral.
 */
import { lookupPrefix, lookupTerm } from './dictionary.ts';
import { postingsPath, type SearchMeta, type TermEntry } from './index-format.ts';
import { type IndexParts, partError } from './index-reader.ts';
import { ALL_FIELDS } from './postings-codec.ts';
import { neighbourFieldWeight, prefixFor, prefixWeight, RANKING, SEARCH_FIELDS, TYPO_FIELDS, typoFor } from './ranking.ts';
import type { Form, FormKind, Unit } from './prepared-form.ts';
import { readRecord } from './record-reader.ts';
import { queryUnits } from './synonyms.ts';
import { findTypos } from './typo-dictionary.ts';

const TYPO_MASK = TYPO_FIELDS.reduce((mask, field) => mask | (1 << SEARCH_FIELDS.indexOf(field)), 0);

interface Candidate {
  entry: TermEntry;
  kind: FormKind;
  weight: number;
  fields: number;
}

/** A word's neighbours: the synonyms first, then prefix and typo terms by postings (most first), capped. */
function capNeighbours(synonyms: Candidate[], others: Candidate[]): Candidate[] {
  const sorted = [...others].sort((a, b) => b.entry.postings - a.entry.postings || (a.entry.term < b.entry.term ? -1 : 1));
  return [...synonyms, ...sorted].slice(0, RANKING.maxExpansions);
}

async function planUnit(parts: IndexParts, meta: SearchMeta, word: string, synonyms: string[], prefix: boolean): Promise<Candidate[]> {
  const single = !word.includes(' ');
  const [exact, bySynonym, byPrefix, byTypo] = await Promise.all([
    lookupTerm(parts, meta.blocks, word),
    Promise.all(synonyms.map((term) => lookupTerm(parts, meta.blocks, term))),
    prefix && single ? lookupPrefix(parts, meta.blocks, word) : [],
    single && typoFor(word) ? findTypos(word, (key) => parts.typos(key)) : [],
  ]);
  const seen = new Set([word]);
  const fresh = (entry: TermEntry | undefined): entry is TermEntry =>
    entry !== undefined && !seen.has(entry.term) && !!seen.add(entry.term);
  const synonymForms = bySynonym
    .filter(fresh)
    .map((entry): Candidate => ({ entry, kind: 'synonym', weight: RANKING.weights.synonym, fields: ALL_FIELDS }));
  const prefixForms = byPrefix
    .filter(fresh)
    .map((entry): Candidate => ({ entry, kind: 'prefix', weight: prefixWeight(entry.term, word), fields: ALL_FIELDS }));
  const typoForms = byTypo
    .filter(fresh)
    .map((entry): Candidate => ({ entry, kind: 'typo', weight: RANKING.weights.typo, fields: TYPO_MASK }));
  const own: Candidate[] = exact ? [{ entry: exact, kind: 'exact', weight: 1, fields: ALL_FIELDS }] : [];
  return [...own, ...capNeighbours(synonymForms, [...prefixForms, ...typoForms])];
}

/** The units of `q` with their forms' records read; words nothing matches are left out (they change no score). */
export async function planQuery(parts: IndexParts, meta: SearchMeta, q: string): Promise<Unit[]> {
  const table = meta.synonyms ? await parts.synonyms() : null;
  const words = queryUnits(q, table);
  const planned = await Promise.all(
    words.map(({ word, synonyms }, index) =>
      planUnit(
        parts,
        meta,
        word,
        synonyms,
        prefixFor(
          word,
          index,
          words.map((unit) => unit.word),
        ),
      ),
    ),
  );
  const shards = [...new Set(planned.flat().map(({ entry }) => entry.location[0]))];
  const bytes = new Map(await Promise.all(shards.map(async (shard) => [shard, await parts.shard(shard)] as const)));
  return planned.flatMap((candidates, index): Unit[] => {
    if (candidates.length === 0) return [];
    const forms = candidates.map(({ entry, kind, weight, fields }): Form => {
      const [shard, offset, length] = entry.location;
      try {
        const charge = (decoded: number) => parts.charge(shard, decoded);
        const record = readRecord(bytes.get(shard)!, offset, length, meta, charge, postingsPath(shard));
        return { term: entry.term, kind, weight, fields, record };
      } catch (error) {
        throw partError(postingsPath(shard), (error as Error).message);
      }
    });
    return [{ word: words[index]!.word, forms: weighNeighbours(forms, meta.documents) }];
  });
}

/** The forms with each neighbour's field weights capped at its word's (ranking.ts neighbourFieldWeight). */
function weighNeighbours(forms: Form[], documents: number): Form[] {
  const own = forms.find((form) => form.kind === 'exact');
  if (!own) return forms;
  return forms.map((form) => {
    if (form === own) return form;
    const weights = form.record.weights.map((weight, field) =>
      neighbourFieldWeight(weight, SEARCH_FIELDS[field]!, documents, own.record.docCount),
    );
    // A copy: the parsed record may be shared, and its own weights serve its own term elsewhere.
    return { ...form, record: { ...form.record, weights } };
  });
}
