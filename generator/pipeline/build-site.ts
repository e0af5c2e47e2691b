/** The build, top to bottom: load -> validate -> build routes -> emit. Only the emit step writes. */
import path from 'node:path';
import type { Content } from '../schemas/collections.ts';
import { loadContent } from './load/load-content.ts';
import { validateContent } from './validate/validate-content.ts';
import { selectPublished } from './catalogue/publish.ts';
import { createCatalogue } from './catalogue/catalogue.ts';
import { buildApiFiles } from './outputs/api/api-files.ts';
import { buildFeedFiles } from './outputs/feed/feed-files.ts';
import { buildResourcePages } from './outputs/pages/resource-pages.ts';
import { buildSearchIndex, resolveSearchIndexBudget } from './outputs/search/search-file.ts';
import { buildOpenApi, serializeOpenApi } from './outputs/openapi/openapi-document.ts';
import { createExampleCollector } from './outputs/openapi/openapi-examples.ts';
import { buildDocsFiles } from './outputs/pages/docs-pages.ts';
import type { OutputFile } from './outputs/output-file.ts';
import { OPENAPI_PATH } from '../shared/data-paths.ts';
import { emitFiles } from './emit/emit-files.ts';
import { isoSeconds, resolveBuildTime, resolveSiteUrl } from './build-options.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  env?: Record<string, string | undefined>;
  /** false leaves the search index out, so benchmarks can time the API alone. */
  searchIndex?: boolean;
}

export interface BuildResult {
  content: Content;
  files: number;
  bytes: number;
}

export interface OutputOptions {
  contentDir: string;
  siteUrl: string;
  builtAt: Date;
  searchIndexBudgetMb?: number;
  searchIndex?: boolean;
}

/** The images published records refer to, copied as they are. */
function copyImages(published: Content, contentDir: string): OutputFile[] {
  const images = new Set([...published.intelligence.flatMap((article) => (article.image ? [article.image] : [])), ...published.resources.map((resource) => resource.image)]);
  return [...images].sort().map((image) => ({ path: image.slice(1), copyFrom: path.join(contentDir, image) }));
}

/**
 * Every output file, from validated content: a pure function of the content, the address and the time.
 * A generator, so the emit step writes each file as it is made and the whole site never sits in memory.
 */
export function* generateOutput(content: Content, options: OutputOptions): Generator<OutputFile> {
  const builtAt = isoSeconds(options.builtAt);
  const published = selectPublished(content, builtAt.slice(0, 10));
  const catalogue = createCatalogue(published, { siteUrl: options.siteUrl, builtAt });

  const search = options.searchIndex === false ? undefined : buildSearchIndex(catalogue, options.searchIndexBudgetMb);
  if (search) yield search.file;
  const api = buildApiFiles(catalogue, search?.documents ?? 0);
  const examples = createExampleCollector();
  for (const file of api.files) {
    examples.offer(file);
    yield file;
  }
  const openApi = serializeOpenApi(buildOpenApi(catalogue, { manifest: api.manifest, examples: examples.collect() }));
  yield { path: OPENAPI_PATH, body: openApi };
  yield* buildDocsFiles(catalogue, openApi);
  yield* buildFeedFiles(catalogue);
  yield* buildResourcePages(catalogue);
  yield* copyImages(published, options.contentDir);
}

/** The same files as a list, for callers that want them all at once. */
export function buildOutput(content: Content, options: OutputOptions): OutputFile[] {
  return [...generateOutput(content, options)];
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const env = options.env ?? process.env;
  const content = validateContent(await loadContent(options.contentDir));
  const files = generateOutput(content, {
    contentDir: options.contentDir,
    siteUrl: resolveSiteUrl(env, content.site),
    builtAt: resolveBuildTime(env),
    searchIndexBudgetMb: resolveSearchIndexBudget(env),
    searchIndex: options.searchIndex,
  });
  const written = await emitFiles(files, options.outDir);
  return { content, ...written };
}
