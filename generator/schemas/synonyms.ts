/**
 * `synonyms.yaml` (optional): words and phrases search treats as the same. `groups`: each entry of a group
 * finds what the others find; `one_way`: a search for `from` also finds what `to` finds, not the reverse.
 * Entries are compared after the analysis queries get (generator/search/synonyms.ts), so two spellings of
 * one entry are one entry, and an entry of stop words only would find nothing.
 */
import { z } from 'zod';
import { analyseEntry } from '../search/synonyms.ts';

const MAX_ENTRY = 60;
const MAX_GROUP = 20;

const entry = z
  .string({ error: 'must be a word or phrase (a string)' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .max(MAX_ENTRY, { error: `must be at most ${MAX_ENTRY} characters` })
  .refine((text) => analyseEntry(text) !== '', { error: 'holds no searchable word (only stop words or punctuation)' });

const entries = (min: number, what: string) =>
  z
    .array(entry, { error: `must be a list of words or phrases, like [ppc, pay per click]` })
    .min(min, { error: `must list at least ${min} ${what}` })
    .max(MAX_GROUP, { error: `must list at most ${MAX_GROUP} entries` })
    .describe(`words or phrases, each 1 to ${MAX_ENTRY} characters`);

export const synonymsSchema = z
  .strictObject({
    groups: z.array(z.strictObject({ words: entries(2, 'entries: a group says which words mean the same') })).default([]),
    one_way: z
      .array(z.strictObject({ from: entry, to: entries(1, 'entry') }))
      .default([])
      .describe('a search for "from" also finds what each "to" finds, not the reverse'),
  })
  .superRefine(({ groups }, context) => {
    // An entry in two groups would silently merge them; say where it first appeared.
    const seen = new Map<string, number>();
    groups.forEach(({ words }, group) => {
      words.forEach((word, index) => {
        const key = analyseEntry(word);
        const first = seen.get(key);
        if (first === undefined) seen.set(key, group);
        else if (first !== group)
          context.addIssue({
            code: 'custom',
            path: ['groups', group, 'words', index],
            message: `"${word}" is already in group ${first + 1}: an entry may be in one group only (merge the two groups)`,
          });
        else if (words.findIndex((other) => analyseEntry(other) === key) !== index)
          context.addIssue({ code: 'custom', path: ['groups', group, 'words', index], message: `"${word}" is listed twice in this group` });
      });
    });
  });

export type Synonyms = z.output<typeof synonymsSchema>;
