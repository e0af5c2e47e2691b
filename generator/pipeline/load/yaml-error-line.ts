/**
 * Where a YAML syntax error starts. Both YAML parsers report an unclosed quote or bracket where the text
 * ends (the closing `---` of front matter, lines after the mistake); an editor needs the line it opens on.
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { lineAt } from '../../shared/text-lines.ts';

let library: typeof Yaml | undefined;
/**
 * The YAML library that keeps source positions, loaded when first used: a build whose YAML files the load
 * store kept parses none, and loading the library cost 0.2 to 0.9 s of such a build.
 */
export const yamlLibrary = (): typeof Yaml => {
  library ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return library;
};

/** Marker tokens the lexer yields that are not text of the source. */
const MARKERS = new Set(['\x02', '\x18', '\x1f']);

/** Whether a quoted scalar's text ends with its closing quote (escapes counted). */
function isClosed(token: string): boolean {
  const body = token.slice(1);
  const quote = token[0]!;
  let run = 0;
  if (quote === '"') {
    if (!body.endsWith('"')) return false;
    for (let at = body.length - 2; at >= 0 && body[at] === '\\'; at--) run++;
    return run % 2 === 0;
  }
  for (let at = body.length - 1; at >= 0 && body[at] === "'"; at--) run++;
  return run % 2 === 1;
}

/**
 * Where an error that a YAML parser reports at the end of the text really starts: the opening of a quote
 * or a bracket that is never closed (an unclosed quote on line 2 is reported by the parsers at the end).
 * One pass of the lexer over the text.
 */
export function unclosedStart(source: string): number | undefined {
  let offset = 0;
  let quote: number | undefined;
  const brackets: number[] = [];
  for (const token of new (yamlLibrary().Lexer)().lex(source)) {
    if (MARKERS.has(token)) continue;
    if (token === '[' || token === '{') brackets.push(offset);
    else if (token === ']' || token === '}') brackets.pop();
    else if ((token[0] === '"' || token[0] === "'") && !isClosed(token)) quote ??= offset;
    offset += token.length;
  }
  return quote ?? brackets[0];
}

/** The line of a syntax error: where the problem starts when that is an unclosed quote or bracket before it. */
export function errorLine(source: string, reportedLine: number, firstLine: number): number {
  const start = unclosedStart(source);
  if (start === undefined) return reportedLine;
  return Math.min(lineAt(source, start, firstLine), reportedLine);
}
