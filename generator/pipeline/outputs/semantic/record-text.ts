/**
 * The text that stands for a record in the semantic index: its title, summary, tags and terms, and the start
 * of its body. Chosen by measurement (docs/semantic-search.md): the model reads short text best, and a
 * whole article's body blurs the vector toward what every article shares.
 */
import type { SearchDocument } from '../../../search/index-format.ts';

/** Words of the body kept after the title, summary, tags and terms. */
export const BODY_WORDS = 60;

/**
 * The form of recordText's output, part of the vector cache's key (vector-cache.ts): change it with the
 * function, so a cache made from texts of another form is never read.
 */
export const RECORD_TEXT_FORM = `title.summary.tags.terms.body${BODY_WORDS}`;

export function recordText({ title, summary, tags, terms, body }: SearchDocument, bodyWords = BODY_WORDS): string {
  const start = bodyWords > 0 ? body.split(/\s+/, bodyWords).join(' ') : '';
  return [`${title}.`, summary, tags, terms, start].filter((part) => part.trim() !== '').join(' ');
}
