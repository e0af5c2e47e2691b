/** Expertise areas, by category and industry (content/expertise/*.md). */
import * as Api from '../api.ts';
import { type MarkdownCollection, termsRoute } from '../collection-types.ts';
import { expertiseSchema } from '../records.ts';
import { expertiseRelations } from '../relations.ts';
import { CATEGORY_FILTER, practiceReferences, practiceSearch } from './practice.ts';

export const expertise = {
  kind: 'markdown',
  name: 'expertise',
  noun: 'expertise area',
  pattern: 'expertise/*.md',
  schema: expertiseSchema,
  fields: { title: 'title', summary: 'summary' },
  order: 'order',
  page: { path: 'expertise', key: 'slug', schema: 'DefinedTerm' },
  references: practiceReferences,
  api: {
    path: 'expertise',
    label: 'expertise',
    tag: 'Expertise',
    about: 'Expertise areas by category and industry, the industries served and the platforms worked with.',
    item: Api.expertiseItem,
    record: Api.expertiseRecord,
    list: { operationId: 'listExpertise', summary: 'List expertise areas' },
    get: { operationId: 'getExpertise', summary: 'Get an expertise area' },
    filters: [
      { ...CATEGORY_FILTER, description: 'Category id.' },
      { param: 'industry', fields: ['industries'], taxonomies: ['industries'], source: 'industries', description: 'Industry id.' },
    ],
    relations: expertiseRelations,
    routes: [
      termsRoute(
        { path: 'technologies', operationId: 'listPlatforms', summary: 'Technologies and platforms worked with' },
        'platforms',
        ['services', 'technologies'],
        ['expertise', 'technologies'],
      ),
      termsRoute({ path: 'industries', operationId: 'listIndustries', summary: 'List industries' }, 'industries', [
        'expertise',
        'industries',
      ]),
    ],
    search: practiceSearch,
  },
} as const satisfies MarkdownCollection;
