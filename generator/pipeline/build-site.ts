/** The build, top to bottom: load -> validate -> catalogue -> outputs -> emit. Only the emit step writes. */
import { collections as siteCollections, type CollectionTable } from '../schemas/collections.ts';
import type { Content } from '../schemas/content.ts';
import { loadContent } from './load/load-content.ts';
import { openLoadStore } from './load/load-store.ts';
import { validateContent } from './validate/validate-content.ts';
import { publish } from './catalogue/kept-publication.ts';
import { createCatalogue } from './catalogue/catalogue.ts';
import { buildApiFiles } from './outputs/api/api-files.ts';
import { buildArticleFeeds } from './outputs/feed/article-feeds.ts';
import { buildFeedFiles } from './outputs/feed/feed-files.ts';
import { buildResourcePages } from './outputs/pages/resource-pages.ts';
import { recordPages } from './outputs/pages/paired-pages.ts';
import { buildListPages } from './outputs/pages/list-pages.ts';
import { buildCmsFiles } from './outputs/cms/cms-files.ts';
import type { CmsBackend } from './outputs/cms/cms-config.ts';
import { buildSemanticIndex } from './outputs/semantic/semantic-output.ts';
import { coldDigests, digestFile } from './content-digests.ts';
import {
  type BuildHelper,
  type FinishRendering,
  helperWhenAsked,
  renderAsRead,
  renderCold,
  startBuildHelper,
} from './helper/build-helper.ts';
import { bodyRenderer, markdownBodies, renderRecordBody } from './render-bodies.ts';
import { buildOpenApi, serializeOpenApi } from './outputs/openapi/openapi-document.ts';
import { createExampleCollector } from './outputs/openapi/openapi-examples.ts';
import { buildHomeFiles } from './outputs/pages/home-page.ts';
import { buildReferenceFiles } from './outputs/pages/reference-files.ts';
import { buildLlmsTxt } from './outputs/pages/llms-txt.ts';
import { buildHeadersFile } from './outputs/deploy/headers-file.ts';
import type { OutputFile } from './outputs/output-file.ts';
import { copyImages } from './outputs/images/copy-images.ts';
import { buildScheduleFile } from './outputs/schedule/schedule-file.ts';
import { OPENAPI_PATH } from '../shared/data-paths.ts';
import { type BuildCache, NO_CACHE } from './build-cache.ts';
import type { DamageCheck } from './emit/damage-check.ts';
import { inPlaceBase } from './emit/in-place-base.ts';
import { readIntact } from './carried-files.ts';
import { damageCheckFor, emitBuild, underLock } from './emit/build-emit.ts';
import { buildTimeOf, isoSeconds, resolveBuildSettings, siteAddress } from './build-settings.ts';
import type { OutputTracker } from './output-tracker.ts';
import { openTracking, previousOrder, type Tracking, trackedSearch, trackedSitemap, trackerOf } from './build-tracking.ts';

import type { BuildOptions, BuildResult } from './build-options.ts';

export type { BuildOptions, BuildResult };

export interface OutputOptions {
  contentDir: string;
  /** An image's bytes by its site path, as the content scan approved it (RawContent.readImage). */
  readImage: (sitePath: string) => Uint8Array;
  /** A carried file's text from the previous output, when it is there with its digest (carried-files.ts readIntact). */
  readCarried?: ((file: { path: string; carried: string }) => string | undefined) | undefined;
  siteUrl: string;
  builtAt: Date;
  searchIndexBudgetMb?: number;
  searchIndex?: boolean;
  /** SEMANTIC_SEARCH (build-settings.ts); on unless said otherwise. */
  semanticSearch?: boolean;
  recordPages?: boolean;
  /** The build's second thread (build-helper.ts), when it has one. */
  helper?: BuildHelper;
  /** The bodies' rendering, already started in the helper (a cold `npm run build`); else started here. */
  renders?: FinishRendering | undefined;
  cmsBackend: CmsBackend;
  collections?: CollectionTable;
  cache?: BuildCache;
  /** When the next scheduled record goes live (YYYY-MM-DD), for the scheduled-publishing job; none in a preview. */
  nextPublication?: string | undefined;
  /** Tracking (build-tracking.ts), and who is given the tracker, to settle it after the emit step. */
  tracking?: Tracking;
  tracker?: (tracker: OutputTracker) => void;
}

/**
 * Every output file, from the published content: a pure function of it, the address and the time. A
 * generator, so the emit step writes each file as it is made and the whole site never sits in memory.
 */
export async function* generateOutput(published: Content, options: OutputOptions): AsyncGenerator<OutputFile> {
  const builtAt = isoSeconds(options.builtAt);
  const collections = options.collections ?? siteCollections;
  const cache = options.cache ?? NO_CACHE;
  // Without a cache kept across builds, a rendered body is kept until its envelope and its page have it
  // (renderLettingGo). Nothing else is: what else a cold build computes from text is used once.
  // Every body is rendered in the helper for a cold build only: after an edit, most pages are carried over. Every
  // published body's kept rendering stays kept, used or not: a page carried over now may be made after the next edit.
  const rendered = await renderCold(options, () => markdownBodies(published, collections));
  options.cache?.live('html', () => markdownBodies(published, collections));
  const render = bodyRenderer(options.cache, rendered, renderRecordBody);
  const catalogue = createCatalogue(published, collections, {
    siteUrl: options.siteUrl,
    builtAt,
    render,
    cache,
    track: options.tracking && trackerOf(options.tracking, options.siteUrl, collections, options.tracker),
    previousOrder: options.tracking && previousOrder(options.tracking),
  });
  const search =
    options.searchIndex === false ? undefined : trackedSearch(catalogue, options.helper, options.searchIndexBudgetMb, options.tracking);
  const semantic = search && buildSemanticIndex(catalogue, options.semanticSearch ?? true);
  const pagesOfRecords = options.recordPages === false ? undefined : recordPages(catalogue);
  const api = buildApiFiles(catalogue, search?.documents ?? 0, pagesOfRecords?.afterEnvelope);
  const examples = createExampleCollector(api.operations, options.readCarried);
  for (const file of api.files) {
    examples.offer(file);
    options.helper?.pump();
    yield file;
  }
  const exampleTime = catalogue.contentTime;
  const openApi = serializeOpenApi(
    buildOpenApi(catalogue, { manifest: api.manifest, operations: api.operations, examples: examples.collect(exampleTime), exampleTime }),
  );
  yield { path: OPENAPI_PATH, body: openApi };
  // Pages are yielded as they are made; the sitemap keeps only their paths.
  const pages: string[] = [];
  const recordAndListPages = pagesOfRecords ? [() => pagesOfRecords.rest(pages), () => buildListPages(catalogue)] : [];
  for (const build of [
    () => buildHomeFiles(catalogue),
    () => buildReferenceFiles(catalogue, openApi),
    () => buildResourcePages(catalogue),
    ...recordAndListPages,
  ]) {
    for (const file of build()) {
      options.helper?.pump();
      pages.push(file.path);
      yield file;
    }
  }
  yield buildLlmsTxt(catalogue);
  yield* buildCmsFiles(catalogue, options.cmsBackend);
  yield* buildFeedFiles(catalogue);
  yield* buildArticleFeeds(catalogue);
  yield* trackedSitemap(catalogue, pages, options.recordPages !== false);
  yield* copyImages(catalogue, options.readImage);
  yield buildHeadersFile(catalogue);
  yield buildScheduleFile(options.nextPublication, builtAt);
  // Last, so that a worker building it has had the rest of the build's time.
  if (search) yield* await search.files;
  if (semantic) yield* await semantic;
}

export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  // A cold build's started first, so that its modules load while the content is read; a build after another
  // (its content witnessed, so not hashed here) starts it only when it asks for its work.
  const start = () => startBuildHelper({ endAfterSearch: true });
  const helper = options.helperThread ? (options.helper ?? (options.digestFiles ? start() : helperWhenAsked(start))) : undefined;
  const damage = damageCheckFor(options);
  try {
    return await underLock(options, damage, () => buildWith(options, helper, damage));
  } finally {
    await helper?.close();
  }
}

async function buildWith(options: BuildOptions, helper: BuildHelper | undefined, damage: DamageCheck | undefined): Promise<BuildResult> {
  const settings =
    options.settings ?? resolveBuildSettings(options.env ?? process.env, { preview: options.preview, cmsBackend: options.cmsBackend });
  const collections = options.collections ?? siteCollections;
  const store = options.keepLoads ? openLoadStore(options.outDir, { trust: !options.force }) : undefined;
  const tracking = openTracking({ ...options, ownEmit: !!(options.emit ?? options.snapshot) });
  const reading = helper && !tracking.previous ? renderAsRead(helper) : undefined;
  const { contentDir, listContent, digestFiles } = options;
  const read = digestFiles && new Map<string, string>();
  const loaded = await loadContent(contentDir, {
    collections,
    limits: settings.limits,
    cache: options.cache,
    store,
    list: listContent,
    onMarkdown: reading?.read,
    fileDigests: read,
  });
  // After an edit the helper's core is idle from here (the damage check is done) until the search index's update
  // by term, which then waits on reading the index's parts: they are read now.
  if (tracking.previous && !options.force && options.searchIndex !== false) helper?.readSearchParts(options.outDir);
  // A cold build's record: the content's digests from the load's reads, the other files' hashed by the helper meanwhile.
  const digests = digestFiles && coldDigests(digestFiles, read!, (rest) => helper?.digests(rest) ?? Promise.resolve(rest.map(digestFile)));
  digests?.catch(() => {});
  const raw = options.amend ? options.amend(loaded) : loaded;
  const renders = reading?.finish();
  const content = validateContent(raw, collections, options.cache);
  const builtAt = buildTimeOf(settings);
  const buildDate = isoSeconds(builtAt).slice(0, 10);
  const { published, publication, kept } = publish(content, collections, buildDate, settings.preview, tracking.previousKept('publication'));
  tracking.keep('publication', kept);
  // Decided before any output is named: whether this build may name only what its edit reached.
  const base = damage && (await inPlaceBase(options.outDir, damage, tracking.previous));
  const files = generateOutput(published, {
    renders,
    tracking: tracking.start(raw.digests, base?.keepsRest),
    tracker: tracking.made,
    nextPublication: settings.preview.future ? undefined : publication.flatMap((count) => count.nextDate ?? []).sort()[0],
    collections,
    contentDir: options.contentDir,
    readImage: raw.readImage,
    readCarried: (file) => readIntact(options.outDir, file.path, file.carried)?.toString('utf8'),
    siteUrl: siteAddress(settings, content.site),
    builtAt,
    searchIndexBudgetMb: settings.searchIndexBudgetMb,
    searchIndex: options.searchIndex,
    semanticSearch: settings.semanticSearch,
    recordPages: options.recordPages,
    helper,
    cmsBackend: settings.cmsBackend,
    cache: options.cache,
  });
  const written = await emitBuild(files, options, damage, base, tracking.rest);
  options.cache?.endBuild();
  // Only once the build is in place: a failed build leaves nothing new beside the output.
  store?.save();
  const carried = tracking.settle(written);
  const { digests: named, ...counts } = written;
  return { content, publication, ...counts, carried, named, loaded: store?.counts, contentDigests: await digests };
}
