/**
 * References the search index is measured against, working from the documents themselves rather than from
 * the index's parts: a brute-force scorer with the rules of generator/search/ranking.ts (every document
 * scored, every term of the vocabulary looked at), and a plain in-memory MiniSearch with the site's text
 * analysis and field boosts, for the part of the ranking that is still MiniSearch's (BM25+ per word).
 */
import MiniSearch, { type Options } from 'minisearch';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { analyseField, withTitleLength } from '../../generator/search/index-writer.ts';
import {
  bm25,
  byRank,
  idfOf,
  neighbourFieldWeight,
  prefixFor,
  prefixWeight,
  RANKING,
  roundScore,
  SEARCH_FIELDS,
  TYPO_FIELDS,
  typoFor,
  wordScore,
} from '../../generator/search/ranking.ts';
import type { RankedResult, SearchQuery } from '../../generator/search/search.ts';
import { phrasesOf, phraseTerms, queryUnits, type SynonymTable } from '../../generator/search/synonyms.ts';
import { processTerm, tokenize } from '../../generator/search/text-analysis.ts';
import { oneEditApart } from '../../generator/search/typo-dictionary.ts';

/** A title token's occurrence mark (see miniSearchOptions): tokens are letters and digits, never `#`. */
const OCCURRENCE = /#\d+$/;

/**
 * MiniSearch with the site's analysis and boosts: only an oracle for BM25+ now, so it lives here. The index
 * measures a title by its terms, repeats counted (index-writer.ts withTitleLength), where MiniSearch counts
 * distinct tokens: each title token that is a term is marked with its place, so MiniSearch counts them all,
 * and the mark is taken off again before the term is made.
 */
export const miniSearchOptions: Options<SearchDocument> = {
  idField: 'id',
  fields: [...SEARCH_FIELDS],
  storeFields: ['stored'],
  tokenize: (text, field) =>
    field === 'title'
      ? tokenize(text)
          .filter((token) => processTerm(token) !== null)
          .map((token, i) => `${token}#${i}`)
      : tokenize(text),
  processTerm: (token) => processTerm(token.replace(OCCURRENCE, '')),
  searchOptions: { boost: RANKING.boosts, fuzzy: false, prefix: false },
};

type TermFields = Map<number, { tf: number; length: number }>;

/** Brute force: the ranking's rules over every document, from the documents' own text. */
export function createReferenceSearch(documents: readonly SearchDocument[], synonyms: SynonymTable | null = null) {
  const phrases = phrasesOf(synonyms);
  const order = documents.map((_, i) => i).sort((a, b) => (documents[a]!.id < documents[b]!.id ? -1 : 1));
  const postings = new Map<string, Map<number, TermFields>>();
  const averages = SEARCH_FIELDS.map(() => 0);
  documents.forEach((document, count) => {
    SEARCH_FIELDS.forEach((field, fieldId) => {
      const { length, terms } = withTitleLength(field, analyseField(document[field]));
      averages[fieldId] = (averages[fieldId]! * count + length) / (count + 1);
      const pairs: [string, number][] = [];
      for (let i = 0; i < terms.length; i += 2) pairs.push([terms[i] as string, terms[i + 1] as number]);
      const sequence = tokenize(document[field]).flatMap((token) => processTerm(token) ?? []);
      for (const phrase of phraseTerms(sequence, phrases, synonyms?.longest ?? 1))
        pairs.push([phrase, 1 + (pairs.find(([term]) => term === phrase)?.[1] ?? 0)]);
      for (const [term, tf] of pairs) {
        const byDoc = postings.get(term) ?? new Map<number, TermFields>();
        postings.set(term, byDoc);
        const fields = byDoc.get(count) ?? new Map();
        byDoc.set(count, fields.set(fieldId, { tf, length }));
      }
    });
  });
  const vocabulary = [...postings.keys()].sort();
  const countPostings = (term: string) => [...postings.get(term)!.values()].reduce((sum, fields) => sum + fields.size, 0);
  const df = (term: string, fieldId: number) => [...postings.get(term)!.values()].filter((fields) => fields.has(fieldId)).length;
  const typoFieldIds = TYPO_FIELDS.map((field) => SEARCH_FIELDS.indexOf(field));

  /**
   * One form's score in document `index` over `fieldIds`, fields ascending (0: not there); a neighbour's field
   * weights capped at those of `word`, its word, when the index holds it.
   */
  const formScore = (term: string, index: number, fieldIds: readonly number[], word?: string) => {
    const fields = postings.get(term)?.get(index);
    let sum = 0;
    for (const fieldId of fieldIds) {
      const posting = fields?.get(fieldId);
      if (!posting) continue;
      const field = SEARCH_FIELDS[fieldId]!;
      const own = RANKING.boosts[field] * idfOf(documents.length, df(term, fieldId));
      const capped = word !== undefined && word !== term && postings.has(word);
      const weight = capped ? neighbourFieldWeight(own, field, documents.length, postings.get(word)!.size) : own;
      sum += bm25(weight, posting.tf, posting.length, averages[fieldId]!);
    }
    return sum;
  };

  return ({ q, type, limit, offset }: SearchQuery): { total: number; items: RankedResult[] } => {
    const units = queryUnits(q, synonyms);
    const allFields = SEARCH_FIELDS.map((_, id) => id);
    const plans = units.map(({ word, synonyms: entries }, index) => {
      const single = !word.includes(' ');
      const own = postings.has(word) ? [{ term: word, weight: 1, fields: allFields, exact: true }] : [];
      const bySynonym = entries.filter((entry) => postings.has(entry) && entry !== word);
      const prefix =
        single &&
        prefixFor(
          word,
          index,
          units.map((unit) => unit.word),
        );
      const neighbours = vocabulary
        .filter((term) => term !== word && !bySynonym.includes(term))
        .flatMap((term) => {
          if (prefix && term.startsWith(word)) return [{ term, weight: prefixWeight(term, word), fields: allFields, exact: false }];
          const typo = single && typoFor(word) && oneEditApart(term, word) && typoFieldIds.some((id) => df(term, id) > 0);
          return typo ? [{ term, weight: RANKING.weights.typo, fields: typoFieldIds, exact: false }] : [];
        })
        .sort((a, b) => countPostings(b.term) - countPostings(a.term) || (a.term < b.term ? -1 : 1));
      const synonymForms = bySynonym.map((term) => ({ term, weight: RANKING.weights.synonym, fields: allFields, exact: false }));
      return [...own, ...[...synonymForms, ...neighbours].slice(0, RANKING.maxExpansions)];
    });
    // The words the index holds (a word no term answers is left out, as the engine leaves it out).
    const words = plans.filter((forms) => forms.length > 0).length;
    const ranked = order.flatMap((index, number) => {
      const id = documents[index]!.id;
      if (type !== 'all' && !id.startsWith(`${type}:`)) return [];
      const held = plans.map((forms, u) => {
        let best = 0;
        let exact = false;
        for (const form of forms) {
          const score = form.weight * formScore(form.term, index, form.fields, form.exact ? undefined : units[u]!.word);
          if (score > best) best = score;
          if (score > 0 && form.exact) exact = true;
        }
        return { best, exact };
      });
      // A complete match: every word the index holds, each exactly.
      const complete = held.every(({ best, exact }, u) => plans[u]!.length === 0 || (best > 0 && exact));
      let raw = 0;
      for (const { best, exact } of held) if (best > 0) raw += wordScore(words, exact, best, complete);
      return raw > 0 ? [{ id, number, raw, score: roundScore(raw), stored: documents[index]!.stored }] : [];
    });
    ranked.sort(byRank);
    return {
      total: ranked.length,
      items: ranked.slice(offset, offset + limit).map(({ id, raw, score, stored: [slug, title, summary, url] }) => {
        const separator = id.indexOf(':');
        return { type: id.slice(0, separator), id: id.slice(separator + 1), slug, title, summary, url, score, raw };
      }),
    };
  };
}

/** A plain MiniSearch over `documents`: a one-word query's score there is the word's BM25 part here. */
export function createMiniSearch(documents: readonly SearchDocument[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>(miniSearchOptions);
  index.addAll(documents);
  return index;
}
