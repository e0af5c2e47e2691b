/** YAML helpers that know where each field stands, so a problem can name its line. */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';

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

function parseWithLines(source: string, firstLine: number) {
  const lineCounter = new LineCounter();
  // YAML 1.1 timestamps, so unquoted dates arrive as `Date` here as they do through gray-matter.
  const doc = parseDocument(source, { lineCounter, customTags: ['timestamp'], uniqueKeys: true, prettyErrors: false });
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

/** Parses a YAML file (`source` starts at line `firstLine`); throws `YamlSyntaxError` with its line. */
export function parseYaml(source: string, firstLine = 1): { data: unknown; locate: Locate } {
  const { doc, lineAt } = parseWithLines(source, firstLine);
  const [error] = doc.errors;
  if (error) throw new YamlSyntaxError(error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), lineAt(error.pos[0]));
  return { data: doc.toJS({ maxAliasCount: 100 }) ?? null, locate: (path) => locateIn(doc, lineAt, path, firstLine) };
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
