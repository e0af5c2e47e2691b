/**
 * Shapes records into what the API answers, from the collections table: a list item has the keys of the
 * collection's `item` schema and a get route's record those of its `record` schema, in the schemas' order.
 * A key is a field of the record unless it is derived (below); an absent optional field is `null`.
 */
import { hash } from 'node:crypto';
import type { AnyEntry } from '../../../schemas/collections.ts';
import { estimateReadingTime } from '../../../shared/reading-time.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { keptRelated } from './kept-relations.ts';

type Json = Record<string, unknown>;

/** Keys whose value is computed rather than copied from the front matter. */
const DERIVED: Record<string, (record: AnyEntry, key: string, catalogue: Catalogue) => unknown> = {
  slug: (record) => record.slug,
  url: (record, key, catalogue) => catalogue.recordUrl(key, record),
  reading_time: (record) => estimateReadingTime(record.body),
  // Site-relative in content, absolute in the API, so a client can fetch it as it is.
  image: (record, _key, catalogue) => (typeof record.image === 'string' ? `${catalogue.siteUrl}${record.image}` : null),
  content_html: (record, _key, catalogue) => catalogue.render(record),
  related: (record, key, catalogue) => relatedOf(record, key, catalogue),
};

/** A record's `related` object, made once per build, and kept across builds while nothing it reads changed. */
const relatedOf = (record: AnyEntry, key: string, catalogue: Catalogue) => keptRelated(record, key, catalogue).related;

/**
 * What a record's envelope and page are made from (output-tracker.ts): its file, and what they print of
 * other records and terms (the `related` object: their ids, titles, names and addresses).
 */
export function recordInputs(record: AnyEntry, key: string, catalogue: Catalogue): string {
  // Once per record and kept related object (its envelope and its page both name it), as one short digest.
  const kept = keptRelated(record, key, catalogue);
  kept.inputs ??= hash('sha1', `${key}\n${catalogue.track.digest(record.file)}\n${kept.json}`, 'base64');
  return kept.inputs;
}

function fill(keys: readonly string[], record: AnyEntry, key: string, catalogue: Catalogue, into: Json): Json {
  for (const name of keys) {
    const derive = DERIVED[name];
    into[name] = derive ? derive(record, key, catalogue) : (record[name] ?? null);
  }
  return into;
}

/** Shapes the records of one collection; the key lists are read from its schemas once. */
export function createShaper(key: string, catalogue: Catalogue) {
  const { api } = catalogue.collection(key);
  if (!api) throw new Error(`collection "${key}" is not served by the API`);
  const itemKeys = Object.keys(api.item.shape);
  const recordKeys = Object.keys(api.record.shape).filter((name) => !itemKeys.includes(name));
  // An item is a function of its record's file and the site's address (and of its relations, if it has them):
  // kept across builds by those (npm run dev), so an edit shapes one item. Never without the file's digest.
  const keptBy = (record: AnyEntry) => {
    const digest = catalogue.track.digest(record.file);
    if (!digest) return undefined;
    const related = itemKeys.includes('related') ? keptRelated(record, key, catalogue).json : '';
    return `${key}\n${digest}\n${catalogue.siteUrl}\n${related}`;
  };
  const shapeItem = (record: AnyEntry): Json => {
    const kept = keptBy(record);
    const make = () => fill(itemKeys, record, key, catalogue, {});
    return kept === undefined ? make() : catalogue.memo('api item', kept, make);
  };
  // Each record is shaped once per build, whichever output (envelopes, pages) asks first.
  const tables = { item: `${key} item`, json: `${key} item json`, record: `${key} record` };
  const item = (record: AnyEntry): Json => catalogue.perRecord(tables.item, record, () => shapeItem(record));
  return {
    item,
    /** A field of the item; a stored one is read from the record, so a list's filters shape no item. */
    field: (record: AnyEntry, name: string): unknown =>
      !itemKeys.includes(name) ? undefined : DERIVED[name] ? item(record)[name] : (record[name] ?? null),
    /** What the item is made from (output-tracker.ts): '' when the build tracks nothing. */
    itemInputs: (record: AnyEntry): string => keptBy(record) ?? '',
    /** The item as JSON, kept as the item is. */
    itemJson: (record: AnyEntry): string =>
      catalogue.perRecord(tables.json, record, () => {
        const kept = keptBy(record);
        const make = () => JSON.stringify(item(record));
        return kept === undefined ? make() : catalogue.memo('api item json', kept, make);
      }),
    /** `item` is the list item when the caller has it already, so shared fields are shaped once. */
    record: (record: AnyEntry, item: Json): Json => {
      // Let go once its envelope and its page have it (a body's HTML is most of it): a later use shapes it again.
      const kept = catalogue.perRecord(tables.record, record, () => ({ shaped: undefined as Json | undefined, uses: 0 }));
      kept.shaped ??= fill(recordKeys, record, key, catalogue, { ...item });
      const shaped = kept.shaped;
      if (++kept.uses % 2 === 0) kept.shaped = undefined;
      return shaped;
    },
  };
}
