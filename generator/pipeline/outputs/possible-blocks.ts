/**
 * Whether the rest of a Markdown body may begin with a setext heading or a table, answered without the
 * renderer's own patterns where the answer is no (render-markdown.ts). marked 18 tries both patterns on every
 * block before a paragraph, and each walks the paragraph: on the bodies of a 4,000-article build they took 35
 * to 45 ms and 20 ms of CPU. A no here is sure; a maybe leaves the pattern to decide.
 */
import { codeAt, isSpace } from './plain-text-run.ts';

const NEWLINE = 0x0a;

/** The first character of the line starting at `at` after at most three spaces. */
function afterIndent(src: string, at: number): number {
  let end = at;
  while (end < at + 3 && codeAt(src, end) === 0x20) end++;
  return codeAt(src, end);
}

/** Whether the line starting at `at` holds only white space (JavaScript's `\s`) and ends in a line break. */
function isBlankLine(src: string, at: number): boolean {
  for (let i = at; i < src.length; i++) {
    const code = src.charCodeAt(i);
    if (code === NEWLINE) return true;
    if (!isSpace(code)) return false;
  }
  return false;
}

/**
 * The characters a line may begin with (after at most three spaces) where it could end a paragraph: an
 * underline (`=`, `-`), a heading, quote, fence, list, rule, HTML block or table row, or a table's delimiter row.
 */
function mayEndParagraph(code: number): boolean {
  switch (code) {
    case 0x3d: // =
    case 0x2d: // -
    case 0x23: // #
    case 0x3e: // >
    case 0x60: // `
    case 0x7e: // ~
    case 0x3c: // <
    case 0x2a: // *
    case 0x2b: // +
    case 0x5f: // _
    case 0x7c: // |
    case 0x3a: // :
      return true;
    default:
      return code >= 0x30 && code <= 0x39; // an ordered list's number
  }
}

/**
 * False where the setext heading pattern cannot match: its text runs, line by line, up to a line of `=` or `-`
 * (after at most three spaces), may not cross a blank line and holds no `\r`, U+2028 or U+2029. So a body whose
 * first paragraph has no line that begins with `=` or `-` does not begin with one.
 *
 * The renderer asks at every block, each time with the whole rest of the body, so the walk stops (with a maybe)
 * at the first line that could end the paragraph too: a no is then given only for a paragraph that runs, as the
 * walk read it, to a blank line, which the paragraph step then takes whole. Walking on past a heading to the next
 * blank line each time would make a body of short paragraphs between headings quadratic.
 */
export function maybeSetextHeading(src: string): boolean {
  for (let at = 0; at < src.length; at++) {
    const code = src.charCodeAt(at);
    if (code === NEWLINE) {
      if (mayEndParagraph(afterIndent(src, at + 1))) return true;
      if (isBlankLine(src, at + 1)) return false;
    } else if (code === 0x0d || code === 0x2028 || code === 0x2029) return false;
  }
  return false;
}

/**
 * False where the renderer finds no table: its pattern's header is the first line, and the line after it begins,
 * after at most three spaces, with the delimiter row's `|`, `:` or `-`; and its table step takes no delimiter row
 * without a `|` or `:` (that line is a setext underline), having matched the pattern, which runs on through every
 * line that does not end a table. A setext heading (`x` over `-`) had the pattern read the rest of the body each
 * time: 4.0 s for 100,000 characters of them.
 */
export function maybeTable(src: string): boolean {
  const end = src.indexOf('\n');
  if (end < 0) return false;
  const next = afterIndent(src, end + 1);
  if (next !== 0x7c && next !== 0x3a && next !== 0x2d) return false;
  const rowEnd = src.indexOf('\n', end + 1);
  const row = src.slice(end + 1, rowEnd < 0 ? src.length : rowEnd);
  return row.includes('|') || row.includes(':');
}
