/** YAML helpers that know where each field stands, so a problem can name its line. */
import jsYaml from 'js-yaml';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node, type ScalarTag } from 'yaml';
import { isCalendarDay } from '../../schemas/fields.ts';

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

/**
 * An unquoted `YYYY-MM-DD` becomes a `Date`, as YAML 1.1 timestamps do. The stock timestamp tag rolls a day
 * that does not exist over (2025-02-30 becomes 2025-03-02) and the build would publish the wrong date;
 * this one leaves such a day a string, which the date field then refuses.
 */
const calendarDate: ScalarTag = {
  identify: (value) => value instanceof Date,
  default: true,
  tag: 'tag:yaml.org,2002:timestamp',
  test: /^\d{4}-\d{2}-\d{2}$/,
  resolve: (source) => (isCalendarDay(source) ? new Date(`${source}T00:00:00Z`) : source),
  stringify: ({ value }) => (value instanceof Date ? value.toISOString().slice(0, 10) : String(value)),
};

/** The same calendar-date rule for js-yaml, which parses front matter. */
const frontMatterSchema = jsYaml.CORE_SCHEMA.extend({
  implicit: [
    new jsYaml.Type('tag:yaml.org,2002:timestamp', {
      kind: 'scalar',
      resolve: (source: string | null) => source !== null && /^\d{4}-\d{2}-\d{2}$/.test(source),
      construct: (source: string) => calendarDate.resolve(source, () => {}, {} as never),
      instanceOf: Date,
    }),
  ],
});

/**
 * Parses front matter, the build's hot path: js-yaml is several times faster than a parser that keeps
 * source positions, and positions are only needed for the rare file with a problem (`createLazyLocate`).
 * `source` starts on line `firstLine` of its file.
 */
export function parseFrontMatter(source: string, firstLine = 1): unknown {
  try {
    return jsYaml.load(source, { schema: frontMatterSchema, json: false }) ?? {};
  } catch (error) {
    if (!(error instanceof jsYaml.YAMLException)) throw error;
    throw new YamlSyntaxError(error.reason, error.mark.line + firstLine);
  }
}

function parseWithLines(source: string, firstLine: number) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(source, { lineCounter, customTags: [calendarDate], uniqueKeys: true, prettyErrors: false });
  const lineAt = (offset: number) => lineCounter.linePos(offset).line + firstLine - 1;
  return { doc, lineAt };
}

function locateIn(doc: Document, lineAt: (offset: number) => number, path: FieldPath, firstLine: number): number {
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

/** Most aliases a document may expand (as the YAML library counts them): a few lines could otherwise build gigabytes. */
const MAX_ALIAS_COUNT = 100;

function toData(doc: Document, firstLine: number): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT }) ?? null;
  } catch (error) {
    // The library refuses an alias bomb with a ReferenceError; to an editor it is a problem in the file.
    const message = error instanceof Error ? error.message : String(error);
    throw new YamlSyntaxError(
      `${message} (anchors and aliases expand to more than ${MAX_ALIAS_COUNT} nodes; write the values out)`,
      firstLine,
    );
  }
}

/** Parses a YAML file (`source` starts at line `firstLine`); throws `YamlSyntaxError` with its line. */
export function parseYaml(source: string, firstLine = 1): { data: unknown; locate: Locate } {
  const { doc, lineAt } = parseWithLines(source, firstLine);
  const [error] = doc.errors;
  if (error) throw new YamlSyntaxError(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), lineAt(error.pos[0]));
  return { data: toData(doc, firstLine), locate: (path) => locateIn(doc, lineAt, path, firstLine) };
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
