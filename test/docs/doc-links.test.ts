/**
 * The README and docs/ are the project's whole documentation: every link in them leads to a file of the
 * repository (and a heading that exists), or to a public website; none leaves the repository's folder.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor for a heading: lowercase, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N} -]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchor(match[1]!)));
}

/** Markdown links and images outside code blocks and code spans: `[text](target)`. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);
}

/** Repository paths named in code spans (`generator/server/cli.ts`): they must exist too. */
function pathsOf(text: string): string[] {
  const spans = [...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  return spans.filter((span) => /^(?:generator|test|bench|netlify|docs|\.ci)\/[\w./-]*\.[a-z]+$/.test(span));
}

describe('documentation links', () => {
  it.each(DOCS)('%s links only to files and headings that exist in the repository', (doc) => {
    const text = readFileSync(path.join(ROOT, doc), 'utf8');
    const problems: string[] = [];
    for (const link of linksOf(text)) {
      if (/^https?:\/\//.test(link) || link.startsWith('mailto:')) continue;
      const [target, hash] = link.split('#') as [string, string | undefined];
      const file = target === '' ? path.join(ROOT, doc) : path.resolve(path.dirname(path.join(ROOT, doc)), target);
      if (!file.startsWith(`${ROOT}${path.sep}`)) problems.push(`${link}: outside the repository`);
      else if (!existsSync(file)) problems.push(`${link}: no such file`);
      else if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash)) problems.push(`${link}: no such heading`);
    }
    for (const named of pathsOf(text)) if (!existsSync(path.join(ROOT, named))) problems.push(`${named}: named but missing`);
    expect(problems).toEqual([]);
  });

  it('finds a broken link, a link outside the repository and a missing heading', () => {
    const links = linksOf('See [a](docs/nope.md), [b](../shared/CONTRACT.md), `[c](x.md)` and\n```\n[d](y.md)\n```');
    expect(links).toEqual(['docs/nope.md', '../shared/CONTRACT.md']);
    expect(anchor('Rate limit: what holds where')).toBe('rate-limit-what-holds-where');
    expect(anchor('The `_headers` file')).toBe('the-headers-file');
  });

  it('the README starts with the set-up commands and names no folder outside the repository', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const firstBlock = readme.split('```')[1]!;
    expect(firstBlock).toContain('npm install && npm start');
    expect(firstBlock).toContain('npm test');
    expect(firstBlock).toContain('npm run dev');
    for (const doc of DOCS) expect(readFileSync(path.join(ROOT, doc), 'utf8')).not.toMatch(/\.\.\/shared|CONTRACT\.md|CONTENT-MODEL/);
  });
});
