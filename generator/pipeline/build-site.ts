/** The build, top to bottom: load -> validate -> catalogue -> outputs -> emit. Only the emit step writes. */
import { collections as siteCollections, type CollectionTable } from '../schemas/collections.ts';
import type { Content } from '../schemas/content.ts';
import { loadContent, type RawContent } from './load/load-content.ts';
import { type LoadStore, openLoadStore } from './load/load-store.ts';
import type { ContentEntry } from './load/scan-content.ts';
import { validateContent } from './validate/validate-content.ts';
import type { Preview, PublicationCount } from './catalogue/publish.ts';
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
import { type BuildHelper, type FinishRendering, renderAsRead, renderCold, startBuildHelper } from './helper/build-helper.ts';
import { bodyRenderer, markdownBodies } from './render-bodies.ts';
import { buildOpenApi, serializeOpenApi } from './outputs/openapi/openapi-document.ts';
import { createExampleCollector } from './outputs/openapi/openapi-examples.ts';
import { buildHomeFiles } from './outputs/pages/home-page.ts';
import { buildReferenceFiles } from './outputs/pages/reference-files.ts';
import { buildLlmsTxt } from './outputs/pages/llms-txt.ts';
import { buildHeadersFile } from './outputs/deploy/headers-file.ts';
import type { CarriedRest, OutputFile } from './outputs/output-file.ts';
import { copyImages } from './outputs/images/copy-images.ts';
import { buildScheduleFile } from './outputs/schedule/schedule-file.ts';
import { OPENAPI_PATH } from '../shared/data-paths.ts';
import { type BuildCache, NO_CACHE } from './build-cache.ts';
import { renderBody } from './outputs/render-markdown.ts';
import type { Emitted } from './emit/emit-files.ts';
import type { SnapshotEmit } from './emit/emit-snapshot.ts';
import type { DamageCheck } from './emit/damage-check.ts';
import { inPlaceBase } from './emit/in-place-base.ts';
import { damageCheckFor, emitBuild, underLock } from './emit/build-emit.ts';
import { type BuildSettings, buildTimeOf, isoSeconds, resolveBuildSettings, siteAddress } from './build-settings.ts';
import type { OutputTracker, TrackedOutputs } from './output-tracker.ts';
import { openTracking, previousOrder, type Tracking, trackedSearch, trackedSitemap, trackerOf } from './build-tracking.ts';

export interface BuildOptions {
  contentDir: string;
  outDir: string;
  /** Every setting, resolved (`npm run build` resolves them once); else resolved here from `env`, `preview` and `cmsBackend`. */
  settings?: BuildSettings;
  /** The environment to resolve the settings from when none are given; process.env by default. */
  env?: Record<string, string | undefined>;
  /** false leaves the search index out, so benchmarks can time the API alone. */
  searchIndex?: boolean;
  /** false leaves the record and list pages out, so benchmarks can time what they add. */
  recordPages?: boolean;
  /** Uses a second thread to render bodies and build the search index (`npm run build`); the same bytes either way. */
  helperThread?: boolean;
  /** The CMS's backend (`npm run dev` gives the local one); from the environment otherwise (cms-config.ts). */
  cmsBackend?: CmsBackend;
  /** The collections table; the site's own unless a test registers another. */
  collections?: CollectionTable;
  /** Drafts and scheduled records to include, for a preview build only. */
  preview?: Preview;
  /** Values kept across builds (npm run dev): an unchanged body is not rendered or analysed again. */
  cache?: BuildCache;
  /** The content folder's listing, when the caller knows it without listing it all (npm run dev, from its watcher). */
  listContent?: (root: string) => ContentEntry[];
  /** The content as loaded, changed in memory before it is checked (npm run dev's practice edit; dev-warm-up.ts). */
  amend?: (raw: RawContent) => RawContent;
  /** Writes every file anew, trusting nothing of the previous output (`--force`). */
  force?: boolean;
  /** Updates a trusted output in place rather than swapping in a new folder (`--in-place`; emit-files.ts). */
  inPlace?: boolean;
  /** The check of the output's files for an update in place, when the caller started it already (damage-check.ts). */
  damage?: DamageCheck | undefined;
  /** Keeps what was read of each content file, and the search index's state, beside the output (load-store.ts, search-store.ts); the store, if opened already. */
  keepLoads?: boolean | LoadStore;
  /** The content files changed since the last build's witnesses, and the output record's stamp they go with (build-fingerprint.ts). */
  changed?: { files: ReadonlySet<string>; output: string } | undefined;
  /** Writes the build into this snapshot folder and updates the output folder in place (emit-snapshot.ts). */
  snapshot?: SnapshotEmit;
  /** The caller's own emit step (npm run dev keeps what changed in memory; `outDir` unused); with `emitKeepsRest` it keeps the previous build's files it is not given (carried-rest.ts). */
  emit?: (files: AsyncIterable<OutputFile>, rest: () => CarriedRest | undefined) => Promise<Emitted>;
  emitKeepsRest?: boolean;
  /** The generator's and settings' digest: with it, outputs are tracked and carried over (build-tracking.ts). */
  scope?: string;
  tracked?: { outputs?: TrackedOutputs | undefined };
  /** Makes every carried file anyway and fails when its bytes differ from the recorded ones (tests). */
  verifyCarried?: boolean;
}

/** What the emit step did (files in the output, written, bytes, the folder and its record's stamp), and what the build published. */
export interface BuildResult extends Omit<Emitted, 'digests'> {
  content: Content;
  /** What the build published and left out, per collection. */
  publication: PublicationCount[];
  /** Of the unchanged files, those carried over without being made again (tracked builds only), named or not. */
  carried?: number | undefined;
  /** The files the build gave its emit step, with their digests: all of them, but for a steady edit's (carried-rest.ts). */
  named?: ReadonlyMap<string, string> | undefined;
  /** Markdown files taken from the load store unparsed, and files parsed (with `keepLoads`; load-store.ts). */
  loaded?: { kept: number; parsed: number } | undefined;
}

export interface OutputOptions {
  contentDir: string;
  /** An image's bytes by its site path, as the content scan approved it (RawContent.readImage). */
  readImage: (sitePath: string) => Uint8Array;
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
  const render = bodyRenderer(options.cache, rendered, renderBody);
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
  const examples = createExampleCollector(api.operations);
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
  // Started first, so that its modules load while the content is read.
  const helper = options.helperThread ? startBuildHelper({ endAfterSearch: true }) : undefined;
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
  const store = options.keepLoads === true ? openLoadStore(options.outDir, { trust: !options.force }) : options.keepLoads || undefined;
  const tracking = openTracking({ ...options, ownEmit: !!(options.emit ?? options.snapshot) });
  const reading = helper && !tracking.previous ? renderAsRead(helper) : undefined;
  const { contentDir, listContent } = options;
  const loaded = await loadContent(contentDir, collections, settings.limits, options.cache, store, listContent, reading?.read);
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
  return { content, publication, ...counts, carried, named, loaded: store?.counts };
}
