/**
 * A build with no record beside its output (a cold build) has its helper thread hash the content beside the build
 * (build-fingerprint.ts fingerprintCold, build-helper.ts `digests`): what it records must be the very fingerprint
 * the nothing-changed check computes for the same files, or the next build would build again for nothing
 * (or, worse, say nothing changed after an edit).
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fingerprintBuild, fingerprintCold, recordBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { startBuildHelper } from '../../generator/pipeline/helper/build-helper.ts';
import { coldDigests, digestFile } from '../../generator/pipeline/content-digests.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { scratchDir } from '../helpers/scratch.ts';

const root = scratchDir('cold-fingerprint');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the fingerprint of a cold build', () => {
  it("is the one the nothing-changed check computes, content digests taken by the build's helper; none once a record exists", async () => {
    const content = path.join(root, 'content');
    mkdirSync(path.join(content, 'intelligence', 'empty'), { recursive: true });
    writeFileSync(path.join(content, 'site.yaml'), 'name: x\n');
    for (let n = 0; n < 40; n++) writeFileSync(path.join(content, 'intelligence', `a-${n}.md`), `---\ntitle: a ${n}\n---\nbody ${n} é\n`);
    symlinkSync(path.join(content, 'site.yaml'), path.join(content, 'intelligence', 'link.md'));
    const inputs = { contentDir: content, outDir: path.join(root, 'dist'), settings: resolveBuildSettings({}) };
    const cold = fingerprintCold(inputs)!;
    const checked = fingerprintBuild(inputs);
    expect(cold.generator).toBe(checked.generator);
    expect([...cold.stats.keys()]).toEqual([...checked.stats.keys()]);
    const helper = startBuildHelper();
    const settled = cold.settled(await helper.digests(cold.files));
    // A file gone since it was listed fails the digests, and with them the build.
    await expect(helper.digests([path.join(content, 'gone.md')])).rejects.toThrow(/gone\.md/);
    await helper.close();
    expect(settled.value).toBe(checked.value);
    expect({ ...settled.content, at: 0 }).toEqual({ ...checked.content, at: 0 });
    // Once recorded, the build checks against the record as before; an edit changes the fingerprint.
    recordBuild(inputs.outDir, settled, {});
    expect(fingerprintCold(inputs)).toBeUndefined();
    writeFileSync(path.join(content, 'intelligence', 'a-3.md'), '---\ntitle: changed\n---\n');
    expect(fingerprintBuild(inputs).value).not.toBe(checked.value);
  });

  it("takes the digests of the files the load read from the load's own reads, and reads only the others again", async () => {
    const content = path.join(root, 'content-read');
    mkdirSync(path.join(content, 'intelligence'), { recursive: true });
    mkdirSync(path.join(content, 'images'), { recursive: true });
    writeFileSync(path.join(content, 'site.yaml'), 'name: x\n');
    for (let n = 0; n < 20; n++) writeFileSync(path.join(content, 'intelligence', `a-${n}.md`), `---\ntitle: a ${n}\n---\nbody ${n} é\n`);
    writeFileSync(path.join(content, 'images', 'a.png'), 'not read by the load');
    const inputs = { contentDir: content, outDir: path.join(root, 'dist-read'), settings: resolveBuildSettings({}) };
    const cold = fingerprintCold(inputs)!;
    const read = new Map<string, string>();
    await loadContent(content, { fileDigests: read });
    const asked: string[] = [];
    const digests = await coldDigests(cold, read, async (rest) => {
      asked.push(...rest);
      return rest.map(digestFile);
    });
    expect(cold.settled(digests).value).toBe(fingerprintBuild(inputs).value);
    // The 20 Markdown files and site.yaml are the load's; only the image is read again.
    expect(read.size).toBe(21);
    expect(asked).toEqual([path.join(content, 'images', 'a.png')]);
  });
});
