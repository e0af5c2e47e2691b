/**
 * The relations of the site's collections: each field of a get route's `related` object, declared once. The
 * collections table gives them to the catalogue (what each field holds), and the answer schemas derive each
 * record's `related` schema from them (schemas/api.ts), so the OpenAPI document says what the build computes.
 */
import type { Relation } from './collection-types.ts';

/** The collections a practice record's `technologies` names: technologies and platforms. */
export const TECHNOLOGIES = ['technology', 'platforms'] as const;

const sameCategory = (collection: string, description: string, max?: number): Relation => ({
  kind: 'same',
  collection,
  field: 'category',
  ...(max ? { max } : {}),
  description,
});

/** Relations of services and expertise areas, which differ only in which other practice collection they list. */
const practiceRelations = (other: 'services' | 'expertise', otherDescription: string) =>
  ({
    category: { kind: 'term', field: 'category', taxonomies: ['categories'] },
    industries: { kind: 'terms', field: 'industries', taxonomies: ['industries'] },
    technologies: { kind: 'terms', field: 'technologies', taxonomies: TECHNOLOGIES },
    [other]: sameCategory(other, otherDescription),
    articles: sameCategory('intelligence', 'The newest articles in the same category (at most 5).', 5),
  }) satisfies Record<string, Relation>;

export const serviceRelations = practiceRelations('expertise', 'Expertise areas in the same category.');
export const expertiseRelations = practiceRelations('services', 'Services in the same category.');

export const technologyRelations = {
  category: { kind: 'term', field: 'category', taxonomies: ['technologyCategories'] },
  services: { kind: 'referencing', collection: 'services', field: 'technologies', description: 'Services that use this technology.' },
  expertise: {
    kind: 'referencing',
    collection: 'expertise',
    field: 'technologies',
    description: 'Expertise areas that use this technology.',
  },
} as const satisfies Record<string, Relation>;

export const articleRelations = {
  topics: { kind: 'terms', field: 'topics', taxonomies: ['topics'] },
  category: { kind: 'term', field: 'category', taxonomies: ['categories'] },
  articles: { kind: 'sharing', field: 'topics', max: 3, description: 'Up to 3 newer-first articles sharing a topic.' },
} as const satisfies Record<string, Relation>;
