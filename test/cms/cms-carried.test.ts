/**
 * The content manager's files (outputs/cms/cms-files.ts) are carried over from the previous build while what
 * they print is the same: after a body edit none is made again (its configuration is not written as YAML
 * again), and after an edit of a name the configuration offers (a technology's, a choice of the practice
 * records' `technologies`) they are; the output is a clean build's after each.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { buildAsCommand } from '../helpers/command-build.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

describe('the content manager’s files', () => {
  const content = path.join(tempDir('cms-carried'), 'content');
  const out = path.join(tempDir('cms-carried-out'), 'dist');
  const ready = writeSyntheticContent(content, { articles: 20, technology: 6, bodyWords: 20 });
  const edit = (file: string, change: (text: string) => string) =>
    writeFileSync(path.join(content, file), change(readFileSync(path.join(content, file), 'utf8')));
  const config = () => readFileSync(path.join(out, outputPath(`${ADDRESS.admin}config.yml`)), 'utf8');

  it('are carried over while what they print is the same, and made again when a name they offer changes', async () => {
    await ready;
    const dump = vi.spyOn(jsYaml, 'dump');
    await buildAsCommand(content, out);
    expect(dump).toHaveBeenCalledTimes(1);

    edit('intelligence/article-3.md', (text) => `${text}\nA sentence more.\n`);
    const steady = await buildAsCommand(content, out);
    expect(dump, 'carried over: not written again').toHaveBeenCalledTimes(1);
    expect(steady.carried).toBeGreaterThan(0);
    expectSameTree(readTree(out), await cleanBuildTree(content), 'a body edit');
    // Each carried file made anyway and checked against its recorded digest, the copied bundle's too.
    edit('intelligence/article-4.md', (text) => `${text}\nA sentence more.\n`);
    await buildAsCommand(content, out, { verifyCarried: true });
    dump.mockClear();

    edit('technology/technology-2.md', (text) => text.replace(/^name: .*$/m, 'name: "A renamed protocol"'));
    await buildAsCommand(content, out);
    expect(dump, 'made again').toHaveBeenCalled();
    expect(config()).toContain('A renamed protocol (technology-2)');
    expectSameTree(readTree(out), await cleanBuildTree(content), 'a technology renamed');
    dump.mockRestore();
  }, 120_000);
});
