/**
 * `check` validates the content folder; `build` validates it and writes the site. Run as
 * `npm run check|build [-- --content DIR --out DIR]`; `--help` says the same.
 */
import { statSync } from 'node:fs';
import { collections } from '../schemas/collections.ts';
import { isoSeconds, resolveBuildTime, resolveContentLimits } from './build-options.ts';
import { countPublication, type Preview, selectPublished } from './catalogue/publish.ts';
import { formatPublication } from './publication-report.ts';
import { buildSite } from './build-site.ts';
import { parseCommandLine } from './command-line.ts';
import { loadContent } from './load/load-content.ts';
import { ContentError, formatReport } from './problems.ts';
import { validateContent } from './validate/validate-content.ts';

const USAGE = `Usage:
  npm run check [-- --content DIR]              validate the content; every problem as file:line: field: message
  npm run build [-- --content DIR --out DIR]    validate, then write the site to DIR atomically

Options:
  --content DIR   the content folder (default: content)
  --out DIR       where build writes the site (default: dist); the last good build stays on failure
  -D, --drafts    include drafts, for a preview only (never deploy such a build)
  -F, --future    include records dated after today, for a preview only
  -h, --help      show this help

Environment: SITE_URL (the site's address), SOURCE_DATE_EPOCH (fixes the build time),
SEARCH_INDEX_BUDGET_MB (largest search index, default 20), MAX_TEXT_KB and MAX_IMAGE_MB (largest
Markdown or YAML file, default 1024, and largest image, default 10). BUILD_DEBUG=1 shows stack traces.`;

const OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: 'dist' },
  drafts: { type: 'boolean', short: 'D', default: false },
  future: { type: 'boolean', short: 'F', default: false },
} as const;

function summarize(content: Record<string, unknown>): string {
  return Object.entries(collections)
    .filter(([, collection]) => collection.kind !== 'document')
    .map(([key, collection]) => `${(content[key] as unknown[]).length} ${collection.name}`)
    .join(', ');
}

/** A content folder that is not there is one problem, not one per missing file. */
function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

async function run(command: 'check' | 'build', contentDir: string, outDir: string, preview: Preview): Promise<number> {
  if (command === 'check') {
    const content = validateContent(await loadContent(contentDir, collections, resolveContentLimits(process.env)));
    const buildDate = isoSeconds(resolveBuildTime(process.env)).slice(0, 10);
    const published = selectPublished(content, collections, buildDate, preview);
    console.log(`${contentDir}: ok: ${summarize(content)}`);
    for (const line of formatPublication(countPublication(content, collections, published, buildDate), preview)) console.log(line);
    return 0;
  }
  const started = performance.now();
  const result = await buildSite({ contentDir, outDir, preview });
  const size = `${(result.bytes / 1024 / 1024).toFixed(1)} MiB`;
  const ms = Math.round(performance.now() - started);
  console.log(`${contentDir} -> ${outDir}: ${result.files} files, ${result.written} written (the rest unchanged), ${size} in ${ms} ms`);
  for (const line of formatPublication(result.publication, preview)) console.log(line);
  return 0;
}

async function main(args: string[]): Promise<number> {
  const parsed = parseCommandLine({ usage: USAGE, options: OPTIONS, positionals: 1 }, args);
  if (!parsed.ok) return parsed.exitCode;
  const [command] = parsed.positionals;
  const { content, out } = parsed.values;
  const preview = { drafts: parsed.values.drafts, future: parsed.values.future };
  if (command !== 'check' && command !== 'build') {
    console.error(`error: ${command ? `unknown command "${command}"` : 'no command given'}; use check or build\n\n${USAGE}`);
    return 2;
  }
  if (!isFolder(content)) {
    console.error(`${command} failed: content folder not found: ${content} (pass --content DIR)`);
    return 2;
  }
  try {
    return await run(command, content, out, preview);
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

process.exitCode = await main(process.argv.slice(2));
