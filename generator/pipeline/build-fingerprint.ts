/**
 * When nothing that goes into a build has changed, `npm run build` says so and writes nothing. What goes in:
 * every file of the content folder (its bytes), the generator's own sources and locked dependencies, the Node
 * version, the options and settings, and the build's day (scheduled records go live by the day) or its fixed
 * time. The fingerprint of the last build is kept beside its output (`<out>.build.json`, safe to delete) with
 * the identity of the folder it built, so an output replaced or removed since is built again.
 * Light on purpose: the command checks it before it loads the generator.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { identityOf } from './emit/previous-output.ts';

const GENERATOR_DIR = fileURLToPath(new URL('../', import.meta.url));
const LOCK_FILE = fileURLToPath(new URL('../../package-lock.json', import.meta.url));
/** The settings a build reads from the environment (CONTRACT "Addresses", the limits, the budget, the time). */
const SETTINGS = [
  'SITE_URL',
  'URL',
  'DEPLOY_PRIME_URL',
  'CONTEXT',
  'SEARCH_INDEX_BUDGET_MB',
  'MAX_TEXT_KB',
  'MAX_IMAGE_MB',
  'SOURCE_DATE_EPOCH',
];

export interface BuildInputs {
  contentDir: string;
  outDir: string;
  options: Record<string, unknown>;
  env: Record<string, string | undefined>;
}

/** What the last build reported, to say again when nothing has changed. */
export interface RecordedBuild<S> {
  identity: string;
  fingerprint: string;
  summary: S;
}

/** Every file under `dir`, with links and all, in a fixed order: the bytes of regular files, the kind of anything else. */
function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => ({ entry, file: path.join(entry.parentPath, entry.name) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  for (const { entry, file } of entries) {
    // The listing's own types, so only a link costs a stat (thousands of files: a third of the time).
    const stats = entry.isSymbolicLink() ? statSync(file, { throwIfNoEntry: false }) : entry;
    hash.update(`\n${path.relative(dir, file)}\n`);
    if (stats?.isFile()) hash.update(readFileSync(file));
    else hash.update(stats?.isDirectory() ? 'dir' : 'other');
  }
}

export function fingerprintBuild({ contentDir, outDir, options, env }: BuildInputs): string {
  const hash = createHash('sha256');
  const time = env.SOURCE_DATE_EPOCH ? `epoch ${env.SOURCE_DATE_EPOCH}` : `day ${new Date().toISOString().slice(0, 10)}`;
  hash.update(
    JSON.stringify({
      node: process.version,
      out: path.resolve(outDir),
      options,
      time,
      settings: SETTINGS.map((name) => env[name] ?? null),
    }),
  );
  hash.update(readFileSync(LOCK_FILE));
  hashTree(hash, GENERATOR_DIR);
  hash.update('\ncontent\n');
  hashTree(hash, contentDir);
  return hash.digest('base64');
}

const recordFile = (outDir: string) => `${path.resolve(outDir)}.build.json`;

/** The last build's record when it was made from the same inputs and its output is still the one in place. */
export function readUnchangedBuild<S>(outDir: string, fingerprint: string): RecordedBuild<S> | undefined {
  try {
    const recorded = JSON.parse(readFileSync(recordFile(outDir), 'utf8')) as RecordedBuild<S>;
    return recorded.fingerprint === fingerprint && recorded.identity === identityOf(path.resolve(outDir)) ? recorded : undefined;
  } catch {
    return undefined;
  }
}

export function recordBuild<S>(outDir: string, fingerprint: string, summary: S): void {
  const record: RecordedBuild<S> = { identity: identityOf(path.resolve(outDir)) ?? '', fingerprint, summary };
  writeFileSync(recordFile(outDir), JSON.stringify(record));
}

/** Forgets the last build's record: its output was changed by other means (npm run dev updates it in place). */
export function forgetBuild(outDir: string): void {
  rmSync(recordFile(outDir), { force: true });
}
