/**
 * Synthetic article-like documents for the search benchmark and the relevance suites: a real vocabulary
 * drawn from content/ growing with the corpus (Heaps' law), Zipf-Mandelbrot word frequencies, stop words as
 * in prose, words recurring within a document, whole 400-word bodies; seeded, so every run is the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
// @ts-expect-error -- stopword ships no type declarations.
import { eng } from 'stopword';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import { createRandom } from './synthetic-content.ts';

const CONTENT_DIR = fileURLToPath(new URL('../../content', import.meta.url));
const STOP_WORDS = eng as string[];
const VOCABULARY_SIZE = 5000;
const BODY_WORDS = 400;
// Calibrated on content/: stopword's English list covers about 35% of its words.
const STOP_SHARE = 0.35;
const ZIPF_OFFSET = 10;
const REPEAT_SHARE = 0.3;

/** Words of content/ by frequency, most frequent first, topped up with made-up words to `size`. */
function loadVocabulary(random: () => number, size: number): string[] {
  const counts = new Map<string, number>();
  const files = readdirSync(CONTENT_DIR, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
  for (const file of files) {
    for (const word of readFileSync(path.join(CONTENT_DIR, file), 'utf8')
      .toLowerCase()
      .match(/[a-z]{3,}/g) ?? []) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  const stop = new Set(STOP_WORDS);
  const words = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([word]) => word)
    .filter((word) => !stop.has(word));
  const syllables = ['ka', 'lo', 'mer', 'tin', 'sa', 'vo', 'ren', 'dal', 'pi', 'gor', 'ul', 'fen', 'bri', 'tas', 'mon'];
  const endings = ['', 's', 'ing', 'ed', 'er', 'tion', 'ment', 'ly', 'able', 'ness'];
  const seen = new Set(words);
  while (words.length < size) {
    const stem = Array.from({ length: 2 + Math.floor(random() * 3) }, () => syllables[Math.floor(random() * syllables.length)]).join('');
    const word = stem + endings[Math.floor(random() * endings.length)];
    if (!seen.has(word)) {
      words.push(word);
      seen.add(word);
    }
  }
  return words.slice(0, size);
}

/**
 * How distractors are written. `content` (what every figure uses unless said otherwise): the vocabulary's
 * frequencies are content/'s own, so the site's subject words are the corpus's commonest, and a title is 5 to 9
 * words drawn from the article's word urn (repeats and all, no stop word). `titles`: the same vocabulary, titles
 * written as titles are (distinct words, stop words as in prose). `independent`: titles so written, and the
 * vocabulary's frequency ranks shuffled, so which words are common no longer follows content/ (articles on
 * other subjects). docs/search-measurements.md compares the three.
 */
export type DistractorStyle = 'content' | 'titles' | 'independent';

/** `DISTRACTORS` of the environment, for the benches (default `content`). */
export function distractorStyle(): DistractorStyle {
  const style = process.env.DISTRACTORS ?? 'content';
  if (style !== 'content' && style !== 'titles' && style !== 'independent') throw new Error(`DISTRACTORS: unknown style ${style}`);
  return style;
}

/** `words` in a seeded random order (Fisher-Yates). */
function shuffled(words: string[], random: () => number): string[] {
  const out = [...words];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function createWriter(seed: number, vocabularySize = VOCABULARY_SIZE, style: DistractorStyle = 'content') {
  const random = createRandom(seed);
  const loaded = loadVocabulary(random, vocabularySize);
  const vocabulary = style === 'independent' ? shuffled(loaded, createRandom(seed + 1)) : loaded;
  // Zipf-Mandelbrot, weight 1/(rank + ZIPF_OFFSET): with the offset the most frequent words take about the
  // share they take in content/ (the top one ~1.4% of content words); plain 1/rank would give it 11%.
  const cumulative: number[] = [];
  vocabulary.reduce((sum, _, rank) => (cumulative[rank] = sum + 1 / (rank + 1 + ZIPF_OFFSET)), 0);
  const total = cumulative[cumulative.length - 1]!;
  const zipfWord = () => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return vocabulary[low]!;
  };
  const stopWord = () => STOP_WORDS[Math.floor(random() * STOP_WORDS.length)]!;
  // Words recur within a document (a Polya urn: a used word is likelier to be used again), which gives
  // content/'s ~160 distinct words per 400-word body rather than the ~210 of independent draws.
  let used: string[] = [];
  const contentWord = () => {
    const word = used.length && random() < REPEAT_SHARE ? used[Math.floor(random() * used.length)]! : zipfWord();
    used.push(word);
    return word;
  };
  const startDocument = () => {
    used = [];
  };
  const prose = (words: number) => Array.from({ length: words }, () => (random() < STOP_SHARE ? stopWord() : contentWord())).join(' ');
  const words = (count: number) => Array.from({ length: count }, contentWord);
  /** A title as titles are written: distinct content words, stop words as in prose (what the article then reuses). */
  const title = (count: number) => {
    const seen = new Set<string>();
    const out: string[] = [];
    while (out.length < count) {
      if (out.length > 0 && random() < STOP_SHARE) {
        out.push(stopWord());
        continue;
      }
      const word = zipfWord();
      if (seen.has(word)) continue;
      seen.add(word);
      used.push(word);
      out.push(word);
    }
    return out;
  };
  return { random, vocabulary, startDocument, prose, words, title };
}

/** A larger corpus has a larger vocabulary (Heaps' law); the made-up words are its long tail. */
export function createDocuments(count: number, style: DistractorStyle = 'content'): SearchDocument[] {
  const writer = createWriter(7, VOCABULARY_SIZE + Math.floor(count / 2), style);
  return Array.from({ length: count }, (_, index) => {
    const slug = `article-${index}`;
    const type = index % 10 === 0 ? 'services' : index % 10 === 1 ? 'expertise' : 'intelligence';
    writer.startDocument();
    const length = 5 + Math.floor(writer.random() * 5);
    const title = (style === 'content' ? writer.words(length) : writer.title(length)).join(' ');
    const summary = writer.prose(30);
    return {
      id: `${type}:${slug}`,
      title,
      tags: Array.from({ length: 4 }, () => writer.words(2).join('-')).join(' '),
      terms: 'Neural Core Measurement',
      summary,
      body: writer.prose(BODY_WORDS),
      stored: [slug, title, summary, `https://example.com/${type}/${slug}/`],
    };
  });
}

/** One- to six-word queries: plain words, questions with stop words, a typo, a half-typed last word. */
export function createQueries(count: number): string[] {
  const writer = createWriter(11);
  const word = () => writer.vocabulary[10 + Math.floor(writer.random() ** 2 * 2000)]!;
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 1 + (index % 4) }, word);
    if (index % 5 === 1) return `how do I ${words.join(' the ')} for my store`;
    if (index % 5 === 2) words[0] = words[0]!.replace(/^(\w\w)(\w)/, '$1x');
    if (index % 5 === 3) words[words.length - 1] = words[words.length - 1]!.slice(0, 4);
    return words.join(' ');
  });
}
