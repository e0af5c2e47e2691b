/** Articles (content/intelligence/*.md): dated, so scheduled by their date, and the source of the article feeds. */
import * as Api from '../api.ts';
import { type MarkdownCollection, termsRoute } from '../collection-types.ts';
import { articleSchema } from '../records.ts';
import { articleRelations } from '../relations.ts';

export const intelligence = {
  kind: 'markdown',
  name: 'intelligence',
  noun: 'article',
  pattern: 'intelligence/*.md',
  schema: articleSchema,
  fields: { title: 'title', summary: 'summary', date: 'date' },
  feed: 'articles',
  order: 'date',
  page: { path: 'intelligence', key: 'slug', schema: 'Article' },
  references: { topics: ['topics'], category: ['categories'], image: 'images' },
  api: {
    path: 'intelligence',
    label: 'articles',
    tag: 'Intelligence',
    about: 'Published articles, newest first, by topic or category.',
    item: Api.articleItem,
    record: Api.articleRecord,
    list: { operationId: 'listArticles', summary: 'List articles' },
    get: { operationId: 'getArticle', summary: 'Get an article' },
    filters: [
      {
        param: 'topic',
        fields: ['topics', 'category'],
        taxonomies: ['topics', 'categories'],
        source: 'articleTopics',
        description: 'Topic id, or a category id.',
      },
    ],
    relations: articleRelations,
    routes: [
      { path: 'latest', operationId: 'listLatestArticles', summary: 'Latest articles', kind: 'latest', max: 20, default: 5 },
      termsRoute({ path: 'topics', operationId: 'listTopics', summary: 'List article topics' }, 'topics', ['intelligence', 'topics']),
    ],
    search: { tags: ['tags', 'topics'], terms: ['category'] },
  },
} as const satisfies MarkdownCollection;
