/** Reads every file of every collection into raw records: parsed but not yet validated. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import matter from 'gray-matter';
import { collections as siteCollections, type CollectionTable } from '../../schemas/collections.ts';
import type { Problem } from '../problems.ts';
import { createLazyLocate, parseFrontMatter, parseYaml, YamlSyntaxError, type FieldPath, type Locate } from './parse-yaml.ts';

export interface RawRecord {
  file: string;
  /** Parsed YAML (a list item, a document or a Markdown file's front matter). */
  data: unknown;
  locate: Locate;
  /** Markdown records only. */
  slug?: string;
  body?: string;
}

export interface RawContent {
  root: string;
  records: Record<string, RawRecord[]>;
  /** Site-relative paths (`/images/...`) of every file under `images/`. */
  images: Set<string>;
  /** Files that could not be read or parsed at all. */
  problems: Problem[];
}

const toPosix = (file: string) => file.split(path.sep).join('/');

/**
 * Synchronous on purpose: the build has nothing else to do meanwhile, and thousands of small sync reads
 * are several times faster than as many concurrent promises.
 */
function readText(root: string, file: string): string | undefined {
  try {
    return readFileSync(path.join(root, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Most YAML errors an editor meets are an unquoted colon or a stray indent; the hint says so. */
const YAML_HINT = 'quote a value that contains ": " or starts with a special character, and check the indentation';

function syntaxProblem(file: string, error: unknown, what: string): Problem {
  if (!(error instanceof YamlSyntaxError)) throw error;
  return { file, line: error.line, field: '-', message: `invalid ${what}: ${error.message} (${YAML_HINT})` };
}

function loadYamlFile(root: string, file: string, kind: 'list' | 'document', problems: Problem[]): RawRecord[] {
  const text = readText(root, file);
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

/**
 * Front matter follows the same YAML rules as the YAML files (parse-yaml.ts), so dates and errors behave alike in
 * both (gray-matter's own js-yaml rolls 2025-02-30 over to March). gray-matter hands over the text after
 * the opening `---`, starting with its line break, so that text begins on line 1.
 */
const matterOptions = { language: 'yaml', engines: { yaml: (source: string) => parseFrontMatter(source, 1) as object } };

function loadMarkdownFile(root: string, file: string, problems: Problem[]): RawRecord | undefined {
  const text = readText(root, file) ?? '';
  const slug = path.posix.basename(file, '.md');
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Options make gray-matter skip its process-wide cache, which would keep every file alive.
    parsed = matter(text, matterOptions);
  } catch (error) {
    problems.push(syntaxProblem(file, error, 'YAML front matter'));
    return undefined;
  }
  const hasFrontMatter = /^---\r?\n/.test(text);
  return {
    file,
    slug,
    data: parsed.data,
    body: parsed.content,
    locate: hasFrontMatter ? createLazyLocate(parsed.matter.replace(/^\r?\n/, ''), FRONT_MATTER_FIRST_LINE) : () => 1,
  };
}

/** Loads the whole content folder; records come in sorted file order, whatever the file system's order. */
export async function loadContent(root: string, collections: CollectionTable = siteCollections): Promise<RawContent> {
  const problems: Problem[] = [];
  const records: Record<string, RawRecord[]> = {};
  const loads = Object.entries(collections).map(async ([key, collection]) => {
    if (collection.kind === 'markdown') {
      const files = (await fg(collection.pattern, { cwd: root, onlyFiles: true })).map(toPosix).sort();
      const loaded = files.map((file) => loadMarkdownFile(root, file, problems));
      records[key] = loaded.filter((record): record is RawRecord => record !== undefined);
    } else {
      records[key] = loadYamlFile(root, collection.file, collection.kind, problems);
    }
  });
  const imageFiles = fg('images/**/*', { cwd: root, onlyFiles: true });
  await Promise.all(loads);
  const images = new Set((await imageFiles).map((file) => `/${toPosix(file)}`));
  return { root, records, images, problems };
}
