/**
 * Markdown bodies and what the renderer's tokenizer steps are given while it renders them: the inputs on which
 * the renderer's shortcuts (plain-text-run.ts, possible-blocks.ts) are checked against marked's own patterns.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';
import { splitFrontMatter } from '../../generator/pipeline/load/front-matter.ts';
import { syntheticFiles } from './synthetic-content.ts';

const bodyOf = (text: string) => splitFrontMatter(text).body;

/** The bodies of 200 synthetic articles. */
export const syntheticBodies = (): string[] =>
  [...syntheticFiles({ articles: 200 })].filter(([file]) => file.endsWith('.md')).map(([, text]) => bodyOf(text));

/** The bodies of the site's own Markdown files. */
export const siteBodies = (): string[] =>
  readdirSync('content', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => bodyOf(readFileSync(path.join('content', file), 'utf8')));

/**
 * Every string marked's `step` is given while it renders `bodies` (the table step is given what the setext
 * heading step is).
 */
export function stepInputs(step: 'inlineText' | 'lheading', bodies: string[]): string[] {
  const inputs: string[] = [];
  const record = (src: string) => {
    inputs.push(src);
    return false as const;
  };
  const recording = new Marked({ gfm: true, tokenizer: { [step]: record } });
  for (const body of bodies) recording.parse(body, { async: false });
  return inputs;
}

/** A list each of whose items holds the next, `size` characters of it. */
export function nestedList(size: number): string {
  const lines: string[] = [];
  for (let length = 0, depth = 0; length < size; depth++) {
    lines.push(`${'  '.repeat(depth)}- a`);
    length += 2 * depth + 4;
  }
  return lines.join('\n');
}
