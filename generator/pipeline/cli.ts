/**
 * `check` validates the content folder; `build` validates it and writes the site. Run as
 * `npm run check|build [-- --content DIR --out DIR]`; `--help` says the same.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fingerprintBuild, fingerprintCold, readBuildRecord, readUnchangedBuild, recordBuild } from './build-fingerprint.ts';
import { type BuildSettings, buildTimeOf, isoSeconds, resolveBuildSettings } from './build-settings.ts';
import type { PublicationCount } from './catalogue/publish.ts';
import type { BuildHelper } from './helper/build-helper.ts';
import { parseCommandLine, quietOnClosedOutput } from './command-line.ts';
import { ContentError, formatReport } from './problems.ts';
import { formatPublication } from './publication-report.ts';
import { entriesOf, termsOf } from '../schemas/content.ts';

/** What a build reports, recorded so that a build with nothing changed can say it again. */
interface BuildSummary {
  files: number;
  bytes: number;
  publication: PublicationCount[];
}

const USAGE = `Usage:
  npm run check [-- --content DIR]              validate the content; every problem as file:line: field: message
  npm run build [-- --content DIR --out DIR]    validate, then write the site to DIR atomically
  node generator/launch.mjs pipeline/cli.ts adopt --out DIR   take DIR, restored from a cache with its records,
                                                as the last build (the Netlify build plugin runs it)

Options:
  --content DIR   the content folder (default: content)
  --out DIR       where build writes the site (default: dist); the last good build stays on failure
  -D, --drafts    include drafts, for a preview only (never deploy such a build)
  -F, --future    include records dated after today, for a preview only
  --site-url URL  the site's address, over SITE_URL and Netlify's variables
  --served-at URL the address a local server will serve this build on (npm start, npm run dev): the site's
                  address when neither SITE_URL nor Netlify's variables name one
  --force         build even when nothing has changed, writing every file anew (trusting nothing of the last build)
  --in-place      update the last build's folder in place, under a journal, instead of swapping in a new one:
                  faster after an edit; only where no server reads the folder while it is built (a deploy)
  -h, --help      show this help

Environment: SITE_URL (the site's address; else Netlify's URL or DEPLOY_PRIME_URL by CONTEXT), SOURCE_DATE_EPOCH
(fixes the build time), SEARCH_INDEX_BUDGET_MB (largest search index in all, default 500), MAX_TEXT_KB and
MAX_IMAGE_MB (largest Markdown or YAML file, default 1024, and largest image, default 10), CMS_BACKEND, CMS_REPO
or REPOSITORY_URL, CMS_BRANCH or BRANCH (where the content manager commits). BUILD_DEBUG=1 shows stack traces.`;

const OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: 'dist' },
  drafts: { type: 'boolean', short: 'D', default: false },
  future: { type: 'boolean', short: 'F', default: false },
  force: { type: 'boolean', default: false },
  'in-place': { type: 'boolean', default: false },
  'site-url': { type: 'string' },
  'served-at': { type: 'string' },
} as const;

/** A content folder that is not there is one problem, not one per missing file. */
function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Takes an output restored from a cache (Netlify's, netlify/plugins/build-cache) as the last build's. */
async function adopt(outDir: string): Promise<number> {
  const { adoptRestoredOutput } = await import('./emit/previous-output.ts');
  const { adoptRestoredBuild } = await import('./build-fingerprint.ts');
  const { lockOutput } = await import('./emit/output-lock.ts');
  const release = await lockOutput(outDir);
  try {
    const files = adoptRestoredOutput(path.resolve(outDir));
    if (files === undefined) {
      console.log(`${outDir}: no record of a build beside it; the next build writes every file`);
      return 0;
    }
    const fingerprint = adoptRestoredBuild(outDir);
    const { adoptTrackedOutputs } = await import('./emit/tracked-outputs.ts');
    adoptTrackedOutputs(outDir);
    console.log(`${outDir}: adopted ${files} files of the restored build${fingerprint ? '' : ' (no build record: the next build runs)'}`);
    return 0;
  } finally {
    release();
  }
}

/** Validates, and says what a build would publish; the generator is loaded only now. */
async function check(contentDir: string, settings: BuildSettings): Promise<number> {
  const { collections } = await import('../schemas/collections.ts');
  const { countPublication, selectPublished } = await import('./catalogue/publish.ts');
  const { loadContent } = await import('./load/load-content.ts');
  const { validateContent } = await import('./validate/validate-content.ts');
  const { preview } = settings;
  const content = validateContent(await loadContent(contentDir, { collections, limits: settings.limits }));
  const buildDate = isoSeconds(buildTimeOf(settings)).slice(0, 10);
  const published = selectPublished(content, collections, buildDate, preview);
  const counts = Object.entries(collections)
    .filter(([, collection]) => collection.kind !== 'document')
    .map(
      ([key, collection]) => `${(collection.kind === 'list' ? termsOf(content, key) : entriesOf(content, key)).length} ${collection.name}`,
    );
  console.log(`${contentDir}: ok: ${counts.join(', ')}`);
  for (const line of formatPublication(countPublication(content, collections, published, buildDate), preview)) console.log(line);
  return 0;
}

const formatSize = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** One build at a time per output folder: the lock is held from the check of the last build to its record. */
async function build(contentDir: string, outDir: string, settings: BuildSettings, flags: BuildFlags): Promise<number> {
  const { lockOutput } = await import('./emit/output-lock.ts');
  const release = await lockOutput(outDir, {
    onWait: (owner) => console.error(`waiting for another build of ${outDir} (process ${owner.pid}, started ${owner.started})`),
  });
  try {
    return await buildLocked(contentDir, outDir, settings, flags);
  } finally {
    release();
  }
}

/** `--force` and `--in-place`. */
interface BuildFlags {
  force: boolean;
  inPlace: boolean;
}

async function buildLocked(contentDir: string, outDir: string, settings: BuildSettings, flags: BuildFlags): Promise<number> {
  // The last build's record, read once for the check and the build (12 MB of witnesses at 100,000 articles).
  const recorded = readBuildRecord(outDir);
  const { startBuildHelper } = await import('./helper/build-helper.ts');
  let helper: BuildHelper | undefined;
  const startHelper = () => {
    helper ??= startBuildHelper({ endAfterSearch: true });
    return helper;
  };
  // Without one the command builds: its helper thread starts now, to load its modules while this thread hashes
  // the generator and loads the build's, where the build started it once those were loaded.
  if (!recorded) startHelper();
  try {
    return await checkAndBuild(contentDir, outDir, settings, flags, recorded, startHelper);
  } finally {
    await helper?.close();
  }
}

/** Builds, unless nothing that goes into the build has changed since the last one (then it says so). */
async function checkAndBuild(
  contentDir: string,
  outDir: string,
  settings: BuildSettings,
  { force, inPlace }: BuildFlags,
  recorded: ReturnType<typeof readBuildRecord>,
  startHelper: () => BuildHelper,
): Promise<number> {
  const started = performance.now();
  const { preview } = settings;
  // The output's files are statted in a second thread while this one reads the content's: both checks of
  // "nothing changed" at once. An update in place takes the same answer for its own check (build-site.ts).
  const { startDamageCheck } = await import('./emit/damage-check.ts');
  const damage = force ? undefined : startDamageCheck(outDir);
  // With no record beside the output there is nothing to compare: the content is hashed beside the build, by
  // the build's own reads and its helper thread.
  const inputs = { contentDir, outDir, settings };
  const cold = fingerprintCold(inputs, recorded);
  const checked = cold ? undefined : fingerprintBuild(inputs, recorded);
  const last = force || !checked ? undefined : await readUnchangedBuild<BuildSummary>(outDir, checked, damage);
  if (!last && !inPlace) damage?.stop();
  if (last && checked) {
    // Files touched but not changed are recorded anew, so the next check need not read them again.
    if (checked.reread) recordBuild(outDir, checked, last.summary, { output: last.output });
    const ms = Math.round(performance.now() - started);
    console.log(
      `${contentDir} -> ${outDir}: nothing changed since the last build (${last.summary.files} files, ${formatSize(last.summary.bytes)}); checked in ${ms} ms, --force builds again`,
    );
    for (const line of formatPublication(last.summary.publication, preview)) console.log(line);
    return 0;
  }
  // A build after another starts its helper thread now too, to load its modules while this thread loads the
  // content: after an edit the search index's update by term runs there (stored-search.ts).
  const helper = startHelper();
  const { buildSite } = await import('./build-site.ts');
  const { listEntries } = await import('./load/scan-content.ts');
  const fingerprint = (checked ?? cold)!;
  const result = await buildSite({
    contentDir,
    outDir,
    settings,
    helperThread: true,
    helper,
    digestFiles: cold,
    force,
    inPlace,
    keepLoads: true,
    damage,
    changed: checked?.changed,
    scope: fingerprint.generator,
    // The check above has just listed the content and taken each file's stats: the scan takes both rather
    // than list and stat it again.
    listContent: (root) => listEntries(root, fingerprint.stats, fingerprint.listing),
  });
  const summary = { files: result.files, bytes: result.bytes, publication: result.publication };
  recordBuild<BuildSummary>(outDir, checked ?? cold!.settled(result.contentDigests!), summary, {
    identity: result.identity,
    output: result.stamp,
  });
  const ms = Math.round(performance.now() - started);
  const loaded = result.loaded ? `; Markdown files: ${result.loaded.parsed} parsed, ${result.loaded.kept} kept from the last build` : '';
  console.log(
    `${contentDir} -> ${outDir}: ${result.files} files, ${result.written} written (the rest unchanged), ${result.carried ?? 0} carried over unmade, ${formatSize(result.bytes)} in ${ms} ms${loaded}`,
  );
  for (const line of formatPublication(result.publication, preview)) console.log(line);
  return 0;
}

async function main(args: string[]): Promise<number> {
  const parsed = parseCommandLine({ usage: USAGE, options: OPTIONS, positionals: 1 }, args);
  if (!parsed.ok) return parsed.exitCode;
  const [command] = parsed.positionals;
  const { content, out } = parsed.values;
  if (command !== 'check' && command !== 'build' && command !== 'adopt') {
    console.error(`error: ${command ? `unknown command "${command}"` : 'no command given'}; use check or build\n\n${USAGE}`);
    return 2;
  }
  if (command === 'adopt') return adopt(out);
  if (!isFolder(content)) {
    console.error(`${command} failed: content folder not found: ${content} (pass --content DIR)`);
    return 2;
  }
  try {
    const preview = { drafts: parsed.values.drafts, future: parsed.values.future };
    const settings = resolveBuildSettings(process.env, {
      preview,
      siteUrl: parsed.values['site-url'],
      servedAt: parsed.values['served-at'],
    });
    return await (command === 'check'
      ? check(content, settings)
      : build(content, out, settings, { force: parsed.values.force, inPlace: parsed.values['in-place'] }));
  } catch (error) {
    if (error instanceof ContentError) {
      console.error(formatReport(error.problems, content));
      return 1;
    }
    // An editor needs the reason, not a stack trace; BUILD_DEBUG=1 shows the trace for developers.
    console.error(`${command} failed: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.BUILD_DEBUG) console.error(error);
    return 2;
  }
}

quietOnClosedOutput();
process.exitCode = await main(process.argv.slice(2));
