/** Reads every file of every collection into raw records: parsed but not yet validated. */
import { hash } from 'node:crypto';
import path from 'node:path';
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import { type BuildCache, NO_CACHE } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import { isYamlLanguage, parseFrontMatterData, splitFrontMatter } from './front-matter.ts';
import { createLazyLocate, parseYaml, YamlSyntaxError, type FieldPath, type Locate } from './parse-yaml.ts';
import { decodeUtf8, type FileIdentity, NotUtf8Error, readApproved } from './read-approved.ts';
import type { Checked, LoadStore, StoredFile } from './load-store.ts';
import { type ContentEntry, DEFAULT_LIMITS, readImage, scanContent } from './scan-content.ts';

export interface RawRecord {
  file: string;
  /** Parsed YAML (a list item, a document or a Markdown file's front matter). */
  data: unknown;
  locate: Locate;
  /** Markdown records only. */
  slug?: string;
  body?: string;
  /** The schema's value from an earlier build (npm run build's load store), with the scope it was made under. */
  checked?: Checked | undefined;
  /** Keeps the schema's value for the next build (npm run build's load store). */
  keepChecked?: ((checked: Checked) => void) | undefined;
}

export interface RawContent {
  root: string;
  records: Record<string, RawRecord[]>;
  /** Site-relative paths (`/images/...`) of every file under `images/`. */
  images: Set<string>;
  /** The bytes of one of `images` (by its site-relative path), still the file the scan approved. */
  readImage(sitePath: string): Uint8Array;
  /** Files that could not be read or parsed at all. */
  problems: Problem[];
  /** Each file read, by its path: a digest of the path and the bytes, what outputs made from it are tracked by. */
  digests: Map<string, string>;
}

/**
 * A file the scan approved, as text; undefined when the scan did not find it. Synchronous on purpose: the
 * build has nothing else to do meanwhile, and thousands of small sync reads are several times faster than
 * as many concurrent promises.
 */
function readText(source: ContentSource, file: string): string | undefined {
  const identity = source.identities.get(file);
  return identity ? decodeUtf8(readApproved(source.root, file, identity)) : undefined;
}

/** The content folder and what its scan approved. */
interface ContentSource {
  root: string;
  identities: ReadonlyMap<string, FileIdentity>;
  problems: Problem[];
  digests: Map<string, string>;
  /** What a file loaded without a problem leaves to keep on disk (load-store.ts). */
  keep?: StoredFile;
}

/** A content file's digest: of its path and text, what outputs made from it are tracked by. */
const digestOf = (file: string, text: string) => hash('sha1', `${file}\n${text}`, 'base64');

/** `readText`, with text that is not UTF-8 reported as the file's problem (null). */
function readChecked(source: ContentSource, file: string): string | undefined | null {
  try {
    const text = readText(source, file);
    if (text !== undefined) source.digests.set(file, digestOf(file, text));
    return text;
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    source.problems.push({ file, line: error.line, field: '-', message: error.message });
    return null;
  }
}

/** Most YAML errors an editor meets are an unquoted colon or a stray indent; the hint says so. */
const YAML_HINT = 'quote a value that contains ": " or starts with a special character, and check the indentation';

/** A file that could not be parsed, whatever the reason: every failure names the file it came from. */
function syntaxProblem(file: string, error: unknown, what: string): Problem {
  if (error instanceof YamlSyntaxError)
    return { file, line: error.line, field: '-', message: `invalid ${what}: ${error.message} (${YAML_HINT})` };
  return { file, line: 1, field: '-', message: `could not be read as ${what}: ${error instanceof Error ? error.message : String(error)}` };
}

function loadYamlFile(source: ContentSource, file: string, kind: 'list' | 'document', optional = false): RawRecord[] {
  const { problems } = source;
  const text = readChecked(source, file);
  if (text === null || (text === undefined && optional)) return [];
  if (text === undefined) {
    problems.push({ file, line: 1, field: '-', message: `the file is missing (every content folder needs ${file})` });
    return [];
  }
  let parsed: ReturnType<typeof parseYaml>;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    problems.push(syntaxProblem(file, error, 'YAML'));
    return [];
  }
  if (kind === 'document') return [{ file, data: parsed.data, locate: parsed.locate }];
  if (!Array.isArray(parsed.data)) {
    problems.push({ file, line: 1, field: '-', message: 'must be a YAML list of records (lines starting with "- id: ...")' });
    return [];
  }
  return parsed.data.map((data, index) => ({
    file,
    data,
    locate: (fieldPath: FieldPath) => parsed.locate([index, ...fieldPath]),
  }));
}

/** Front matter starts on line 2, after the opening `---`. */
const FRONT_MATTER_FIRST_LINE = 2;

/** A Markdown file's record; from `stored`, what an earlier build read of the same file, when there is that. */
function loadMarkdownFile(source: ContentSource, file: string, cache: BuildCache, stored?: StoredFile): RawRecord | undefined {
  const { problems } = source;
  if (stored) source.digests.set(file, stored.digest);
  const text = stored ? stored.text : readChecked(source, file);
  if (text === null || text === undefined) return undefined;
  const slug = path.posix.basename(file, '.md');
  const split = splitFrontMatter(text);
  if (split.present && !isYamlLanguage(split.language)) {
    const message = `front matter must be YAML: the file opens with "---${split.language}"; start it with "---" alone (content is data, never code)`;
    problems.push({ file, line: 1, field: '-', message });
    return undefined;
  }
  let data: unknown;
  try {
    // Kept across builds by its text (npm run dev): nothing downstream changes parsed data in place.
    data = stored ? stored.data : split.present ? cache.memo('front matter', split.matter, () => parseFrontMatterData(split.matter)) : {};
  } catch (error) {
    problems.push(syntaxProblem(file, error, 'YAML front matter'));
    return undefined;
  }
  source.keep = { text, digest: source.digests.get(file)!, data };
  const hasFrontMatter = /^---\r?\n/.test(text);
  return {
    file,
    slug,
    data,
    checked: stored?.checked,
    body: split.body,
    locate: hasFrontMatter ? createLazyLocate(split.matter.replace(/^\r?\n/, ''), FRONT_MATTER_FIRST_LINE) : () => 1,
  };
}

/** Files changed this close to now are read anew: a coarse clock could hide a second edit in the same tick. */
const RACY_MS = 2000;

type Load = (source: ContentSource, stored?: StoredFile) => RawRecord[];

/**
 * One file's records, with its problems and digest: a pure function of its path and bytes, so kept across
 * builds by the file's identity, size and times as the scan saw them, in memory (npm run dev) or on disk
 * (npm run build, load-store.ts). An edit reads one file.
 */
function loadFile(source: ContentSource, file: string, cache: BuildCache, load: Load, store?: LoadStore): RawRecord[] {
  const fresh = (stored?: StoredFile) => {
    const own: ContentSource = { ...source, problems: [], digests: new Map(), keep: undefined };
    return { records: load(own, stored), problems: own.problems, digest: own.digests.get(file), keep: own.keep };
  };
  const identity = source.identities.get(file);
  const witness = identity?.changedMs !== undefined && identity.changedMs < Date.now() - RACY_MS;
  const key = `${identity?.dev}:${identity?.ino}:${identity?.size}:${identity?.changedMs}`;
  // A file too new to be known by its key is kept under none: only its bytes can confirm it.
  const kept = (stamp: string) => {
    const stored = store?.get(file, stamp) ?? confirmed(source, file, stamp, store);
    const loaded = fresh(stored);
    if (!stored && loaded.keep && loaded.problems.length === 0) store?.set(file, stamp, loaded.keep);
    if (store) for (const record of loaded.records) record.keepChecked = (checked) => store.check(file, checked);
    return loaded;
  };
  const loaded = witness ? cache.memo('content file', `${file}\n${key}`, () => kept(key)) : kept('');
  source.problems.push(...loaded.problems);
  if (loaded.digest !== undefined) source.digests.set(file, loaded.digest);
  return loaded.records;
}

/** What `store` kept of `file` when its bytes are still those it was kept from (its key moved: a fresh checkout). */
function confirmed(source: ContentSource, file: string, key: string, store?: LoadStore): StoredFile | undefined {
  if (!store?.has(file)) return undefined;
  let text: string | undefined;
  try {
    text = readText(source, file);
  } catch {
    return undefined;
  }
  const stored = text === undefined ? undefined : store.confirm(file, digestOf(file, text), key);
  return stored && { ...stored, text: text! };
}

/**
 * A collection's file pattern (`folder/*.md`; the collections table's own, not content) as a test of a
 * content path: `*` stands for any name within one folder that does not start with a dot.
 */
function patternMatcher(pattern: string): (file: string) => boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('(?!\\.)[^/]*');
  const expression = new RegExp(`^${source}$`);
  return (file) => expression.test(file);
}

/**
 * Loads the whole content folder; records come in sorted file order, whatever the file system's order.
 * `store`: Markdown files kept on disk by an earlier build, and where to keep this build's (the caller saves it).
 * `list`: the folder's listing, when the caller knows it without listing it (npm run dev, from its watcher).
 */
export async function loadContent(
  root: string,
  collections: CollectionTable = siteCollections,
  limits = DEFAULT_LIMITS,
  cache: BuildCache = NO_CACHE,
  store?: LoadStore,
  list?: (root: string) => ContentEntry[],
): Promise<RawContent> {
  const scan = await scanContent(root, limits, list?.(root));
  const problems: Problem[] = [...scan.problems];
  const source: ContentSource = { root, identities: scan.identities, problems, digests: new Map() };
  const records: Record<string, RawRecord[]> = {};
  const loads = Object.entries(collections).map(async ([key, collection]) => {
    if (collection.kind === 'markdown') {
      // Matched among what the scan found readable, so nothing is listed twice or reached through a link.
      const matches = patternMatcher(collection.pattern);
      const loaded = [...scan.readable]
        .filter(matches)
        .sort()
        .flatMap((file) =>
          loadFile(source, file, cache, (own, stored) => [loadMarkdownFile(own, file, cache, stored) ?? []].flat(), store),
        );
      records[key] = loaded;
    } else if (scan.readable.has(collection.file) || !scan.problems.some((problem) => problem.file === collection.file)) {
      const { file, kind } = collection;
      const optional = kind === 'document' && collection.optional;
      records[key] = loadFile(source, file, cache, (own) => loadYamlFile(own, file, kind, optional));
    } else {
      records[key] = [];
    }
  });
  await Promise.all(loads);
  const images = new Set([...scan.readable].filter((file) => file.startsWith('images/')).map((file) => `/${file}`));
  const readImageAt = (sitePath: string) => {
    const file = sitePath.slice(1);
    const identity = scan.identities.get(file);
    if (!images.has(sitePath) || !identity) throw new Error(`${sitePath} is not an image of the content`);
    return readImage(root, file, identity);
  };
  return { root, records, images, readImage: readImageAt, problems, digests: source.digests };
}
