/**
 * The front matter nearly every Markdown file has, read without the YAML parser: one `key: value` a line, a
 * value being a quoted or plain one-line string, a whole number, a calendar date, true, false, a flow list of
 * words and quoted strings (`[a, b-c, "d, e"]`) or a block list of one-line strings (`  - item` lines under
 * `key:`), with blank and comment lines between. Anything else, or anything this reader is not sure the parser
 * reads the same (an escape, a `: ` or ` #` in a plain string, a duplicate key, a null, a float, a tab), is
 * left to the parser (parse-yaml.ts), which also reports every problem with its line. So the data is the
 * parser's for every file, and the parser's cost (a third of the load at 4,000 articles) is paid only where it
 * is needed. One pass over the lines, each tested by patterns without nested repetition: linear in the text.
 */
import { CALENDAR_DATE, calendarDateOf } from './parse-yaml.ts';

const KEY = /^([A-Za-z][A-Za-z0-9_-]*):(?: (.*))?$/;
const LIST_ITEM = /^( +)- (.*)$/;
/**
 * Characters the parser refuses or reads apart (js-yaml's non-printable ones, line and paragraph separators,
 * surrogates, a byte order mark), tabs and carriage returns: a file holding one is the parser's.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSURE_CHARACTERS = /[\t\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uD800-\uDFFF\uFEFF\uFFFE\uFFFF]/;
/** Plain words YAML's core schema reads as true or false; its nulls are left to the parser. */
const BOOLEANS = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
const NULLS = new Set(['null', 'Null', 'NULL']);
const WHOLE_NUMBER = /^(?:0|[1-9][0-9]{0,14})$/;
/** What a plain string may start with: a letter or a slash (an address), never an indicator, a sign or a digit. */
const PLAIN_FIRST = /^[A-Za-z/]/;
const BLANK = /^ *$/;
const FLOW_WORD = /^[A-Za-z][A-Za-z0-9_-]*$/;

/** A one-line scalar as the parser reads it, or undefined when this reader is not sure. */
function scalar(text: string): unknown {
  const first = text.charCodeAt(0);
  // Quoted without an escape or a quote inside: the text between the quotes.
  if (first === 34 /* " */)
    return text.length > 1 && text.indexOf('"', 1) === text.length - 1 && !text.includes('\\') ? text.slice(1, -1) : undefined;
  if (first === 39 /* ' */) return text.length > 1 && text.indexOf("'", 1) === text.length - 1 ? text.slice(1, -1) : undefined;
  if (first >= 48 && first <= 57) {
    if (WHOLE_NUMBER.test(text)) return Number(text);
    // The parser's calendar date (parse-yaml.ts): a day that does not exist stays a string.
    if (CALENDAR_DATE.test(text)) return calendarDateOf(text);
    return undefined;
  }
  const boolean = BOOLEANS.get(text);
  if (boolean !== undefined) return boolean;
  // A plain string: no `: ` (a mapping), no ` #` (a comment), no ending `:` or space (a key, or trimmed).
  const plain =
    PLAIN_FIRST.test(text) &&
    !NULLS.has(text) &&
    !text.includes(': ') &&
    !text.includes(' #') &&
    !text.endsWith(':') &&
    !text.endsWith(' ');
  return plain ? text : undefined;
}

/** A flow list of words and quoted strings (`[a, b-c, "d, e"]`), items parted by `, `; or undefined. */
function flowList(text: string): unknown[] | undefined {
  if (!text.endsWith(']')) return undefined;
  const items: unknown[] = [];
  const end = text.length - 1;
  let at = 1;
  while (at < end) {
    const quote = text[at];
    let item: unknown;
    if (quote === '"' || quote === "'") {
      const close = text.indexOf(quote, at + 1);
      if (close === -1 || close >= end) return undefined;
      item = scalar(text.slice(at, close + 1));
      at = close + 1;
    } else {
      const stop = text.indexOf(', ', at);
      const word = text.slice(at, stop === -1 ? end : stop);
      item = FLOW_WORD.test(word) && !BOOLEANS.has(word) && !NULLS.has(word) ? word : undefined;
      at += word.length;
    }
    if (item === undefined) return undefined;
    items.push(item);
    if (at === end) return items;
    if (!text.startsWith(', ', at)) return undefined;
    at += 2;
  }
  // `[]`, or a list that ends in `, ]`.
  return at === 1 ? items : undefined;
}

/** The front matter's data, the same as the YAML parser's, or undefined where the parser must read it. */
export function readPlainFrontMatter(matter: string): Record<string, unknown> | undefined {
  if (UNSURE_CHARACTERS.test(matter)) return undefined;
  const data: Record<string, unknown> = {};
  /** The block list being read, its key's, and the indent of its items. */
  let list: unknown[] | undefined;
  let indent = 0;
  for (const line of matter.split('\n')) {
    if (BLANK.test(line) || line.startsWith('#')) continue;
    const item = list && LIST_ITEM.exec(line);
    if (item) {
      if (list!.length > 0 && item[1]!.length !== indent) return undefined;
      indent = item[1]!.length;
      const value = scalar(item[2]!);
      if (typeof value !== 'string') return undefined;
      list!.push(value);
      continue;
    }
    if (list?.length === 0) return undefined;
    list = undefined;
    const field = KEY.exec(line);
    if (!field || Object.hasOwn(data, field[1]!)) return undefined;
    const text = field[2];
    if (text === undefined) {
      list = [];
      data[field[1]!] = list;
      continue;
    }
    const value = text.startsWith('[') ? flowList(text) : scalar(text);
    if (value === undefined) return undefined;
    data[field[1]!] = value;
  }
  return list?.length === 0 ? undefined : data;
}
