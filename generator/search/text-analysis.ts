/**
 * Text analysis: how text becomes search terms. The index is built and queried with exactly these
 * functions, so a word in a query meets the same word in a document. Runtime-neutral.
 */
import { stemmer } from 'stemmer';
import { ENGLISH_STOP_WORDS } from './stop-words.ts';

/**
 * The list names how, what, where, which, who, do and did but not their siblings below, so a question's own
 * form ("why does ...", "when should ...") counted as words of its subject: a record then had to hold "why"
 * or "does" to be a complete match of the question (docs/search-measurements.md, "Why, at 100,000").
 */
const QUESTION_WORDS = ['does', 'doing', 'when', 'why', 'whom', 'whose'];
const STOP_WORDS: ReadonlySet<string> = new Set<string>([...ENGLISH_STOP_WORDS, ...QUESTION_WORDS]);

// Apostrophes join rather than split, so "merchant's" indexes as "merchant" and "don't" as "dont".
const APOSTROPHE = /['\u2019](?:s\b)?/g;
const SEPARATORS = /[^\p{L}\p{N}]+/u;
// The same split for text of ASCII characters only (their letters and digits are exactly these): most
// queries are, and a fresh isolate compiles the Unicode class above in about half a millisecond of its
// first search, this one in a tenth of that.
const ASCII_SEPARATORS = /[^A-Za-z0-9]+/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const NON_ASCII = /[^\u0000-\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const NON_ASCII_CHARS = /[^\u0000-\u007f]/gu;
const MARKS = /\p{M}+/gu;
const NON_WORD_CHARS = /[^\p{L}\p{N}]/gu;
const HAS_NON_WORD = /[^\p{L}\p{N}]/u;

/**
 * One character, compatibility-folded without its accents ("é" -> "e", "ﬁ" -> "fi", "™" -> "TM"). A
 * character whose folding holds separators ("㏂" -> "a.m.", "ﷺ" -> four words) gives its letters as one run,
 * so that no character can turn into several words: a query's cost stays bounded by its length.
 */
function foldCharacter(char: string): string {
  const folded = char.normalize('NFKD').replace(MARKS, '');
  if (!HAS_NON_WORD.test(folded)) return folded;
  const letters = folded.replace(NON_WORD_CHARS, '');
  return letters === '' ? ' ' : letters;
}

/** Splits text into words on anything but letters and digits; accents are folded so "café" finds "cafe". */
export function tokenize(text: string): string[] {
  const joined = text.replace(APOSTROPHE, '');
  if (!NON_ASCII.test(joined)) return joined.split(ASCII_SEPARATORS);
  return joined.replace(NON_ASCII_CHARS, foldCharacter).split(SEPARATORS);
}

// British -ise/-isation and -yse forms meet their American -ize/-yze spellings ("optimisation" finds
// "optimization"), which stemming alone would keep apart. Only after the endings of such verbs, so that
// "promise", "advertise" or "expertise" keep their own families.
const ISE_SPELLING = /(al|an|en|gn|ic|il|im|it|og|om|on|or|rd)is(e|es|ed|er|ers|ing|ation|ations)$/;
const YSE_SPELLING = /lys(e|es|ed|er|ers|ing)$/;

/** One spelling for words that British and American English write differently (folded to American). */
export function foldSpelling(word: string): string {
  return word.replace(ISE_SPELLING, '$1iz$2').replace(YSE_SPELLING, 'lyz$1');
}

/**
 * Lowercase, drop stop words and stray single letters (left over from "e-commerce" or initials, and a
 * one-letter prefix would match a large part of the vocabulary), then Porter-stem so word forms meet.
 */
export function processTerm(term: string): string | null {
  const word = term.toLowerCase();
  if (word === '' || STOP_WORDS.has(word)) return null;
  if (word.length === 1 && !/\d/.test(word)) return null;
  return stemmer(foldSpelling(word));
}

/**
 * Distinct terms a query is searched with, at most: a natural-language question has a handful once stop
 * words go, and each term costs a walk of the index (more with typo tolerance), so a query of 200
 * characters can cost no more than a few ordinary ones.
 */
export const MAX_QUERY_TERMS = 8;

/** The distinct terms a query is searched with, in query order, at most MAX_QUERY_TERMS; empty when it holds only stop words. */
export function processQuery(query: string): string[] {
  const terms = new Set<string>();
  for (const token of tokenize(query)) {
    const term = processTerm(token);
    if (term) terms.add(term);
    if (terms.size === MAX_QUERY_TERMS) break;
  }
  return [...terms];
}
