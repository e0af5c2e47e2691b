/**
 * The work the Markdown renderer may do for a body, counted where marked's own steps are not linear in their
 * input, so that a body shaped to make them slow is refused within a bound linear in its length rather than
 * held for minutes (render-markdown.ts). Ordinary text is rendered exactly as before: the count only watches.
 *
 * What is counted (marked 18, GFM; CPU times of the renderer before the count, 2026-11-25):
 * - Emphasis and strikethrough: for every `*`, `_` or `~` that may open, marked scans on for its closer, up to
 *   the last one the text holds, and renders an opener's text again inside it. Many openers that never close
 *   (`**a,**a,...`: 6.9 s at 25,000 characters; `about ~5 or ~10 items`: 3.4 s at 100,000), or emphasis nested
 *   deep, make that quadratic. Counted: the searches of its closer patterns and the characters they pass over,
 *   through the patterns themselves (meteredInlineRules).
 * - Text before an e-mail address: marked's text pattern looks ahead, at every token, through the characters
 *   an address may hold for an `@` (`a*a*a*...`: 8.9 s at 200,000). Counted: those characters
 *   (emailLookaheadWork), where the renderer's own loop (plain-text-run.ts) left the token to the pattern.
 * - Quotes with lazy lines: marked's block quote step takes one group of `>` lines and unquoted lines at a time
 *   and copies the rest of the quote's lines for each (`x` / `> q` lines: 7.9 s at 200,000). Counted: the
 *   groups times the lines, read before the step runs (quoteWork).
 * - Raw HTML and autolinks: marked's inline tag pattern reads a comment, processing instruction, CDATA section
 *   or declaration on to its end, or the text's end where there is none, at every one (`a <?` repeated: 1.5 s
 *   at 200,000); its autolink step reads a link again for every `(` in it and for every character of
 *   punctuation it takes off its end (`http://a.b` and 50,000 `)`: 1.1 s; `www.a.b(` repeated: 1.4 s at
 *   100,000). Counted before those steps run (tagWork, urlWork), and so is the tag pattern's reading from
 *   every `<` in a link's text, which marked's link steps do to see whether a tag runs past the text's end
 *   (`[<!-- a](u)` repeated: 0.67 s at 200,000; chargeLinkText).
 * - Lists nested deep: marked reads a list item's text again for the blocks inside it, so a list nested n deep
 *   is read n times (each level two spaces further in: 1.8 s at 400,000 characters, 632 levels). Counted in
 *   render-markdown.ts, where a list starts inside a list item: the rest of the item's text, which it may run to
 *   (LIST_REREAD units a character).
 *
 * Prose costs about a unit a character (the site's and 200 synthetic bodies at most 0.10; 200,000 characters of
 * long paragraphs, tables, lists or quotes at most 1.1, lists nested three deep 2.4, four deep 3.6, eight deep 6.7). A body is refused past WORK_PER_CHARACTER
 * units a character beyond WORK_ALLOWANCE, which any body may spend. A unit took 1 to 35 nanoseconds on the
 * shapes above, so a body is refused within about 0.07 s plus 0.6 s a megabyte, where 1 MB took minutes.
 */
import { isLocalPart, isSpace } from './plain-text-run.ts';

/** Units a character of the body may cost: many times what prose costs. */
export const WORK_PER_CHARACTER = 16;
/**
 * Units any body may spend whatever its length, so that a short body is never refused for a shape that costs
 * it little: one paragraph with a `*` that may open and close in every sentence is refused from 28,000
 * characters on (30 ms then; it is quadratic: 1.6 s at 200,000).
 */
const WORK_ALLOWANCE = 2_000_000;

/** Thrown when a body has cost more work than it may; `at` is the text the renderer was working on. */
export class TooMuchWork extends Error {
  readonly at: string;
  constructor(at: string) {
    super('the body asks the Markdown renderer for more work than its length allows');
    this.name = 'TooMuchWork';
    this.at = at;
  }
}

/** What the body being rendered may cost, and may still cost; rendering is synchronous, so one body at a time. */
let allowed = Number.POSITIVE_INFINITY;
let left = Number.POSITIVE_INFINITY;
/** The text the renderer is working on, for the error's line. */
let working = '';
/** What the last body rendered cost. */
let lastWork = 0;

/** Starts counting for a body of `length` characters. */
export function startWork(length: number): void {
  allowed = WORK_PER_CHARACTER * length + WORK_ALLOWANCE;
  left = allowed;
  working = '';
}

/** Stops counting (between bodies, nothing is counted). */
export function endWork(): void {
  lastWork = allowed - left;
  allowed = left = Number.POSITIVE_INFINITY;
}

/** The units the last body rendered cost (what the tests compare with prose). */
export const workOfLastBody = (): number => lastWork;

/** Counts `units` of work on `at`; throws TooMuchWork once the body has cost more than it may. */
export function charge(units: number, at?: string): void {
  if (at !== undefined) working = at;
  left -= units;
  if (left < 0) throw new TooMuchWork(working);
}

/**
 * Units a character of a list item's text costs each time marked reads it again for a list inside it: its list
 * step tests every line against half a dozen patterns, about 25 nanoseconds a character a level.
 */
export const LIST_REREAD = 2;

/**
 * Units a search by a closer pattern costs, and characters it passes over (from lastIndex to its match's end, or
 * the text's end) a unit: a search tries every alternative of the pattern, passing over a run of plain text
 * costs little a character. So weighted, `**a,` repeated (a search every four characters) and prose with a `*`
 * every fifty cost 14 and 18 to 35 nanoseconds a unit, where a unit a character passed differed ninefold.
 */
const UNITS_A_SEARCH = 8;
const CHARACTERS_A_UNIT = 8;

/** A pattern that counts its searches and the characters they pass over. */
class MeteredPattern extends RegExp {
  override exec(text: string): RegExpExecArray | null {
    const from = this.lastIndex;
    const match = super.exec(text);
    charge(UNITS_A_SEARCH + ((match ? match.index + match[0].length : text.length) - from) / CHARACTERS_A_UNIT, text);
    return match;
  }
}

const metered = (pattern: RegExp) => new MeteredPattern(pattern.source, pattern.flags);

/** The closer patterns of emphasis and strikethrough in marked's inline `rules`, counted. */
export function meteredInlineRules(rules: { emStrongRDelimAst: RegExp; emStrongRDelimUnd: RegExp; delRDelim: RegExp }) {
  return {
    emStrongRDelimAst: metered(rules.emStrongRDelimAst),
    emStrongRDelimUnd: metered(rules.emStrongRDelimUnd),
    delRDelim: metered(rules.delRDelim),
  };
}

/** `[A-Za-z0-9._+-]`: what marked's autolink step reads at every token for an e-mail address's `@`. */
function isEmailCharacter(code: number): boolean {
  const letter = code | 0x20;
  return (
    (letter >= 0x61 && letter <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === 0x2e || code === 0x5f || code === 0x2b || code === 0x2d
  );
}

/**
 * What marked's text pattern reads ahead from the token that `src` starts with: after its first character (or
 * first run of backticks or tildes), unless a backtick, a tilde or two spaces come next, the run of local-part
 * characters (at most the rest of the text).
 */
export function emailLookaheadWork(src: string): number {
  const first = src.charCodeAt(0);
  let from = 1;
  if (first === 0x60 || first === 0x7e) while (src.charCodeAt(from) === first) from++;
  const next = src.charCodeAt(from);
  if (next === 0x60 || next === 0x7e || src.startsWith('  ', from)) return from;
  let end = from;
  while (end < src.length && isLocalPart(src.charCodeAt(end))) end++;
  return end;
}

/** Where raw HTML that marked's inline tag pattern reads on for ends: a comment, an instruction, CDATA, a declaration. */
const TAG_ENDS: [opening: RegExp, end: string][] = [
  [/^<!--/, '-->'],
  [/^<\?/, '?>'],
  [/^<!\[CDATA\[/, ']]>'],
  [/^<![a-zA-Z]/, '>'],
];

/**
 * What marked's inline tag pattern reads for raw HTML at the start of `src`: a comment, processing instruction,
 * CDATA section or declaration is read on to its end, or to the end of the text where it has none.
 */
export function tagWork(src: string): number {
  if (src.charCodeAt(0) !== 0x3c) return 0;
  for (const [opening, end] of TAG_ENDS) {
    if (!opening.test(src)) continue;
    const at = src.indexOf(end, 2);
    return at < 0 ? src.length : at + end.length;
  }
  return 0;
}

/**
 * Counts what marked's link steps read of a link at the start of `src` (`[` or `![`). From every `<` in its text
 * they look for a tag running past the text's end, reading each as the tag pattern does (tagWork, counted one at
 * a time: each may read to the end). Their text ends at the first `]` outside brackets and holds brackets two
 * deep at most, so the walk stops there, or at a third `[` deep, or at the end: never before the text the steps
 * find. After `](` (`inline`), the link pattern takes the address to the next white space and backs off to the
 * `)`: many links without a space between were quadratic (`*[a](u)` repeated: 0.8 s at 200,000). Passing over
 * the text costs a unit for CHARACTERS_A_UNIT characters, the address a unit a character (the pattern backs off
 * through it again).
 */
export function chargeLinkText(src: string, inline: boolean): void {
  let depth = 0;
  let at = src.charCodeAt(0) === 0x21 ? 2 : 1;
  for (; at < src.length; at++) {
    const code = src.charCodeAt(at);
    if (code === 0x5c) at++;
    else if (code === 0x3c) charge(tagWork(src.slice(at)), src);
    else if (code === 0x5b && ++depth > 2) break;
    else if (code === 0x5d && depth-- === 0) break;
  }
  charge(at / CHARACTERS_A_UNIT, src);
  if (!inline || src.charCodeAt(at + 1) !== 0x28) return;
  let end = at;
  while (end < src.length && src.charCodeAt(end) > 0x20) end++;
  charge(end - at, src);
}

/** Where a GFM autolink (`www.`, `http://`, `https://`, `ftp://`, any case) may start. */
const URL_START = /^(?:www\.|(?:https?|ftp):\/\/)/i;
/** What marked's autolink step takes off a link's end one character at a time, reading the link again each time. */
const TRAILING = new Set('?!.,:;*_\'"~)&');

/**
 * What marked's autolink step reads at the start of `src`: the characters an e-mail address may begin with (a
 * unit for CHARACTERS_A_UNIT of them: one character class, read fast), and for a link, the link (to the next
 * white space or `<`) once, again for every `(` in it (each is read on to its `)`), and again for every
 * character of the punctuation at its end that it takes off one at a time.
 */
export function urlWork(src: string): number {
  let run = 0;
  while (run < src.length && isEmailCharacter(src.charCodeAt(run))) run++;
  const email = run / CHARACTERS_A_UNIT;
  if (!URL_START.test(src)) return email;
  let end = 0;
  let opens = 0;
  for (; end < src.length; end++) {
    const code = src.charCodeAt(end);
    if (code === 0x3c || isSpace(code)) break;
    if (code === 0x28) opens++;
  }
  let trailing = 0;
  while (trailing < end && TRAILING.has(src[end - 1 - trailing]!)) trailing++;
  return email + end * (1 + opens + trailing);
}

/** A line that begins, after at most three spaces, with `>`. */
const QUOTED = /^ {0,3}>/;
/** A line of white space only, which neither a quote nor its lazy lines cross. */
const BLANK = /^[ \t]*$/;

/**
 * An upper bound on what marked's block quote step does for a quote at the start of `src`: the quote runs at most
 * to the first blank line; the step takes it a group at a time (quoted lines, then unquoted ones) and copies the
 * lines still to come for each group. Reading the lines costs a unit each too.
 */
export function quoteWork(src: string): number {
  let lines = 0;
  let groups = 0;
  let quotedBefore = false;
  for (let start = 0; start < src.length; ) {
    const next = src.indexOf('\n', start);
    const end = next < 0 ? src.length : next;
    const line = src.slice(start, end);
    if (BLANK.test(line)) break;
    const quoted = QUOTED.test(line);
    if (quoted && !quotedBefore) groups++;
    quotedBefore = quoted;
    lines++;
    start = end + 1;
  }
  return lines + groups * lines;
}
