/**
 * Every `/v1/` response that does not depend on the request, as complete envelopes, plus the manifest
 * the handler reads. A pure function: records in, `{ path, body }` files out.
 */
import { API_VERSION, operationsByPath, type FilterSource } from '../../../shared/operations.ts';
import { serializeEnvelope, type MetaFields } from '../../../shared/envelope.ts';
import { latestPath, MANIFEST_PATH, recordPath, staticPath } from '../../../shared/data-paths.ts';
import type { Manifest } from '../../../shared/manifest.ts';
import type * as Api from '../../../schemas/api.ts';
import type { Term } from '../../../schemas/taxonomies.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { buildListFiles, type ListSource } from './list-files.ts';
import type { OutputFile } from '../output-file.ts';
import * as shape from './shape-records.ts';

const LATEST_MAX = 20;

function operation(path: string) {
  const found = operationsByPath.get(path);
  if (!found) throw new Error(`no operation ${path}`);
  return found;
}

function countBy(ids: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}

function termItems(terms: readonly Term[], counts: Map<string, number>): Api.TermItem[] {
  return terms.map((term) => ({ id: term.id, name: term.name, description: term.description, count: counts.get(term.id) ?? 0 }));
}

/** Topic filter values: topic ids, then category ids (CONTRACT: `topic` matches topics or the category). */
function articleTopicValues(catalogue: Catalogue): string[] {
  const topics = catalogue.topics.map((topic) => topic.id);
  return [...topics, ...catalogue.categories.map((category) => category.id).filter((id) => !topics.includes(id))];
}

/**
 * `searchDocuments`: how many documents the search index holds, for the manifest. The manifest is ready at
 * once; `files` makes the list pages and records as it is iterated (lists first), so the emit step can
 * write them as they come instead of holding the whole API in memory.
 */
export function buildApiFiles(catalogue: Catalogue, searchDocuments = 0): { files: Iterable<OutputFile>; manifest: Manifest } {
  const { site, siteUrl, builtAt } = catalogue;
  const meta: MetaFields = { timestamp: builtAt, request_id: 'build', processing_time_ms: 0, language: site.language };
  const small: OutputFile[] = [];
  const emit = (path: string, data: unknown) => small.push({ path, body: serializeEnvelope(JSON.stringify(data), meta) });

  const filters: Record<FilterSource, string[]> = {
    categories: catalogue.categories.map((term) => term.id),
    industries: catalogue.industries.map((term) => term.id),
    technologyCategories: catalogue.technologyCategories.map((term) => term.id),
    articleTopics: articleTopicValues(catalogue),
  };

  const services = catalogue.services.map((record) => shape.toServiceItem(record, catalogue));
  const expertise = catalogue.expertise.map((record) => shape.toExpertiseItem(record, catalogue));
  const technology = catalogue.technology.map((record) => shape.toTechnologyItem(record, catalogue));
  const articles = catalogue.articles.map((record) => shape.toArticleItem(record, catalogue));
  const articleJson = articles.map((item) => JSON.stringify(item));

  const lists: ListSource<any>[] = [
    {
      operation: operation('services/list'),
      items: services,
      json: services.map((item) => JSON.stringify(item)),
      values: { category: filters.categories },
      matches: (item: Api.ServiceItem, _filter, value) => item.category === value,
    },
    {
      operation: operation('expertise/list'),
      items: expertise,
      json: expertise.map((item) => JSON.stringify(item)),
      values: { category: filters.categories, industry: filters.industries },
      matches: (item: Api.ExpertiseItem, filter, value) => (filter === 'category' ? item.category === value : item.industries.includes(value)),
    },
    {
      operation: operation('technology/list'),
      items: technology,
      json: technology.map((item) => JSON.stringify(item)),
      values: { category: filters.technologyCategories },
      matches: (item: Api.TechnologyItem, _filter, value) => item.category === value,
    },
    {
      operation: operation('intelligence/list'),
      items: articles,
      json: articleJson,
      values: { topic: filters.articleTopics },
      matches: (item: Api.ArticleItem, _filter, value) => item.category === value || item.topics.includes(value),
    },
  ];
  const totals: Record<string, Record<string, number>> = {};
  const listFiles = lists.map((list) => {
    const built = buildListFiles(list, meta);
    totals[list.operation.path] = built.totals;
    return built.files;
  });

  function* recordFiles<R extends { id: string; slug: string }, I>(route: string, records: R[], items: I[], toRecord: (record: R, item: I) => unknown) {
    for (const [index, record] of records.entries()) {
      const body = serializeEnvelope(JSON.stringify(toRecord(record, items[index]!)), meta);
      yield { path: recordPath(route, record.id), body };
      if (record.slug !== record.id) yield { path: recordPath(route, record.slug), body };
    }
  }

  emit(staticPath('services/categories'), termItems(catalogue.categories, countBy(catalogue.services.map((item) => item.category))));
  emit(staticPath('expertise/industries'), termItems(catalogue.industries, countBy(catalogue.expertise.flatMap((item) => item.industries))));
  const platformUse = countBy([...catalogue.services, ...catalogue.expertise].flatMap((item) => item.technologies));
  emit(
    staticPath('expertise/technologies'),
    catalogue.platforms.map(
      (platform): Api.PlatformItem => ({ id: platform.id, name: platform.name, kind: platform.kind, website: platform.website ?? null, count: platformUse.get(platform.id) ?? 0 }),
    ),
  );
  emit(staticPath('technology/categories'), termItems(catalogue.technologyCategories, countBy(catalogue.technology.map((item) => item.category))));
  emit(staticPath('technology/protocols'), technology.filter((item) => item.category === 'protocols' && item.open_protocol));
  emit(staticPath('intelligence/topics'), termItems(catalogue.topics, countBy(catalogue.articles.flatMap((item) => item.topics))));
  for (let count = 1; count <= LATEST_MAX; count++) {
    small.push({ path: latestPath(count), body: serializeEnvelope(`[${articleJson.slice(0, count).join(',')}]`, meta) });
  }

  const records = { services: services.length, expertise: expertise.length, technology: technology.length, intelligence: articles.length };
  const health: Api.HealthData = { status: 'healthy', version: API_VERSION, resources: Object.keys(records), built_at: builtAt, records };
  emit(staticPath('health'), health);

  const baseUrl = `${siteUrl}/v1/`;
  const index: Api.IndexData = {
    name: `${site.name} API`,
    version: API_VERSION,
    documentation: `${siteUrl}/docs/`,
    openapi: `${baseUrl}openapi.json`,
    resource_feed: `${siteUrl}/api/resources.json`,
    operations: [...operationsByPath.values()]
      .filter((op) => op.path !== '')
      .map((op) => ({ path: `/v1/${op.path}`, url: `${baseUrl}${op.path}`, method: 'GET', summary: op.summary, parameters: op.params.map((param) => param.name) })),
  };
  emit(staticPath(''), index);

  const manifest: Manifest = {
    api_version: API_VERSION,
    language: site.language,
    site_url: siteUrl,
    built_at: builtAt,
    filters,
    totals,
    search_documents: searchDocuments,
  };
  small.push({ path: MANIFEST_PATH, body: JSON.stringify(manifest) });

  function* files(): Generator<OutputFile> {
    for (const list of listFiles) yield* list();
    yield* recordFiles('services/get', catalogue.services, services, (record, item) => shape.toServiceRecord(record, catalogue, item));
    yield* recordFiles('expertise/get', catalogue.expertise, expertise, (record, item) => shape.toExpertiseRecord(record, catalogue, item));
    yield* recordFiles('technology/get', catalogue.technology, technology, (record, item) => shape.toTechnologyRecord(record, catalogue, item));
    yield* recordFiles('intelligence/get', catalogue.articles, articles, (record, item) => shape.toArticleRecord(record, catalogue, item));
    yield* small;
  }
  return { files: files(), manifest };
}
