/**
 * The plain text run found without the renderer's pattern (plain-text-run.ts) must be the pattern's own match
 * wherever it answers: on random text made of the characters and words the pattern looks for, and on every
 * text run of the synthetic articles and the site's own bodies. The renderer uses it for the synthetic bodies'
 * runs rather than its pattern.
 */
import fc from 'fast-check';
import { Lexer } from 'marked';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { plainTextRun } from '../../generator/pipeline/outputs/plain-text-run.ts';
import { renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { siteBodies, stepInputs, syntheticBodies } from '../helpers/markdown-inputs.ts';

/** marked's GFM text pattern, the one the renderer's tokenizer runs. */
const TEXT = (Lexer.rules.inline as unknown as { gfm: { text: RegExp } }).gfm.text;
const patternRun = (src: string) => TEXT.exec(src)?.[0];

/** Pieces the pattern reacts to, and plain ones between them. */
const PIECES = [
  'a',
  'word',
  ' ',
  '  ',
  '\n',
  '\t',
  '\u00a0',
  '\u2003',
  'h',
  'H',
  'http',
  'HtTp',
  'https://x.io',
  'htt',
  'ftp://',
  'FTP://',
  'ftp:/',
  'f',
  'w',
  'www.',
  'wWw.',
  'ww.',
  '(',
  ')',
  '*',
  '_',
  '~',
  '~~',
  '`',
  '``',
  '\\',
  '<',
  '!',
  '[',
  ']',
  '.',
  ':',
  '/',
  '@',
  'a@b.c',
  'mailto:',
  'xmpp:',
  'mailto',
  '&',
  '&amp;',
  '&#38;',
  '#',
  '-',
  'é',
  '←',
  '\ud83d',
  '\ude00',
  '  \n',
];

describe('the plain text run', () => {
  afterEach(() => vi.restoreAllMocks());

  it("is the renderer's pattern's match wherever it answers, on random text of the pattern's characters and words", () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 24 }), (pieces) => {
        const src = pieces.join('');
        const run = plainTextRun(src);
        if (run === undefined) return;
        answered++;
        expect(run, JSON.stringify(src)).toBe(patternRun(src));
      }),
      { numRuns: 20000 },
    );
    // Most draws hold none of what sends it to the pattern (an `@`, `mailto:`, `xmpp:`, two spaces before a line end, `&`).
    expect(answered).toBeGreaterThan(2000);
  });

  it("is the pattern's match for every text run of the synthetic articles and the site's bodies, and answers all the synthetic ones", () => {
    const synthetic = stepInputs('inlineText', syntheticBodies());
    expect(synthetic.length).toBeGreaterThan(1000);
    for (const src of synthetic) expect(plainTextRun(src), JSON.stringify(src.slice(0, 80))).toBe(patternRun(src));
    for (const src of stepInputs('inlineText', siteBodies())) {
      const run = plainTextRun(src);
      if (run !== undefined) expect(run, JSON.stringify(src.slice(0, 80))).toBe(patternRun(src));
    }
  });

  it("spares the renderer its pattern on the synthetic bodies' text", () => {
    const exec = vi.spyOn(TEXT, 'exec');
    for (const body of syntheticBodies().slice(0, 50)) renderMarkdown(body);
    expect(exec).not.toHaveBeenCalled();
  });
});
