/** Services: what the agency offers, by practice category (content/services/*.md). */
import * as Api from '../api.ts';
import { type MarkdownCollection, termsRoute } from '../collection-types.ts';
import { serviceSchema } from '../records.ts';
import { serviceRelations } from '../relations.ts';
import { CATEGORY_FILTER, practiceReferences, practiceSearch } from './practice.ts';

export const services = {
  kind: 'markdown',
  name: 'services',
  noun: 'service',
  pattern: 'services/*.md',
  schema: serviceSchema,
  fields: { title: 'title', summary: 'summary' },
  order: 'order',
  page: { path: 'services', key: 'slug', schema: 'Service' },
  references: practiceReferences,
  api: {
    path: 'services',
    label: 'services',
    tag: 'Services',
    about: 'What the agency offers, by practice category.',
    item: Api.serviceItem,
    record: Api.serviceRecord,
    list: { operationId: 'listServices', summary: 'List services' },
    get: { operationId: 'getService', summary: 'Get service details' },
    filters: [{ ...CATEGORY_FILTER, description: 'Service category id.' }],
    relations: serviceRelations,
    routes: [
      termsRoute({ path: 'categories', operationId: 'listServiceCategories', summary: 'List service categories' }, 'categories', [
        'services',
        'category',
      ]),
    ],
    search: practiceSearch,
  },
} as const satisfies MarkdownCollection;
