/**
 * The nothing-changed check in a thread of its own (content-check.ts): the fingerprint it hands back, made
 * whole again from columns, is the one the check gives in the build's own thread, listing, stats and changed
 * files included; with no record beside the output there is none (a cold build).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Fingerprint, fingerprintBuild, recordBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { checkContentInThread } from '../../generator/pipeline/content-check.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('content-check');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Everything a build reads of a fingerprint, as plain values, but the time the check was taken at. */
const shape = (fingerprint: Fingerprint) => ({
  value: fingerprint.value,
  generator: fingerprint.generator,
  reread: fingerprint.reread,
  content: { ...fingerprint.content, at: 0 },
  changed: fingerprint.changed && { files: [...fingerprint.changed.files].sort(), output: fingerprint.changed.output },
  recorded: {
    fingerprint: fingerprint.recorded?.fingerprint,
    identity: fingerprint.recorded?.identity,
    output: fingerprint.recorded?.output,
  },
  listing: {
    root: fingerprint.listing.root,
    names: fingerprint.listing.names.map(({ path, dirent }) => [path, dirent.isFile(), dirent.isDirectory(), dirent.isSymbolicLink()]),
  },
  stats: [...fingerprint.stats].map(([file, stats]) => [
    file,
    [stats.dev, stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs, stats.isFile(), stats.isDirectory(), stats.isSymbolicLink()],
  ]),
});

describe('the nothing-changed check in its own thread', () => {
  it("gives the fingerprint the build's own thread gives, and none without a record", async () => {
    const content = path.join(root, 'content');
    mkdirSync(path.join(content, 'intelligence'), { recursive: true });
    for (const name of ['a', 'b', 'c']) writeFileSync(path.join(content, 'intelligence', `${name}.md`), `---\ntitle: ${name}\n---\n`);
    symlinkSync('a.md', path.join(content, 'intelligence', 'link.md'));
    const inputs = { contentDir: content, outDir: path.join(root, 'dist'), settings: resolveBuildSettings({}) };
    expect(await checkContentInThread(inputs)).toBeUndefined();

    recordBuild(inputs.outDir, fingerprintBuild(inputs), {}, { output: 'stamp' });
    writeFileSync(path.join(content, 'intelligence', 'b.md'), '---\ntitle: b, edited\n---\n');
    rmSync(path.join(content, 'intelligence', 'c.md'));
    const inThread = (await checkContentInThread(inputs))!;
    const here = fingerprintBuild(inputs);
    expect(shape(inThread)).toEqual(shape(here));
    expect(shape(inThread).changed).toEqual({ files: ['intelligence/b.md', 'intelligence/c.md'], output: 'stamp' });
  });
});
