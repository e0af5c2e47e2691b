/**
 * The documents of search: one per published record of each searchable collection (the collections table
 * says which, and which fields), with the text a reader sees of its Markdown. Both the lexical index
 * (search/search-file.ts) and the semantic one (semantic/semantic-output.ts) are made from them.
 */
import { type AnyEntry, apiCollections, type ApiCollection } from '../../schemas/collection-types.ts';
import type { SearchDocument, StoredResult } from '../../search/index-format.ts';
import type { Catalogue } from '../catalogue/catalogue.ts';

/**
 * Markdown to the words a reader sees: link and image targets, HTML tags and bare addresses go, so that
 * "https", "www" and file names do not become search terms. Punctuation is left to the tokenizer.
 */
export function toSearchText(markdown: string): string {
  return (
    markdown
      // Each pattern stops at the next opener or line end, so that text full of `[`, `(` or `<` that never
      // closes is still read once (a scan to the end from every opener was quadratic).
      .replace(/^[ \t]{0,3}\[[^\]\n]+\]:[ \t]*\S.*$/gm, ' ') // reference definitions: [id]: https://...
      .replace(/!?\[([^[\]]*)\]\([^()]*\)/g, '$1') // [text](target) and ![alt](src) keep the text
      .replace(/<[^<>]*>/g, ' ')
      .replace(/\bhttps?:\/\/\S+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** The display names of the ids a reference field holds, as one string. */
const namesIn = (value: unknown, names: ReadonlyMap<string, string>) =>
  (Array.isArray(value) ? value : [value]).flatMap((id) => (typeof id === 'string' && id ? [names.get(id) ?? id] : [])).join(' ');

/** A record's `terms` text: the names of the terms its search-term fields name, the one thing a document reads of other files. */
export function documentTerms(key: string, collection: ApiCollection, catalogue: Catalogue): (record: AnyEntry) => string {
  const { api, references = {} } = collection;
  const termNames = api.search!.terms.map((field) => {
    const reference = references[field];
    if (!Array.isArray(reference)) throw new Error(`search terms of ${key}: "${field}" is not a reference to a taxonomy`);
    return [field, catalogue.names(reference)] as const;
  });
  return (record) => termNames.map(([field, names]) => namesIn(record[field], names)).join(' ');
}

/** A document's id: its collection's API path (search's `type` parameter) and its record's id. */
const documentId = (type: string, record: AnyEntry) => `${type}:${record.id}`;

/** The document of a record of one searchable collection. */
function documentMaker(
  key: string,
  collection: ApiCollection,
  catalogue: Catalogue,
  bodyText: BodyText,
): (record: AnyEntry) => SearchDocument {
  const { api, fields } = collection;
  const search = api.search!;
  const type = api.path;
  const termsOf = documentTerms(key, collection, catalogue);
  return (record) => {
    const shown = {
      id: documentId(type, record),
      title: String(record[fields.title]),
      tags: search.tags.flatMap((field) => (record[field] as string[] | undefined) ?? []).join(' '),
      terms: termsOf(record),
      summary: String(record[fields.summary]),
    };
    // As the list items give them (shape-records.ts copies these fields and derives the url the same way).
    const stored: StoredResult = [
      record.slug,
      String(record[fields.title]),
      String(record[fields.summary]),
      catalogue.recordUrl(key, record),
    ];
    return withLazyBody(shown, record, bodyText, stored);
  };
}

/**
 * The documents of one searchable collection.
 * `known`: the next record's document from an earlier build, when its inputs are the same (search-state.ts).
 */
function createDocuments(key: string, collection: ApiCollection, catalogue: Catalogue, bodyText: BodyText, known: Known): SearchDocument[] {
  const make = documentMaker(key, collection, catalogue, bodyText);
  return catalogue.records[key]!.map((record) => known() ?? make(record));
}

/**
 * A document's body, made when asked for: an index updated by term reads only the edited documents' (a
 * record's body may be read from its file only then; load-content.ts). Made here, apart from the build's
 * scope: a document is kept from build to build (search-state.ts), and a getter made where the catalogue is
 * in scope held that build's catalogue, and through it the one before, every edit (the builder's heap grew
 * by a catalogue an edit). `bodyText` must hold nothing of a build either (`searchText`).
 */
function withLazyBody(
  shown: Omit<SearchDocument, 'body' | 'stored'>,
  record: AnyEntry,
  bodyText: BodyText,
  stored: StoredResult,
): SearchDocument {
  let body: string | undefined;
  return {
    ...shown,
    get body() {
      body ??= bodyText(record.body);
      return body;
    },
    set body(text: string) {
      body = text;
    },
    stored,
  };
}

/** The search text of a body, by the build cache's memo: a function that holds the memo only, never a catalogue. */
export function searchText(memo: Catalogue['memo']): BodyText {
  return (body) => memo('search text', body, () => toSearchText(body));
}

/** What a document's body holds: its search text, or the Markdown itself for a thread that makes the text. */
type BodyText = (markdown: string) => string;
type Known = () => SearchDocument | undefined;

/** The searchable collections, in build order. */
const searchable = (catalogue: Catalogue) => apiCollections(catalogue.collections).filter(([, collection]) => collection.api.search);

/**
 * One document per published record of every searchable collection, in catalogue order (so builds match).
 * `known(index)`: the document at that index from an earlier build, when its record's inputs are the same.
 */
export function createSearchDocuments(
  catalogue: Catalogue,
  bodyText: BodyText,
  known?: (index: number) => SearchDocument | undefined,
): SearchDocument[] {
  let index = 0;
  const next = () => known?.(index++);
  return searchable(catalogue).flatMap(([key, collection]) => createDocuments(key, collection, catalogue, bodyText, next));
}

/** The documents of createSearchDocuments one at a time, by index: a document is made only when asked for. */
export interface SearchDocumentSource {
  count: number;
  /** The id of the document at `index`, without making the document. */
  idAt(index: number): string;
  at(index: number): SearchDocument;
}

/**
 * The documents of search by index, in createSearchDocuments' order: an index updated by term from a build's
 * store makes the edited documents and their cards' neighbours only, not one per record (at 100,000 records,
 * making every document was a third of an edit's search step).
 */
export function searchDocumentSource(catalogue: Catalogue, bodyText: BodyText): SearchDocumentSource {
  const lists = searchable(catalogue).map(([key, collection]) => {
    let make: ((record: AnyEntry) => SearchDocument) | undefined;
    return {
      records: catalogue.records[key]!,
      type: collection.api.path,
      make: () => (make ??= documentMaker(key, collection, catalogue, bodyText)),
    };
  });
  const find = (index: number) => {
    let at = index;
    for (const list of lists) {
      if (at < list.records.length) return { list, record: list.records[at]! };
      at -= list.records.length;
    }
    throw new RangeError(`no search document ${index}`);
  };
  return {
    count: lists.reduce((sum, { records }) => sum + records.length, 0),
    idAt(index) {
      const { list, record } = find(index);
      return documentId(list.type, record);
    },
    at(index) {
      const { list, record } = find(index);
      return list.make()(record);
    },
  };
}
