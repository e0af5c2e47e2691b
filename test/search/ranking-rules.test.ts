/**
 * The contract's ranking rules as properties, over many random cases. For a query of up to
 * RANKING.wordsRule.upTo words, the words rule: a record holding every word of the query ranks above every
 * record holding fewer, however strongly those hold theirs (in titles, repeated), and an exact match of a
 * word ranks above a typo, prefix or synonym match of it. For a longer question, a complete match (every
 * word, each exactly) ranks above everything else, even held in passing against the other words held
 * strongly; below it, BM25-weighted coverage: with the words held alike, more words rank higher and an exact
 * match above its neighbours (a neighbour never counts as rarer than its word), and a record holding some
 * words strongly ranks above one holding the same words in passing. The expansion cap keeps
 * the commonest neighbours of a word, counted in `total` exactly.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { SEARCH_META_PATH, type SearchDocument, type SearchMeta } from '../../generator/search/index-format.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import { RANKING } from '../../generator/search/ranking.ts';
import { processQuery } from '../../generator/search/text-analysis.ts';
import { createSearch } from '../../generator/search/search.ts';
import { createSynonymTable } from '../../generator/search/synonyms.ts';
import { createRandom } from '../helpers/synthetic-content.ts';

const LETTERS = 'bcdfghjklmnpqrstvwz';

/** A made-up word of `length` letters (no stop word, no stemming suffix). */
const wordOf = (random: () => number, length: number) =>
  Array.from({ length }, (_, i) => (i % 2 ? 'aeiou'[Math.floor(random() * 5)] : LETTERS[Math.floor(random() * LETTERS.length)])).join('');

function documentOf(id: string, title: string, body: string, tags = ''): SearchDocument {
  return { id, title, tags, terms: '', summary: title, body, stored: [id.split(':')[1]!, title, '', `https://example.com/${id}`] };
}

const searchOf = (documents: SearchDocument[], synonyms: Parameters<typeof createSynonymTable>[0] | null = null) =>
  createSearch(
    createMemoryAssets(
      new Map(writeSearchIndex(documents, undefined, synonyms && createSynonymTable(synonyms)).map(({ path, body }) => [path, body])),
    ),
  );

const { upTo } = RANKING.wordsRule;

describe('the ranking rules', () => {
  it(`ranks a record with every word above records with fewer, and an exact match above a typo, prefix or synonym of it (queries of up to ${upTo} words)`, async () => {
    const random = createRandom(17);
    for (let trial = 0; trial < 40; trial++) {
      const words = Array.from({ length: 2 + (trial % (upTo - 1)) }, () => wordOf(random, 6 + Math.floor(random() * 3)));
      const filler = Array.from({ length: 300 }, () => wordOf(random, 4)).join(' ');
      const last = words.length - 1;
      const typo = `${words[0]!.slice(0, 2)}x${words[0]!.slice(3)}`;
      const synonym = wordOf(random, 7);
      const documents = [
        // Every word exactly, each once, deep in a long body: the weakest way to hold them.
        documentOf('intelligence:all', 'Notes', `${filler} ${words.join(' ')}`),
        // All but one word, in the title, tags and summary, repeated.
        ...words.map((_, skip) => {
          const others = words.filter((__, i) => i !== skip).join(' ');
          return documentOf(`services:fewer-${skip}`, `${others} ${others}`, `${others} `.repeat(20), others);
        }),
        // Every word, the first one misspelt, in the title.
        documentOf('expertise:typo', `${typo} ${words.slice(1).join(' ')}`, words.slice(1).join(' ')),
        // Every word, the last one only as a longer word it prefixes, in the title.
        documentOf('expertise:prefix', `${words.slice(0, last).join(' ')} ${words[last]}x`, words.slice(0, last).join(' ')),
        // Every word, the first only through a synonym, in the title.
        documentOf('expertise:synonym', `${synonym} ${words.slice(1).join(' ')}`, words.slice(1).join(' ')),
      ];
      const search = searchOf(documents, { groups: [{ words: [words[0]!, synonym] }] });
      const { items } = await search.rank({ q: words.join(' '), type: 'all', limit: 20, offset: 0 });
      const order = items.map((item) => `${item.type}:${item.id}`);
      expect(order[0], words.join(' ')).toBe('intelligence:all');
      const rank = (id: string) => order.indexOf(id);
      for (const neighbour of ['expertise:typo', 'expertise:prefix', 'expertise:synonym']) {
        expect(rank(neighbour), `${neighbour} for ${words.join(' ')}`).toBeGreaterThan(0);
        for (let skip = 0; skip < words.length; skip++) expect(rank(neighbour)).toBeLessThan(rank(`services:fewer-${skip}`));
      }
      // The score says it: words found in the hundreds, exact ones in the tens; the explanation gives the parts.
      expect(Math.floor(items[0]!.raw / 100)).toBe(words.length);
      expect(Math.floor((items[0]!.raw % 100) / 10)).toBe(words.length);
      const explained = await search.rank({ q: words.join(' '), type: 'all', limit: 20, offset: 0 }, { explain: true });
      for (const item of explained.items) expect(item.explanation!.reduce((sum, part) => sum + part.score, 0)).toBe(item.raw);
      const typoed = explained.items.find((item) => item.id === 'typo')!.explanation![0]!;
      expect(typoed).toMatchObject({ form: { kind: 'typo' }, exact: false });
      expect(explained.items.find((item) => item.id === 'synonym')!.explanation![0]!.form?.kind).toBe('synonym');
      expect(explained.items[0]!.explanation!.every((part) => part.exact && part.form?.kind === 'exact')).toBe(true);
    }
  }, 60_000);
});

describe(`the ranking of questions of more than ${upTo} words`, () => {
  it('ranks a complete match above everything else, however weakly it holds its words; then more words above fewer, an exact match above a typo, prefix or synonym of it when held alike, and words held strongly above the same words in passing', async () => {
    const random = createRandom(29);
    for (let trial = 0; trial < 30; trial++) {
      const words = Array.from({ length: upTo + 1 + (trial % 4) }, () => wordOf(random, 6 + Math.floor(random() * 3)));
      const filler = Array.from({ length: 300 }, () => wordOf(random, 4)).join(' ');
      const spare = wordOf(random, 6);
      const last = words.length - 1;
      const synonym = wordOf(random, 7);
      // Held alike: the same tags' length and the same body; only which words the tags hold differs.
      const alike = (id: string, held: string[]) => documentOf(id, 'Notes', filler, held.join(' '));
      const documents = [
        alike('intelligence:all', words),
        ...words.map((_, skip) =>
          alike(
            `services:fewer-${skip}`,
            words.map((word, i) => (i === skip ? spare : word)),
          ),
        ),
        alike('expertise:typo', [`${words[0]!.slice(0, 2)}x${words[0]!.slice(3)}`, ...words.slice(1)]),
        alike('expertise:prefix', [...words.slice(0, last), `${words[last]}x`]),
        alike('expertise:synonym', [synonym, ...words.slice(1)]),
        // All but the first word in the title, tags and summary; every word once, deep in a long body; all
        // but the first word once, deep in a long body.
        documentOf('intelligence:strong', words.slice(1).join(' '), words.slice(1).join(' '), words.slice(1).join(' ')),
        documentOf('intelligence:passing', 'Notes', `${filler} ${words.join(' ')}`),
        documentOf('intelligence:fewer-passing', 'Notes', `${filler} ${words.slice(1).join(' ')}`),
      ];
      const search = searchOf(documents, { groups: [{ words: [words[0]!, synonym] }] });
      const q = words.join(' ');
      const { items } = await search.rank({ q, type: 'all', limit: 20, offset: 0 }, { explain: true });
      const rank = (id: string) => items.findIndex((item) => `${item.type}:${item.id}` === id);
      for (let skip = 0; skip < words.length; skip++) expect(rank('intelligence:all'), q).toBeLessThan(rank(`services:fewer-${skip}`));
      for (const neighbour of ['expertise:typo', 'expertise:prefix', 'expertise:synonym']) {
        expect(rank(neighbour), `${neighbour} for ${q}`).toBeGreaterThan(rank('intelligence:all'));
      }
      // The complete matches first, the one held in passing too; then the others by coverage.
      const complete = new Set(['intelligence:all', 'intelligence:passing']);
      for (const [i, item] of items.entries()) expect(complete.has(`${item.type}:${item.id}`), `${i}: ${item.id} for ${q}`).toBe(i < 2);
      expect(rank('intelligence:strong'), q).toBeLessThan(rank('intelligence:fewer-passing'));
      // Only a complete match has a tier (100 a word); every other record's score is its saturated BM25
      // parts, each below 1. The explanation gives the parts, tiers included.
      for (const item of items) {
        if (complete.has(`${item.type}:${item.id}`)) expect(item.raw).toBeGreaterThanOrEqual(100 * words.length);
        else expect(item.raw).toBeLessThan(words.length);
        expect(item.explanation!.reduce((sum, part) => sum + part.score, 0)).toBe(item.raw);
      }
    }
  }, 60_000);
});

describe("a title's length", () => {
  it('counts its terms, repeats counted and stop words not, where other fields count distinct tokens', async () => {
    const documents = [
      documentOf('intelligence:a', 'The agent of commerce', 'the agent of commerce'),
      documentOf('intelligence:b', 'Agent agent', 'agent agent'),
    ];
    const files = new Map(writeSearchIndex(documents).map(({ path, body }) => [path, body]));
    const meta = JSON.parse(files.get(SEARCH_META_PATH) as string) as SearchMeta;
    // Terms: 2 and 2 (MiniSearch's distinct tokens: 4 and 1). Bodies keep distinct tokens: 4 and 1.
    expect(meta.averageFieldLength[0]).toBe(2);
    expect(meta.averageFieldLength[4]).toBe(2.5);
  });
});

describe("a question's own words", () => {
  it('are not words of what it asks about: a record holding its subject strongly ranks above one that also holds why, when or does in passing', async () => {
    const random = createRandom(29);
    for (let trial = 0; trial < 10; trial++) {
      const words = Array.from({ length: 4 }, () => wordOf(random, 6 + Math.floor(random() * 3)));
      const filler = () => Array.from({ length: 100 }, () => wordOf(random, 4)).join(' ');
      const documents = [
        documentOf('intelligence:about', words.join(' '), `${words.join(' ')} ${filler()}`, words.join(' ')),
        // Every word once, far apart, with the question's own words among them.
        documentOf('services:passing', 'Notes', words.map((word) => `${filler()} ${word} why does it fail when`).join(' ')),
      ];
      const q = `why does ${words.join(' ')} when`;
      const { items } = await searchOf(documents).rank({ q, type: 'all', limit: 10, offset: 0 });
      expect(
        items.map((item) => item.id),
        q,
      ).toEqual(['about', 'passing']);
    }
    expect(processQuery('Why does it fail, and when?')).toEqual(['fail']);
  });
});

describe('the expansion cap', () => {
  it(`searches a word with at most ${RANKING.maxExpansions} neighbours, the commonest, and counts exactly their documents`, async () => {
    // "widg" prefixes 30 longer words; the i-th is in i + 1 documents.
    const documents: SearchDocument[] = [];
    const completions = Array.from({ length: 30 }, (_, i) => `widg${String.fromCharCode(97 + (i % 26))}${i >= 26 ? 'z' : ''}t`);
    completions.forEach((word, i) => {
      for (let copy = 0; copy <= i; copy++) documents.push(documentOf(`intelligence:${word}-${copy}`, word, 'text'));
    });
    const search = searchOf(documents);
    const kept = completions.slice(-RANKING.maxExpansions);
    const expected = kept.reduce((sum, word) => sum + completions.indexOf(word) + 1, 0);
    const titles = new Set<string>();
    for (let offset = 0; offset < expected; offset += 100) {
      const { total, items } = await search.search({ q: 'widg', type: 'all', limit: 100, offset });
      expect(total).toBe(expected);
      for (const item of items) titles.add(item.title);
    }
    expect(titles).toEqual(new Set(kept));
  });
});
