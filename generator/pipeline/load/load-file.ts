/**
 * One content file's records, parsed but not yet validated: a YAML file's (a list of records or a
 * document) or a Markdown file's (front matter and body), from its bytes or from what the load store kept.
 */
import { hash } from 'node:crypto';
import path from 'node:path';
import type { BuildCache } from '../build-cache.ts';
import type { Problem } from '../problems.ts';
import { type FrontMatter, isYamlLanguage, parseFrontMatterData, splitFrontMatter } from './front-matter.ts';
import { createLazyLocate, YamlSyntaxError, type FieldPath, type Locate } from './parse-yaml.ts';
import { decodeUtf8, type FileIdentity, NotUtf8Error, readApproved } from './read-approved.ts';
import type { Checked, StoredFile } from './load-store.ts';
import { digestBytes } from '../content-digests.ts';
import { lineAt } from '../../shared/text-lines.ts';
export interface RawRecord {
  file: string;
  /** Parsed YAML (a list item, a document or a Markdown file's front matter); see `readData`. */
  data: unknown;
  /** Markdown records whose front matter the load store did not keep (dataOf): parses it from the file. */
  readData?: (() => unknown) | undefined;
  locate: Locate;
  /** Markdown records only. */
  slug?: string;
  /** Markdown records: the body while the record holds its file's text (markdownRecord); else `readBody`. */
  body?: string | undefined;
  /** Markdown records: the body read from the file, when `body` is not held (bodyOf). */
  readBody?: () => string;
  /** Markdown records: the line of the file the body starts on (read again from the file if its text was let go). */
  bodyLine?: () => number;
  /** The schema's value from an earlier build (npm run build's load store), with the scope it was made under. */
  checked?: Checked | undefined;
  /** Keeps the schema's value for the next build (npm run build's load store). */
  keepChecked?: ((checked: Checked) => void) | undefined;
  /** Markdown records: lets the file's text go; `readBody` and `locate` read it again if asked (markdownRecord). */
  letTextGo?: () => void;
}

/** A record's parsed YAML: held, or parsed again from its file (readData). */
export const dataOf = (record: Pick<RawRecord, 'data' | 'readData'>): unknown => (record.readData ? record.readData() : record.data);

/** A Markdown record's body: held, or read again from its file. */
export const bodyOf = (record: Pick<RawRecord, 'body' | 'readBody'>): string | undefined => record.body ?? record.readBody?.();

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
  /** How many files this load read (or took from the load store); the others' loads were kept from the last load (load-content.ts). */
  read: number;
}

/**
 * A file the scan approved, as text; undefined when the scan did not find it. Synchronous on purpose: the
 * build has nothing else to do meanwhile, and thousands of small sync reads are several times faster than
 * as many concurrent promises.
 */
export function readText(source: ContentSource, file: string): string | undefined {
  const identity = source.identities.get(file);
  if (!identity) return undefined;
  const bytes = readApproved(source.root, file, identity);
  source.fileDigests?.set(file, digestBytes(bytes));
  return decodeUtf8(bytes);
}

/** The content folder and what its scan approved. */
export interface ContentSource {
  root: string;
  identities: ReadonlyMap<string, FileIdentity>;
  problems: Problem[];
  digests: Map<string, string>;
  /** Each file read, by its path: the digest of its bytes as the nothing-changed check records it, when asked (a cold build's record). */
  fileDigests?: Map<string, string> | undefined;
  /** What a file loaded without a problem leaves to keep on disk (load-store.ts). */
  keep?: StoredFile;
}

/** A content file's digest: of its path and text, what outputs made from it are tracked by. */
export const digestOf = (file: string, text: string) => hash('sha1', `${file}\n${text}`, 'base64');

/** `readText`, with text that is not UTF-8 reported as the file's problem (null). */
export function readChecked(source: ContentSource, file: string): string | undefined | null {
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
export function syntaxProblem(file: string, error: unknown, what: string): Problem {
  if (error instanceof YamlSyntaxError)
    return { file, line: error.line, field: '-', message: `invalid ${what}: ${error.message} (${YAML_HINT})` };
  return { file, line: 1, field: '-', message: `could not be read as ${what}: ${error instanceof Error ? error.message : String(error)}` };
}

/**
 * The text of a file the load store kept unchanged, read when something asks for it, under the scan's
 * approval; taken only if its bytes are still those the kept digest names: a file changed while the build
 * runs fails the build rather than mix two texts.
 */
export function keptText(source: ContentSource, file: string, digest: string): string {
  const text = readText(source, file);
  if (text === undefined || digestOf(file, text) !== digest)
    throw new Error(`${file}: changed while the build was reading the content; run the build again`);
  return text;
}

/**
 * A string of its own, apart from the text it was cut from. A string cut from a longer one holds that one
 * whole (V8's sliced strings): the values parsed from a front matter cut from its file would hold the file's
 * text, body and all, as long as the record, when its body is let go once its outputs have it (markdownRecord).
 * Joined to another and cut back, the copy is made once: a new string, which the values are then cut from.
 */
const ownCopy = (text: string) => `${text}\n`.slice(0, -1);

/** Front matter starts on line 2, after the opening `---`. */
const FRONT_MATTER_FIRST_LINE = 2;

/** A Markdown file's record; from `stored`, what an earlier build read of the same file, when there is that. */
export function loadMarkdownFile(source: ContentSource, file: string, cache: BuildCache, stored?: StoredFile): RawRecord | undefined {
  if (stored && stored.text === undefined) return keptMarkdownFile(source, file, stored, cache);
  const { problems } = source;
  if (stored) source.digests.set(file, stored.digest);
  const text = stored ? stored.text : readChecked(source, file);
  if (text === null || text === undefined) return undefined;
  const split = splitFrontMatter(text);
  if (split.present && !isYamlLanguage(split.language)) {
    const message = `front matter must be YAML: the file opens with "---${split.language}"; start it with "---" alone (content is data, never code)`;
    problems.push({ file, line: 1, field: '-', message });
    return undefined;
  }
  let data: unknown;
  try {
    data = stored && 'data' in stored ? stored.data : frontMatterData(split, cache);
  } catch (error) {
    problems.push(syntaxProblem(file, error, 'YAML front matter'));
    return undefined;
  }
  const digest = source.digests.get(file)!;
  source.keep = { text, digest, data };
  return markdownRecord(source, file, { data, checked: stored?.checked, digest }, { split, locate: locateIn(text, split) });
}

/** A Markdown file's front matter parsed (kept across builds by its text, npm run dev: nothing downstream changes parsed data in place). */
const frontMatterData = (split: FrontMatter, cache: BuildCache): unknown =>
  split.present ? cache.memo('front matter', split.matter, () => parseFrontMatterData(ownCopy(split.matter))) : {};

/** Where a field of a Markdown file's front matter is (its line), parsed only when a problem needs it. */
function locateIn(text: string, split: FrontMatter): Locate {
  const hasFrontMatter = /^---\r?\n/.test(text);
  return hasFrontMatter ? createLazyLocate(split.matter.replace(/^\r?\n/, ''), FRONT_MATTER_FIRST_LINE) : () => 1;
}

/**
 * A Markdown file the load store knows unchanged (by its key): its front matter as kept, and its text read
 * from the file (keptText) only when something asks for its body, a field's line, or the front matter the
 * store did not keep beside a value that passed its schema: a steady build makes the outputs of few records.
 */
function keptMarkdownFile(source: ContentSource, file: string, stored: StoredFile, cache: BuildCache): RawRecord {
  source.digests.set(file, stored.digest);
  const record = markdownRecord(source, file, stored);
  if (!('data' in stored)) {
    record.cache = cache;
    record.readData = readKeptData;
  }
  return record;
}

/** A Markdown record's own state beside its fields, which the functions every such record shares read (markdownRecord). */
interface MarkdownRecord extends RawRecord {
  source: ContentSource;
  digest: string;
  /** Its file's text as split, while held. */
  read: { split: FrontMatter; locate: Locate } | undefined;
  /** Where its front matter, not kept by the load store, is parsed once (readKeptData). */
  cache: BuildCache | undefined;
}

/** The record's text, held or read again from its file under its digest (keptText). */
function textOf(record: MarkdownRecord): { split: FrontMatter; locate: Locate } {
  if (record.read) return record.read;
  const now = keptText(record.source, record.file, record.digest);
  const split = splitFrontMatter(now);
  record.read = { split, locate: locateIn(now, split) };
  return record.read;
}

function readBody(this: MarkdownRecord): string {
  return textOf(this).split.body;
}

/** After the front matter's lines (its text starts with the opening line's break) and the closing `---` line. */
function bodyLine(this: MarkdownRecord): number {
  const { split } = textOf(this);
  return split.present ? lineAt(split.matter, split.matter.length, 3) : 1;
}

function locateField(this: MarkdownRecord, fieldPath: FieldPath): number {
  return textOf(this).locate(fieldPath);
}

function letTextGo(this: MarkdownRecord): void {
  this.read = undefined;
  this.body = undefined;
}

/** The front matter the load store did not keep beside a value that passed its schema, parsed once from the file. */
function readKeptData(this: MarkdownRecord): unknown {
  this.data ??= frontMatterData(splitFrontMatter(keptText(this.source, this.file, this.digest)), this.cache!);
  return this.data;
}

/**
 * A Markdown file's record, its text (`read`, when the load just read it) held until `letTextGo`: a cold
 * build lets it go once the record's envelope and page have its body (render-bodies.ts), since every file's
 * text held to the end was 2.85 KB an article of the build's heap. Asked again (a feed's newest articles), it
 * is read again from the file under the scan's approval and the digest it was loaded with (keptText). Data
 * properties only: an object with a getter of its own has its properties in a dictionary, 0.45 KB a record.
 * Its functions are shared by every record and read its state from it (`this`): a closure of each record's
 * own for each, with their context, was about 0.64 KB a record, 64 MB at 100,000 articles for the collector
 * to copy in every edit of a fresh process.
 */
function markdownRecord(
  source: ContentSource,
  file: string,
  { data, checked, digest }: { data?: unknown; checked?: Checked | undefined; digest: string },
  read?: { split: FrontMatter; locate: Locate },
): MarkdownRecord {
  return {
    file,
    slug: path.posix.basename(file, '.md'),
    data,
    readData: undefined,
    checked,
    keepChecked: undefined,
    body: read?.split.body,
    readBody,
    bodyLine,
    locate: locateField,
    letTextGo,
    source,
    digest,
    read,
    cache: undefined,
  };
}
