/**
 * The run of plain text at the start of a paragraph's remaining inline Markdown, found without the renderer's
 * own pattern where that is sure to give the same run (render-markdown.ts). The renderer's GFM text pattern
 * (marked 18) tests, at every character, for an e-mail address or a `mailto:`/`xmpp:` link ahead (scanning the
 * next word for an `@`), two spaces before a line end, and the characters and words that may begin other
 * inline syntax; on the bodies of a 4,000-article build it took 150 ms of CPU, most of the renderer's inline
 * work. Where the stretch those tests can see holds no `@`, no `mailto:` or `xmpp:` and no two spaces before a
 * line end, only the last of them can end the run, and this loop answers it in half the time; elsewhere it gives
 * no answer and the renderer's pattern decides.
 *
 * The renderer asks once for every inline token of a paragraph, each time with the whole rest of it, so the loop
 * reads only what the pattern's tests can see from this token: the run, and past its end the word an e-mail
 * lookahead may read through (at most LOOKAHEAD characters, else no answer). Reading the whole rest each time
 * would make a paragraph of many short tokens (`a*a*a*...`) quadratic. For the same reason the run is given up at
 * the first character that rules out an answer (`@`, `&`, two spaces before a line end, `mailto:`, `xmpp:`):
 * the pattern's token ends at or before it, and reading on to the run's end made `a@a@...` and lines ending in two
 * spaces quadratic (9.7 s and 5.5 s at 100,000 characters).
 */

const lower = (code: number) => code | 0x20;

/** JavaScript's `\s`: the characters a `www.` may follow as a word's start, besides `*`, `_`, `~` and `(`. */
export function isSpace(code: number): boolean {
  return (
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** What runEnd answers for a run holding a character that rules out an answer (plainTextRun gives none). */
const RULED_OUT = -1;

/**
 * Where the run ends, from `from` on: before `\ < ! [ ` * ~ _`, before `http` or `ftp://` (any case), before a
 * `www.` that begins a word, or at the end. The same places as the lookahead of the renderer's pattern.
 * RULED_OUT at an `@`, an `&`, two spaces before a line end or a `mailto:` or `xmpp:` before that.
 */
function runEnd(src: string, from: number): number {
  for (let at = from; at < src.length; at++) {
    switch (src.charCodeAt(at)) {
      case 0x40: // @
      case 0x26: // &
        return RULED_OUT;
      case 0x0a: // a line end after two spaces
        if (codeAt(src, at - 1) === 0x20 && codeAt(src, at - 2) === 0x20) return RULED_OUT;
        break;
      case 0x3a: // :
        if (src.endsWith('mailto', at) || src.endsWith('xmpp', at)) return RULED_OUT;
        break;
      case 0x5c: // \
      case 0x3c: // <
      case 0x21: // !
      case 0x5b: // [
      case 0x60: // `
      case 0x2a: // *
      case 0x7e: // ~
      case 0x5f: // _
        return at;
      case 0x68: // h
      case 0x48: // H
        if (lower(codeAt(src, at + 1)) === 0x74 && lower(codeAt(src, at + 2)) === 0x74 && lower(codeAt(src, at + 3)) === 0x70) return at;
        break;
      case 0x66: // f
      case 0x46: // F
        if (lower(codeAt(src, at + 1)) === 0x74 && lower(codeAt(src, at + 2)) === 0x70 && src.startsWith('://', at + 3)) return at;
        break;
      case 0x77: {
        // w: lower case only, as the pattern has it
        const before = codeAt(src, at - 1);
        if (src.startsWith('ww.', at + 1) && (before === 0x2a || before === 0x5f || before === 0x7e || before === 0x28 || isSpace(before)))
          return at;
        break;
      }
    }
  }
  return src.length;
}

/**
 * The character at `at`, NaN outside the text, as charCodeAt gives it: a read outside the text made V8 throw away
 * the optimized code of the loops that read (runEnd here, possible-blocks.ts afterIndent).
 */
export const codeAt = (src: string, at: number) => (at >= 0 && at < src.length ? src.charCodeAt(at) : Number.NaN);

/** How far past the run's end the e-mail lookahead is followed before the loop gives no answer. */
const LOOKAHEAD = 64;

/** The characters of an e-mail address's local part, through which the pattern looks ahead for its `@`. */
export function isLocalPart(code: number): boolean {
  const letter = lower(code);
  return (
    (letter >= 0x61 && letter <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x21 && code <= 0x2f && code !== 0x22 && code !== 0x28 && code !== 0x29 && code !== 0x2c) || // !#$%&'*+-./
    code === 0x3d || // =
    code === 0x3f || // ?
    code === 0x5f || // _
    code === 0x60 || // `
    (code >= 0x7b && code <= 0x7e) // {|}~
  );
}

/**
 * The plain text `src` begins with, as the renderer's text pattern would take it, or undefined where this cannot
 * be sure (the renderer's pattern then decides). Also undefined where the run holds an `&`, which the renderer
 * may decode as a character reference: without one, its text is the run itself.
 */
export function plainTextRun(src: string): string | undefined {
  if (src === '') return undefined;
  // The pattern takes a first character, or a first run of backticks or tildes, before it looks for an end.
  const first = src[0];
  let from = 1;
  if (first === '`' || first === '~') while (src[from] === first) from++;
  const end = runEnd(src, from);
  if (end === RULED_OUT) return undefined;
  // An e-mail lookahead from inside the run reads on through local-part characters, some of which end the run.
  let reach = end;
  while (reach < src.length && isLocalPart(src.charCodeAt(reach))) if (++reach - end > LOOKAHEAD) return undefined;
  // `mailto:` and `xmpp:` cannot hold a character that ends the run, so one that starts in it ends within 7 past.
  const seen = src.slice(0, Math.max(reach + 1, end + 7));
  if (seen.includes('@') || seen.includes('mailto:') || seen.includes('xmpp:') || seen.includes('  \n')) return undefined;
  const run = src.slice(0, end);
  return run.includes('&') ? undefined : run;
}
