/** The build, top to bottom: load -> validate -> build routes -> emit. Only the emit step writes. */
import path from 'node:path';
import type { Content } from '../schemas/registry.ts';
import { loadContent } from './load/load-content.ts';
import { validateContent } from './validate/validate-content.ts';
import { selectPublished } from './routes/publish.ts';
import { createCatalogue } from './routes/catalogue.ts';
import { buildApiFiles } from './routes/build-api-files.ts';
import { buildFeedFiles } from './routes/build-feed.ts';
import { buildResourcePages } from './routes/build-resource-pages.ts';
import { buildSearchIndex, resolveSearchIndexBudget } from './routes/build-search-index.ts';
import { buildOpenApi, serializeOpenApi } from './routes/build-openapi.ts';
import { collectExamples } from './routes/openapi-examples.ts';
import { buildDocsFiles } from './routes/build-docs-files.ts';
import type { OutputFile } from './routes/output-file.ts';
import { OPENAPI_PATH } from '../shared/layout.ts';
import { emitFiles } from './emit/emit-files.ts';
import { isoSeconds, resolveBuildTime, resolveSiteUrl } from './build-options.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  env?: Record<string, string | undefined>;
}

export interface BuildResult {
  content: Content;
  files: number;
  bytes: number;
}

/** Every output file, from validated content: a pure function of the content, the address and the time. */
export function buildOutput(
  content: Content,
  options: { contentDir: string; siteUrl: string; builtAt: Date; searchIndexBudgetMb?: number },
): OutputFile[] {
  const builtAt = isoSeconds(options.builtAt);
  const published = selectPublished(content, builtAt.slice(0, 10));
  const catalogue = createCatalogue(published, { siteUrl: options.siteUrl, builtAt });
  const search = buildSearchIndex(catalogue, options.searchIndexBudgetMb);
  const api = buildApiFiles(catalogue, search.documents);
  const openApi = serializeOpenApi(buildOpenApi(catalogue, { manifest: api.manifest, examples: collectExamples(api.files) }));
  const images = [...new Set([...published.intelligence.flatMap((a) => (a.image ? [a.image] : [])), ...published.resources.map((r) => r.image)])]
    .sort()
    .map((image) => ({ path: image.slice(1), copyFrom: path.join(options.contentDir, image) }));
  return [...api.files, { path: OPENAPI_PATH, body: openApi }, ...buildDocsFiles(catalogue, openApi), search.file, ...buildFeedFiles(catalogue), ...buildResourcePages(catalogue), ...images];
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const env = options.env ?? process.env;
  const content = validateContent(await loadContent(options.contentDir));
  const files = buildOutput(content, {
    contentDir: options.contentDir,
    siteUrl: resolveSiteUrl(env, content.site),
    builtAt: resolveBuildTime(env),
    searchIndexBudgetMb: resolveSearchIndexBudget(env),
  });
  const written = await emitFiles(files, options.outDir);
  return { content, ...written };
}
