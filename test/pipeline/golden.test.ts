/**
 * Refactoring must not change what the site serves: a build of a frozen copy of the real content
 * (test/fixtures/golden-content) is compared file by file with the SHA-256 digests of an earlier build.
 * When an output changes on purpose, refresh the digests with `UPDATE_GOLDEN=1 npx vitest run
 * test/pipeline/golden.test.ts` and say in the commit which files changed and why.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR } from '../helpers/fixture.ts';
import { buildInto, listFiles, removeBuildDirs } from '../helpers/build-output.ts';

const CONTENT = path.join(FIXTURES_DIR, 'golden-content');
const DIGESTS = path.join(FIXTURES_DIR, 'golden-content.sha256');
/** The build time of the recorded build; the site address comes from the fixture's site.yaml. */
const ENV = { SOURCE_DATE_EPOCH: '1790000000' };

afterAll(removeBuildDirs);

/** `sha256sum` lines: `<hex>  <path>`, sorted by path. */
function digestTree(root: string): string {
  return listFiles(root)
    .map(
      (file) =>
        `${createHash('sha256')
          .update(readFileSync(path.join(root, file)))
          .digest('hex')}  ${file}\n`,
    )
    .join('');
}

describe('a build of the golden content', () => {
  it('is byte for byte the recorded build', async () => {
    const actual = digestTree(await buildInto(CONTENT, ENV));
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(DIGESTS, actual);
    const parse = (text: string) =>
      new Map(
        text
          .trim()
          .split('\n')
          .map((line) => [line.slice(66), line.slice(0, 64)] as const),
      );
    const expected = parse(readFileSync(DIGESTS, 'utf8'));
    const got = parse(actual);
    const changed = [...new Set([...expected.keys(), ...got.keys()])].filter((file) => expected.get(file) !== got.get(file)).sort();
    expect(changed, 'files whose bytes differ from the recorded build (missing, added or changed)').toEqual([]);
  });
});
