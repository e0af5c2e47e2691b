/**
 * Output compared with a clean build, as the suites of incremental builds do: a clean build's files read into
 * memory (its folder removed at once: the large suites would leave gigabytes till the end), and two trees
 * compared file by file with Buffer.equals (a deep equality over megabytes of bytes is slow).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { BUILD_ENV, readTree, tempDir } from './build-output.ts';

/** The files of a clean build of `contentDir`, with BUILD_ENV unless `options` say otherwise. */
export async function cleanBuildTree(
  contentDir: string,
  options: Omit<BuildOptions, 'contentDir' | 'outDir'> = { env: BUILD_ENV },
): Promise<Map<string, Buffer>> {
  const root = tempDir('clean');
  await buildSite({ ...options, contentDir, outDir: path.join(root, 'dist') });
  const tree = readTree(path.join(root, 'dist'));
  rmSync(root, { recursive: true, force: true });
  return tree;
}

/** Both trees hold the same files with the same bytes; `after` names the step in a failure. */
export function expectSameTree(left: ReadonlyMap<string, Buffer>, right: ReadonlyMap<string, Buffer>, after = ''): void {
  expect([...left.keys()], after).toEqual([...right.keys()]);
  for (const [file, bytes] of left) expect(bytes.equals(right.get(file)!), `${file} differs ${after}`).toBe(true);
}
