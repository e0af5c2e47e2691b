/**
 * The editors' synonyms (content/synonyms.yaml) as search uses them. Every entry is analysed as queries are
 * (case, accents, stop words, stemming) into its terms, joined by a space: "Pay per click" is "pai click".
 * The writer indexes each phrase of two words or more as one term wherever its words follow each other in a
 * field (stop words between them skipped, as in queries), so a phrase matches as its words in order; the
 * reader turns a query into words, a phrase the table knows counting as one word, each with the entries it
 * also finds. Runtime-neutral.
 */
import { MAX_QUERY_TERMS, processTerm, tokenize } from './text-analysis.ts';

/** What synonyms.yaml holds (validated by the schema in generator/schemas/synonyms.ts). */
export interface SynonymsFile {
  groups?: { words: string[] }[];
  one_way?: { from: string; to: string[] }[];
}

/** The index part: each analysed entry with the analysed entries it also finds, and the longest entry's words. */
export interface SynonymTable {
  expansions: Record<string, string[]>;
  longest: number;
}

/** An entry's terms, joined by a space; '' when it holds only stop words. */
export const analyseEntry = (text: string) =>
  tokenize(text)
    .map((token) => processTerm(token))
    .filter((term): term is string => !!term)
    .join(' ');

/** The table of a synonyms file (entries already validated as non-empty after analysis). */
export function createSynonymTable(file: SynonymsFile): SynonymTable {
  const expansions = new Map<string, Set<string>>();
  const link = (from: string, to: string) => {
    if (!from || !to || from === to) return;
    const set = expansions.get(from) ?? new Set<string>();
    expansions.set(from, set.add(to));
  };
  for (const { words } of file.groups ?? []) {
    const entries = words.map(analyseEntry);
    for (const from of entries) for (const to of entries) link(from, to);
  }
  for (const { from, to } of file.one_way ?? []) for (const target of to) link(analyseEntry(from), analyseEntry(target));
  const keys = [...expansions.keys()].sort();
  return {
    expansions: Object.fromEntries(keys.map((key) => [key, [...expansions.get(key)!].sort()])),
    longest: Math.max(1, ...[...expansions].flatMap(([key, targets]) => [key, ...targets].map((entry) => entry.split(' ').length))),
  };
}

/** Every entry of two words or more: the phrases the writer indexes as terms. */
export function phrasesOf(table: SynonymTable | null): Set<string> {
  const phrases = new Set<string>();
  for (const [key, targets] of Object.entries(table?.expansions ?? {})) {
    for (const entry of [key, ...targets]) if (entry.includes(' ')) phrases.add(entry);
  }
  return phrases;
}

/** The phrase terms among a field's `terms` (in order): each run of 2 to `longest` terms that is a phrase. */
export function phraseTerms(terms: readonly string[], phrases: ReadonlySet<string>, longest: number): string[] {
  const found: string[] = [];
  if (phrases.size === 0) return found;
  for (let i = 0; i < terms.length; i++) {
    let key = terms[i]!;
    for (let length = 2; length <= longest && i + length <= terms.length; length++) {
      key += ` ${terms[i + length - 1]}`;
      if (phrases.has(key)) found.push(key);
    }
  }
  return found;
}

/** A query word (or phrase) and the entries it also finds. */
export interface QueryUnit {
  word: string;
  synonyms: string[];
}

/**
 * The words of query `q` in order, repeated ones once, at most MAX_QUERY_TERMS: the longest run of terms the
 * table knows as an entry is one word (so "paid search" finds what "ppc" finds), every other term its own.
 */
export function queryUnits(q: string, table: SynonymTable | null): QueryUnit[] {
  const terms = tokenize(q)
    .map((token) => processTerm(token))
    .filter((term): term is string => !!term);
  const units = new Map<string, QueryUnit>();
  for (let i = 0; i < terms.length && units.size < MAX_QUERY_TERMS; ) {
    let length = Math.min(table?.longest ?? 1, terms.length - i);
    while (length > 1 && !Object.hasOwn(table!.expansions, terms.slice(i, i + length).join(' '))) length--;
    const word = terms.slice(i, i + length).join(' ');
    if (!units.has(word))
      units.set(word, { word, synonyms: (table && Object.hasOwn(table.expansions, word) && table.expansions[word]) || [] });
    i += length;
  }
  return [...units.values()];
}
