/** Technologies and open protocols for agentic commerce (content/technology/*.md); a record is named by `name`. */
import * as Api from '../api.ts';
import { type MarkdownCollection, termsRoute } from '../collection-types.ts';
import { technologySchema } from '../records.ts';
import { technologyRelations } from '../relations.ts';

export const technology = {
  kind: 'markdown',
  name: 'technology',
  noun: 'technology',
  pattern: 'technology/*.md',
  schema: technologySchema,
  fields: { title: 'name', summary: 'summary' },
  order: 'order',
  page: { path: 'technology', key: 'slug', schema: 'SoftwareApplication' },
  api: {
    path: 'technology',
    label: 'technologies',
    tag: 'Technology',
    about: 'AI and agentic-commerce technologies and open protocols (added in 1.3).',
    item: Api.technologyItem,
    record: Api.technologyRecord,
    list: { operationId: 'listTechnologies', summary: 'List AI and agentic-commerce technologies' },
    get: { operationId: 'getTechnology', summary: 'Get a technology' },
    filters: [
      {
        param: 'category',
        fields: ['category'],
        taxonomies: ['technologyCategories'],
        source: 'technologyCategories',
        description: 'Technology category id.',
      },
    ],
    relations: technologyRelations,
    routes: [
      termsRoute(
        { path: 'categories', operationId: 'listTechnologyCategories', summary: 'List technology categories' },
        'technologyCategories',
        ['technology', 'category'],
      ),
      {
        path: 'protocols',
        operationId: 'listProtocols',
        summary: 'List open protocols for agentic commerce',
        kind: 'subset',
        where: { category: 'protocols', open_protocol: true },
      },
    ],
  },
} as const satisfies MarkdownCollection;
