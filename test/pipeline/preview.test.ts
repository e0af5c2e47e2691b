/**
 * Drafts and scheduled records: left out of every build unless a preview asks for them (`--drafts`,
 * `--future`), and the build says which. Run as editors run it: the real command line, in a child process.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordFile, removeBuildDirs, tempDir, V1 } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** 2026-11-18: the draft (dated 2026-03-01) is in the past, the planted article in the future. */
const ENV = { ...process.env, SOURCE_DATE_EPOCH: '1795000000', SITE_URL: 'https://api.example.test' };
let content: string;

beforeAll(() => {
  content = fixtureDir('valid');
  writeFileSync(
    path.join(content, 'intelligence', 'next-year.md'),
    '---\ntitle: Next year\nsummary: Goes live later.\ndate: 2027-02-01\nauthor: Someone\ntopics: [agentic-commerce]\n---\nSoon.\n',
  );
  writeFileSync(
    path.join(content, 'intelligence', 'next-month.md'),
    '---\ntitle: Next month\nsummary: Goes live sooner.\ndate: 2026-12-15\nauthor: Someone\ntopics: [agentic-commerce]\n---\nSoon.\n',
  );
});
afterAll(() => {
  removeFixtureDirs();
  removeBuildDirs();
});

async function build(...flags: string[]): Promise<{ out: string; stdout: string }> {
  const out = path.join(tempDir('preview'), 'dist');
  const args = ['generator/launch.mjs', 'pipeline/cli.ts', 'build', '--content', content, '--out', out, ...flags];
  const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: ROOT, env: ENV });
  return { out, stdout };
}

const article = (out: string, id: string) => existsSync(path.join(out, V1, recordFile('intelligence', id)));

describe('drafts and scheduled records', () => {
  it('are left out of a build without flags, which says so with the next publication date', async () => {
    const { out, stdout } = await build();
    expect(['agent-payments-draft', 'next-year', 'next-month'].map((id) => article(out, id))).toEqual([false, false, false]);
    expect(article(out, 'rag-evaluation')).toBe(true);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/ -> .*: \d+ files, \d+ written \(the rest unchanged\), /);
    expect(lines.slice(1)).toEqual([
      '  published: 2 services, 2 expertise, 2 technology, 2 intelligence, 2 resources',
      '  left out: 1 draft (1 in intelligence); --drafts includes them in a preview',
      '  left out: 2 scheduled records (2 in intelligence), the next going live on 2026-12-15; --future includes them in a preview',
    ]);
  });

  it('includes drafts with --drafts (-D) only, and marks the build a preview', async () => {
    const { out, stdout } = await build('-D');
    expect(['agent-payments-draft', 'next-year'].map((id) => article(out, id))).toEqual([true, false]);
    expect(stdout).toContain('  published: 2 services, 2 expertise, 2 technology, 3 intelligence, 2 resources');
    expect(stdout).toContain('  PREVIEW: includes 1 draft (1 in intelligence); not for deploying');
  });

  it('includes scheduled records with --future (-F) only', async () => {
    const { out, stdout } = await build('--future');
    expect(['agent-payments-draft', 'next-year', 'next-month'].map((id) => article(out, id))).toEqual([false, true, true]);
    expect(stdout).toContain('  PREVIEW: includes 2 scheduled records (2 in intelligence); not for deploying');
  });
});
