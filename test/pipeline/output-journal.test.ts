/**
 * An output updated in place (emit/update-in-place.ts): an edit replaces only the files whose bytes changed
 * in the folder in place, and an update cut short midway is never trusted: its journal makes the next build
 * trust none of the files it names, and build a whole new folder that equals a clean build.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { fingerprintBuild, readUnchangedBuild, recordBuild } from '../../generator/pipeline/build-fingerprint.ts';
import { resolveBuildSettings } from '../../generator/pipeline/build-settings.ts';
import { identityOf, journalFile, readPreviousOutput } from '../../generator/pipeline/emit/previous-output.ts';
import { emitFiles } from '../../generator/pipeline/emit/emit-files.ts';
import { startDamageCheck } from '../../generator/pipeline/emit/damage-check.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { expectSameTree } from '../helpers/same-tree.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const build = (contentDir: string, outDir: string) => buildSite({ contentDir, outDir, env: BUILD_ENV, scope: 'test', inPlace: true });

const expectSameFolder = (left: string, right: string) => expectSameTree(readTree(left), readTree(right));

/** Appends a sentence to one article, as an editor would. */
function editArticle(content: string, name: string): void {
  const file = path.join(content, 'intelligence', name);
  writeFileSync(file, `${readFileSync(file, 'utf8')}\nOne more sentence about checkout latency.\n`);
}

/** A published article of the fixture. */
const ARTICLE = 'rag-evaluation.md';

describe('an output updated in place', () => {
  it('keeps its folder and replaces only the files an edit changed; the result is a clean build', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('in-place'), 'dist');
    await build(content, out);
    const identity = identityOf(out);
    const untouched = path.join(out, outputPath(ADDRESS.robots));
    const inode = statSync(untouched).ino;
    editArticle(content, ARTICLE);
    const result = await build(content, out);
    expect(identityOf(out), 'the same folder').toBe(identity);
    expect(statSync(untouched).ino, 'an unchanged file is left where it is').toBe(inode);
    expect(result.written).toBeGreaterThan(0);
    expect(result.written).toBeLessThan(result.files / 4);
    expect(readdirSync(path.dirname(out)).sort()).toEqual([
      'dist',
      'dist.digests',
      'dist.digests.json',
      'dist.inputs',
      'dist.inputs.json',
      'dist.kept.bin',
    ]);
    const clean = path.join(tempDir('in-place-clean'), 'dist');
    await build(content, clean);
    expectSameFolder(out, clean);
  }, 60_000);

  it('notices files changed or removed by hand, found by the second thread for this very record, and by a stat otherwise', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('damaged'), 'dist');
    const clean = path.join(tempDir('damaged-clean'), 'dist');
    await build(content, out);
    await build(content, clean);
    const changed = path.join(out, 'services', 'index.html');
    const removed = path.join(out, outputPath(ADDRESS.robots));
    const spoil = () => {
      writeFileSync(changed, `${readFileSync(changed, 'utf8')}<!-- by hand -->`);
      rmSync(removed);
    };
    spoil();
    const found = await startDamageCheck(out).answer;
    expect(found?.record).toBe(readPreviousOutput(out)?.recordDigest);
    expect([...found!.damaged].sort()).toEqual([outputPath(ADDRESS.robots), 'services/index.html'].sort());
    // The build starts the check itself and repairs both.
    expect((await build(content, out)).written).toBe(2);
    expectSameFolder(out, clean);
    // An answer for another record (says nothing is damaged) is not taken: each file is statted instead.
    spoil();
    const files = (dir: string): OutputFile[] => [...readTree(dir)].map(([file, body]) => ({ path: file, body }));
    const stale = { answer: Promise.resolve({ record: 'another record', damaged: new Set<string>() }), stop: () => {}, help: () => {} };
    expect((await emitFiles(files(clean), out, { inPlace: true, damage: stale })).written).toBe(2);
    expectSameFolder(out, clean);
    // An answer for this record is taken as it is: a file it names is written though it is intact.
    const named = {
      answer: Promise.resolve({ record: readPreviousOutput(out)!.recordDigest!, damaged: new Set([outputPath(ADDRESS.llmsTxt)]) }),
      stop: () => {},
      help: () => {},
    };
    const inode = statSync(path.join(out, outputPath(ADDRESS.llmsTxt))).ino;
    expect((await emitFiles(files(clean), out, { inPlace: true, damage: named })).written).toBe(1);
    expect(statSync(path.join(out, outputPath(ADDRESS.llmsTxt))).ino).not.toBe(inode);
    expectSameFolder(out, clean);
  }, 60_000);

  it('cut short midway leaves a journal; the next build trusts none of it and equals a clean build', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('cut-short'), 'dist');
    await build(content, out);
    // The edited article's page will be replaced; a folder where it lies makes the update fail on it, after
    // the journal is written and other files have been renamed into place.
    const article = ARTICLE;
    const before = readPreviousOutput(out)!;
    editArticle(content, article);
    const page = [...before.digests.keys()].find((file) => file.endsWith(`/${article.replace(/\.md$/, '')}/index.html`))!;
    rmSync(path.join(out, page));
    mkdirSync(path.join(out, page, 'blocker'), { recursive: true });
    await expect(build(content, out)).rejects.toThrow();
    expect(JSON.parse(readFileSync(journalFile(out), 'utf8')).files).toContain(page);
    const result = await build(content, out);
    expect(result.written, 'a whole new folder, linking what the record still vouches for').toBeLessThan(result.files);
    expect(() => readFileSync(journalFile(out))).toThrow();
    const clean = path.join(tempDir('cut-short-clean'), 'dist');
    await build(content, clean);
    expectSameFolder(out, clean);
  }, 60_000);

  it('with a journal beside it is not taken as unchanged, even with a matching build record', async () => {
    const content = fixtureDir('valid');
    const out = path.join(tempDir('journal-check'), 'dist');
    const settings = resolveBuildSettings(BUILD_ENV, {});
    const fingerprint = fingerprintBuild({ contentDir: content, outDir: out, settings });
    const result = await build(content, out);
    recordBuild(out, fingerprint, { files: result.files }, { identity: result.identity });
    expect(await readUnchangedBuild(out, fingerprintBuild({ contentDir: content, outDir: out, settings }))).toBeDefined();
    // The second thread's check of the output's files is taken for this very record only: one that names a file
    // damaged makes the build run; one for another record is not taken, and each file is statted.
    const again = () => fingerprintBuild({ contentDir: content, outDir: out, settings });
    const record = readPreviousOutput(out)!.recordDigest!;
    const answer = (about: string, damaged: string[]) => ({
      answer: Promise.resolve({ record: about, damaged: new Set(damaged) }),
      stop: () => {},
      help: () => {},
    });
    expect(await readUnchangedBuild(out, again(), answer(record, [outputPath(ADDRESS.llmsTxt)]))).toBeUndefined();
    expect(await readUnchangedBuild(out, again(), answer('another record', [outputPath(ADDRESS.llmsTxt)]))).toBeDefined();
    expect(await readUnchangedBuild(out, again(), startDamageCheck(out))).toBeDefined();
    writeFileSync(journalFile(out), JSON.stringify({ files: [outputPath(ADDRESS.robots)] }));
    expect(await readUnchangedBuild(out, fingerprintBuild({ contentDir: content, outDir: out, settings }))).toBeUndefined();
  }, 60_000);
});
