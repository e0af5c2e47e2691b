/** What a build is asked (buildSite's options) and what it answers (build-site.ts). */
import type { BuildHelper } from './helper/build-helper.ts';
import type { ContentFiles } from './content-digests.ts';
import type { CollectionTable } from '../schemas/collections.ts';
import type { Content } from '../schemas/content.ts';
import type { BuildCache } from './build-cache.ts';
import type { BuildSettings } from './build-settings.ts';
import type { Preview, PublicationCount } from './catalogue/publish.ts';
import type { DamageCheck } from './emit/damage-check.ts';
import type { SnapshotEmit } from './emit/emit-snapshot.ts';
import type { Emitted } from './emit/emit-files.ts';
import type { RawContent } from './load/load-content.ts';
import type { ContentEntry } from './load/scan-content.ts';
import type { CmsBackend } from './outputs/cms/cms-config.ts';
import type { CarriedRest, OutputFile } from './outputs/output-file.ts';
import type { TrackedOutputs } from './output-tracker.ts';

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
  /** That thread, when the caller started it already (`npm run build`, before it loads the build's modules); the build closes it. */
  helper?: BuildHelper | undefined;
  /** Content files to digest for a cold build's record (build-fingerprint.ts fingerprintCold; content-digests.ts coldDigests). */
  digestFiles?: ContentFiles | undefined;
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
  /** Keeps what was read of each content file, and the search index's state, beside the output (load-store.ts, search-store.ts). */
  keepLoads?: boolean;
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
  /** The digests of `digestFiles`, in order. */
  contentDigests?: string[];
}
