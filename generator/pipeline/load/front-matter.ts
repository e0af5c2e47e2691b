/**
 * Front matter: the YAML between a Markdown file's opening `---` line and the next `---` line. YAML and
 * nothing else: a file that opens with `---js` or `---json` names another language, and no engine but YAML
 * is ever reachable (content is data, never code). Splits exactly where the former parser (gray-matter) split, so bodies keep their bytes.
 */
import { parseFrontMatter } from './parse-yaml.ts';
import { readPlainFrontMatter } from './plain-front-matter.ts';

export interface FrontMatter {
  /** Whether the file opens with front matter at all. */
  present: boolean;
  /** The word after the opening `---`, if any (`yaml`, or a language that is refused). */
  language: string;
  /** The text between the delimiters, starting with the opening line's line break (so it begins on line 1). */
  matter: string;
  /** The Markdown after the closing delimiter's line. */
  body: string;
}

const OPEN = '---';
const CLOSE = '\n---';

export function splitFrontMatter(text: string): FrontMatter {
  // `----` opens a horizontal rule, not front matter.
  if (!text.startsWith(OPEN) || text.charAt(OPEN.length) === '-') return { present: false, language: '', matter: '', body: text };
  let rest = text.slice(OPEN.length);
  const firstLine = rest.slice(0, Math.max(0, rest.search(/\r?\n/)));
  const language = firstLine.trim();
  if (language) rest = rest.slice(firstLine.length);
  const close = rest.indexOf(CLOSE);
  if (close === -1) return { present: true, language, matter: rest, body: '' };
  let body = rest.slice(close + CLOSE.length);
  if (body[0] === '\r') body = body.slice(1);
  if (body[0] === '\n') body = body.slice(1);
  return { present: true, language, matter: rest.slice(0, close), body };
}

/** Languages that mean YAML: none written, or `yaml`. */
export const isYamlLanguage = (language: string) => language === '' || language.toLowerCase() === 'yaml';

/** Whether every line is blank or a comment. A loop, not a pattern: `^\s*#` over blank lines was quadratic. */
function isEmptyMatter(matter: string): boolean {
  for (const line of matter.split('\n')) {
    const text = line.trim();
    if (text !== '' && !text.startsWith('#')) return false;
  }
  return true;
}

/**
 * The front matter's data; an anchor or alias (`&name`, `*name`) is refused with its line (parse-yaml.ts). Most
 * front matter is read without the parser, to the same data (plain-front-matter.ts).
 */
export function parseFrontMatterData(matter: string): unknown {
  if (isEmptyMatter(matter)) return {};
  return readPlainFrontMatter(matter) ?? parseFrontMatter(matter, 1);
}
