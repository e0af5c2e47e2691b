/** YAML helpers that know where each field stands, so a problem can name its line. */
import jsYaml from 'js-yaml';
import type { Document, Node, ScalarTag } from 'yaml';
import { isCalendarDay } from '../../schemas/fields.ts';
import { errorLine, yamlLibrary } from './yaml-error-line.ts';
import { lineAt } from '../../shared/text-lines.ts';

export type FieldPath = readonly (string | number)[];

/** Returns the 1-based line of the field at `path`, or of its nearest parent that exists. */
export type Locate = (path: FieldPath) => number;

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** Deepest nesting of lists and mappings accepted: content records are a few levels deep. */
const MAX_DEPTH = 64;
const TOO_DEEP = `lists and mappings are nested more than ${MAX_DEPTH} levels deep`;

const ANCHOR_MESSAGE = 'anchors and aliases (&name, *name) are not accepted; write the value out where it is used';

/**
 * An unquoted `YYYY-MM-DD` becomes a `Date`, as YAML 1.1 timestamps do. The stock timestamp tag rolls a day
 * that does not exist over (2025-02-30 becomes 2025-03-02) and the build would publish the wrong date;
 * this one leaves such a day a string, which the date field then refuses.
 */
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A `YYYY-MM-DD` as a `Date` when the day exists; else the text as it is. */
export const calendarDateOf = (source: string): Date | string => (isCalendarDay(source) ? new Date(`${source}T00:00:00Z`) : source);

const calendarDate: ScalarTag = {
  identify: (value) => value instanceof Date,
  default: true,
  tag: 'tag:yaml.org,2002:timestamp',
  test: CALENDAR_DATE,
  resolve: calendarDateOf,
  stringify: ({ value }) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)),
};

/** The same calendar-date rule for js-yaml, which parses front matter. */
const frontMatterSchema = jsYaml.CORE_SCHEMA.extend({
  implicit: [
    new jsYaml.Type('tag:yaml.org,2002:timestamp', {
      kind: 'scalar',
      resolve: (source: string | null) => source !== null && CALENDAR_DATE.test(source),
      construct: calendarDateOf,
      instanceOf: Date,
    }),
  ],
});

/**
 * Parses YAML with js-yaml, several times faster than a parser that keeps source positions, which are only
 * needed for the rare file with a problem (`createLazyLocate`). `source` starts on line `firstLine` of its
 * file. Undefined for a document with no value.
 */
function parseFast(source: string, firstLine: number): unknown {
  // An anchor stops the parse where it is defined, before any alias can repeat it.
  const listener = (event: jsYaml.EventType, parsing: jsYaml.State) => {
    const state = parsing as jsYaml.State & { anchor: string | null };
    if (event !== 'close' || state.anchor === null) return;
    const at = state.input.lastIndexOf(`&${state.anchor}`, state.position);
    throw new YamlSyntaxError(ANCHOR_MESSAGE, lineAt(state.input, at, firstLine));
  };
  try {
    const options = { schema: frontMatterSchema, json: false, listener, maxDepth: MAX_DEPTH };
    return jsYaml.load(source, options as jsYaml.LoadOptions);
  } catch (error) {
    if (error instanceof YamlSyntaxError) throw error;
    if (!(error instanceof jsYaml.YAMLException)) throw error;
    const reason = error.reason.startsWith('nesting exceeded maxDepth') ? TOO_DEEP : error.reason;
    throw new YamlSyntaxError(reason, errorLine(source, error.mark.line + firstLine, firstLine));
  }
}

/** Parses front matter, the build's hot path (parseFast). */
export const parseFrontMatter = (source: string, firstLine = 1): unknown => parseFast(source, firstLine) ?? {};

function parseWithLines(source: string, firstLine: number) {
  const lineCounter = new (yamlLibrary().LineCounter)();
  // Keys are checked for duplicates here, with a set (keyProblem): the library compares each key with every
  // earlier one of its map, which is quadratic in the number of keys.
  const doc = yamlLibrary().parseDocument(source, { lineCounter, customTags: [calendarDate], uniqueKeys: false, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  return { doc, lineAt };
}

function locateIn(doc: Document, lineAt: (offset: number) => number, path: FieldPath, firstLine: number): number {
  const { isMap, isScalar, isSeq } = yamlLibrary();
  let node: unknown = doc.contents;
  let line = (node as Node | null)?.range ? lineAt((node as Node).range![0]) : firstLine;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && item.key.value === segment);
      if (!pair) break;
      if (isScalar(pair.key) && pair.key.range) line = lineAt(pair.key.range[0]);
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (!item?.range) break;
      line = lineAt(item.range[0]);
      node = item;
    } else {
      break;
    }
  }
  return line;
}

/**
 * The first anchor or alias (`&name`, `*name`), or key given twice in one mapping, with the offset it starts
 * at. Content may not use anchors and aliases: 100 aliases of a 900 KB string made one 924 KB file into a 92 MB page, and capping the number of
 * aliases does not cap the size they expand to. Writing the value out costs an editor little.
 */
function keyProblem(doc: Document): { offset: number; message: string } | undefined {
  const { isAlias, isMap, isNode, isScalar, visit } = yamlLibrary();
  let found: { offset: number; message: string } | undefined;
  visit(doc, (_key, node) => {
    if ((isAlias(node) || (isNode(node) && node.anchor)) && node.range) {
      found = { offset: node.range[0], message: ANCHOR_MESSAGE };
      return visit.BREAK;
    }
    if (!isMap(node)) return undefined;
    const seen = new Set<unknown>();
    for (const { key } of node.items) {
      const value = isScalar(key) ? key.value : key;
      if (seen.has(value)) {
        found = { offset: (key as Node).range?.[0] ?? 0, message: `the key "${String(value)}" is given twice in one mapping` };
        return visit.BREAK;
      }
      seen.add(value);
    }
    return undefined;
  });
  return found;
}

/**
 * Parses a YAML file (`source` starts at line `firstLine`); throws `YamlSyntaxError` with its line. A file js-yaml
 * reads is read as front matter is, its lines found only if a problem asks: the positions parser and its library
 * (0.03 s to load) cost every build 0.05 s for the site's four YAML files. A file it refuses is read again by the
 * positions parser, whose messages are the clearer.
 */
export function parseYaml(source: string, firstLine = 1): { data: unknown; locate: Locate } {
  try {
    return { data: parseFast(source, firstLine) ?? null, locate: createLazyLocate(source, firstLine) };
  } catch (error) {
    // The positions parser recurses per level of nesting: a few KB of `[` exhausted its stack and crashed
    // the process. The fast parser stops at MAX_DEPTH first.
    if (error instanceof YamlSyntaxError && error.message === TOO_DEEP) throw error;
  }
  const { doc, lineAt } = parseWithLines(source, firstLine);
  const [error] = doc.errors;
  if (error) {
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw new YamlSyntaxError(message, errorLine(source, lineAt(error.pos[0]), firstLine));
  }
  const problem = keyProblem(doc);
  if (problem) throw new YamlSyntaxError(problem.message, lineAt(problem.offset));
  return { data: doc.toJS() ?? null, locate: (path) => locateIn(doc, lineAt, path, firstLine) };
}

/**
 * A locator that parses `source` only when first asked: most files have no problem, and the build
 * should not pay for source positions it never reports.
 */
export function createLazyLocate(source: string, firstLine = 1): Locate {
  let parsed: ReturnType<typeof parseWithLines> | undefined;
  return (path) => {
    parsed ??= parseWithLines(source, firstLine);
    return locateIn(parsed.doc, parsed.lineAt, path, firstLine);
  };
}
