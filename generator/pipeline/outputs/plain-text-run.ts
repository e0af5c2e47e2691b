/**
 * The run of plain text at the start of a paragraph's remaining inline Markdown, found without the renderer's
 * own pattern where that is sure to give the same run (render-markdown.ts). The renderer's GFM text pattern
 * (marked 18) tests, at every character, for an e-mail address or a `mailto:`/`xmpp:` link ahead (scanning the
 * next word for an `@`), two spaces before a line end, and the characters and words that may begin other
 * inline syntax; on the bodies of a 4,000-article build it took 150 ms of CPU, most of the renderer's inline
 * work. Where the text holds no `@`, no `mailto:` or `xmpp:` and no two spaces before a line end, only the last
 * of those tests can end the run, and this loop answers it in half the time; elsewhere it gives no answer and
 * the renderer's pattern decides.
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

/**
 * Where the run ends, from `from` on: before `\ < ! [ ` * ~ _`, before `http` or `ftp://` (any case), before a
 * `www.` that begins a word, or at the end. The same places as the lookahead of the renderer's pattern.
 */
function runEnd(src: string, from: number): number {
  for (let at = from; at < src.length; at++) {
    switch (src.charCodeAt(at)) {
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
        if (lower(src.charCodeAt(at + 1)) === 0x74 && lower(src.charCodeAt(at + 2)) === 0x74 && lower(src.charCodeAt(at + 3)) === 0x70)
          return at;
        break;
      case 0x66: // f
      case 0x46: // F
        if (lower(src.charCodeAt(at + 1)) === 0x74 && lower(src.charCodeAt(at + 2)) === 0x70 && src.startsWith('://', at + 3)) return at;
        break;
      case 0x77: {
        // w: lower case only, as the pattern has it
        const before = src.charCodeAt(at - 1);
        if (src.startsWith('ww.', at + 1) && (before === 0x2a || before === 0x5f || before === 0x7e || before === 0x28 || isSpace(before)))
          return at;
        break;
      }
    }
  }
  return src.length;
}

/**
 * The plain text `src` begins with, as the renderer's text pattern would take it, or undefined where this cannot
 * be sure (the renderer's pattern then decides). Also undefined where the run holds an `&`, which the renderer
 * may decode as a character reference: without one, its text is the run itself.
 */
export function plainTextRun(src: string): string | undefined {
  if (src === '' || src.includes('@') || src.includes('mailto:') || src.includes('xmpp:') || src.includes('  \n')) return undefined;
  // The pattern takes a first character, or a first run of backticks or tildes, before it looks for an end.
  const first = src[0];
  let from = 1;
  if (first === '`' || first === '~') while (src[from] === first) from++;
  const run = src.slice(0, runEnd(src, from));
  return run.includes('&') ? undefined : run;
}
