/**
 * Validates raw records against their collection's schema, then checks what no single schema can see:
 * references between collections, unique ids and slugs, image files. Every problem is collected.
 */
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import type { Content } from '../../schemas/content.ts';
import { type BuildCache, NO_CACHE } from '../build-cache.ts';
import type { RawContent } from '../load/load-content.ts';
import { ContentError, type Problem } from '../problems.ts';
import { checkReferences } from './check-references.ts';
import { checkOnce, checkRecord } from './check-record.ts';
import type { Checked, CheckedContent } from './checked.ts';
import { createSteadyValidation, type SteadyValidation } from './steady-validation.ts';

/** Identifies the field a problem is about, so one field is not reported twice for one mistake. */
const fieldKey = (problem: Problem) => `${problem.file}\n${problem.field}`;

/** What each build cache kept from the validation before (npm run dev keeps one for its whole run). */
const steadyValidations = new WeakMap<BuildCache, SteadyValidation>();

/**
 * Validates everything; throws `ContentError` with every problem found, grouped later by file. With a build
 * cache kept from the build before, checks only what changed since while nothing is a problem (steady-validation.ts).
 */
export function validateContent(raw: RawContent, collections: CollectionTable = siteCollections, cache: BuildCache = NO_CACHE): Content {
  if (cache !== NO_CACHE) {
    let steady = steadyValidations.get(cache);
    if (steady?.collections !== collections) {
      steady = createSteadyValidation(collections);
      steadyValidations.set(cache, steady);
    }
    const content = steady.validate(raw);
    if (content) return content;
  }
  const problems: Problem[] = [...raw.problems];
  const checked: Record<string, Checked[]> = {};
  // Each record's check kept by its raw record only for a build cache's next build (npm run dev): a build
  // without one (npm run build) would keep 100,000 checks in a weak map that no one asks again.
  const check = cache === NO_CACHE ? checkRecord : checkOnce;
  const ownTable = collections === siteCollections;
  for (const [key, collection] of Object.entries(collections)) {
    const list: Checked[] = [];
    for (const record of raw.records[key] ?? []) {
      const one = check(record, collection, problems, ownTable);
      if (one) list.push(one);
    }
    checked[key] = list;
  }
  const [site] = checked.site ?? [];
  if (site) {
    // A field its schema already refused ("Paid Media" as a category) is not also an unknown reference.
    const refused = new Set(problems.map(fieldKey));
    const content = { ...checked, site } as CheckedContent;
    problems.push(...checkReferences(content, raw.images, collections).filter((problem) => !refused.has(fieldKey(problem))));
  }
  if (problems.length) throw new ContentError(problems);

  const plain: Record<string, unknown> = {};
  for (const [key, collection] of Object.entries(collections)) {
    plain[key] = collection.kind === 'document' ? checked[key]![0]?.value : checked[key]!.map((record) => record.value);
  }
  return plain as Content;
}
