import { describe, expect, it } from 'vitest';
// @ts-expect-error -- stopword ships no type declarations; `eng` is a plain array of lowercase words.
import { eng } from 'stopword';
import { ENGLISH_STOP_WORDS } from '../../generator/search/stop-words.ts';
import { processTerm } from '../../generator/search/text-analysis.ts';

describe('the English stop words', () => {
  it('are the stopword package English list, word for word and in order', () => {
    expect(ENGLISH_STOP_WORDS).toEqual(eng);
  });

  it('are dropped from queries and documents, and a word that is not one is kept', () => {
    for (const word of eng as string[]) expect(processTerm(word)).toBeNull();
    expect(processTerm('checkout')).toBe('checkout');
  });
});
