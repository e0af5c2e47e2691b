/**
 * Where possible-blocks.ts says a body's rest cannot begin with a setext heading or a table, the renderer's own
 * patterns must not match it either: on random text made of what the patterns look for, and on every block of
 * the synthetic articles and the site's own bodies. The renderer skips both patterns for the synthetic bodies.
 */
import fc from 'fast-check';
import { Lexer } from 'marked';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { maybeSetextHeading, maybeTable } from '../../generator/pipeline/outputs/possible-blocks.ts';
import { renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { siteBodies, stepInputs, syntheticBodies } from '../helpers/markdown-inputs.ts';

/** marked's GFM block patterns, the ones the renderer's tokenizer runs. */
const BLOCK = (Lexer.rules.block as unknown as { gfm: { lheading: RegExp; table: RegExp } }).gfm;

/** marked's own table step, as the renderer's lexer runs it. */
const tableStep = (new Lexer({ gfm: true }) as unknown as { tokenizer: { table(src: string): unknown } }).tokenizer;
const tableStepMatches = (src: string) => tableStep.table(src) !== undefined;

/** A no must be the renderer's no. */
function expectSure(src: string): void {
  if (!maybeSetextHeading(src)) expect(BLOCK.lheading.exec(src), JSON.stringify(src)).toBeNull();
  if (!maybeTable(src)) expect(tableStepMatches(src), JSON.stringify(src)).toBe(false);
}

// biome-ignore format: one piece a word keeps the list readable
const PIECES = [
  'a', 'word', ' ', '  ', '   ', '    ', '\t', '\n', '\n\n', '\n \n', '\r', '\u2028', '\u2029', '\u00a0', '=', '==', '-', '---',
  '|', '| a |', '|---|', ':', ':-:', '*', '#', '>', '1.', '```', '<div>', '_', '\n=', '\n-', '\n  -', '\n    -', '\n|', '\n:',
];

describe('possible blocks', () => {
  afterEach(() => vi.restoreAllMocks());

  it("answer no only where the renderer's patterns do not match, on random text of what they look for", () => {
    let noes = 0;
    let maybes = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 16 }), (pieces) => {
        const src = pieces.join('');
        expectSure(src);
        if (maybeSetextHeading(src)) maybes++;
        else noes++;
      }),
      { numRuns: 20000 },
    );
    expect(noes).toBeGreaterThan(2000);
    expect(maybes).toBeGreaterThan(2000);
  });

  it("answer no only where the patterns do not match, on every block of the synthetic and the site's bodies", () => {
    const synthetic = stepInputs('lheading', syntheticBodies());
    expect(synthetic.length).toBeGreaterThan(1000);
    for (const src of synthetic) expectSure(src);
    for (const src of stepInputs('lheading', siteBodies())) expectSure(src);
  });

  it('spare the renderer both patterns on the synthetic bodies', () => {
    const lheading = vi.spyOn(BLOCK.lheading, 'exec');
    const table = vi.spyOn(BLOCK.table, 'exec');
    for (const body of syntheticBodies().slice(0, 50)) renderMarkdown(body);
    expect(lheading).not.toHaveBeenCalled();
    expect(table).not.toHaveBeenCalled();
  });
});
