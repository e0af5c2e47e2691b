/**
 * What lets a very large build run: a rendered body let go once the outputs that print it have it, and a
 * build of a large content folder given a heap from the machine's memory (heap-limit.mjs).
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error the launcher's helper is plain JavaScript, run before any TypeScript loader
import { estimateFiles, heapGrowthFor, heapLimitFor } from '../../generator/heap-limit.mjs';
import { bodyRenderer } from '../../generator/pipeline/render-bodies.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(() => removeBuildDirs());

describe("a body's HTML", () => {
  const record = { body: 'Some *text*.', file: 'intelligence/a.md' };
  const html = '<p>Some <em>text</em>.</p>\n';

  it('is let go once its envelope and its page have it, and made again to the same bytes when asked later', () => {
    const rendered = new Map([[record.body, html]]);
    const render = vi.fn(() => html);
    const renderer = bodyRenderer(undefined, rendered, render);
    expect(renderer(record)).toBe(html);
    expect(rendered.has(record.body)).toBe(true);
    expect(renderer(record)).toBe(html);
    expect(rendered.has(record.body)).toBe(false);
    expect(render).not.toHaveBeenCalled();
    // A feed prints the newest articles after their pages: rendered again.
    expect(renderer(record)).toBe(html);
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('stays kept across builds when the caller keeps a cache (npm run dev)', () => {
    const cache = createBuildCache();
    const render = vi.fn(() => html);
    const renderer = bodyRenderer(cache, undefined, render);
    for (let use = 0; use < 4; use++) expect(renderer(record)).toBe(html);
    expect(render).toHaveBeenCalledTimes(1);
  });
});

describe("a large build's heap", () => {
  const machine = { limitMb: 4144, machineMb: 24_000, flags: '' };

  it("keeps V8's own limit while the content fits it, and on a machine with no more to give", () => {
    expect(heapLimitFor(4_000, machine)).toBeUndefined();
    expect(heapLimitFor(100_000, machine)).toBeUndefined();
    expect(heapLimitFor(1_000_000, { ...machine, machineMb: 4_000 })).toBeUndefined();
  });

  it("grows with the content up to a share of the machine's memory", () => {
    const at300k = heapLimitFor(300_000, machine);
    expect(at300k).toBeGreaterThan(machine.limitMb);
    expect(heapLimitFor(1_000_000, machine)).toBeGreaterThan(at300k);
    // 60% of the machine: the helper's index and what is outside the heaps take the rest (heap-limit.mjs).
    expect(heapLimitFor(1_000_000, machine)).toBe(Math.floor(machine.machineMb * 0.6));
  });

  it('leaves a limit set by hand alone', () => {
    expect(heapLimitFor(1_000_000, { ...machine, flags: '--max-old-space-size=2048' })).toBeUndefined();
  });

  it("holds a large build's heap closer to what is live, and leaves small builds and a factor set by hand to V8", () => {
    expect(heapGrowthFor(4_000, '')).toBeUndefined();
    expect(heapGrowthFor(20_000, '')).toBeUndefined();
    expect(heapGrowthFor(100_000, '')).toBe(40);
    expect(heapGrowthFor(1_000_000, '')).toBe(40);
    expect(heapGrowthFor(100_000, '--heap-growing-percent=80')).toBeUndefined();
  });

  it("estimates a content folder's files from its folders' sizes, within a factor of two", () => {
    const dir = tempDir('heap-estimate');
    const folder = path.join(dir, 'intelligence');
    writeFileSync(path.join(dir, 'site.yaml'), '');
    mkdirSync(folder);
    for (let n = 0; n < 4000; n++) writeFileSync(path.join(folder, `article-${n + 1}.md`), '');
    const images = path.join(dir, 'images', '2026');
    mkdirSync(images, { recursive: true });
    for (let n = 0; n < 2000; n++) writeFileSync(path.join(images, `${n}.png`), '');
    const listed: string[] = [];
    const estimate = estimateFiles(dir, (folder: string) => {
      listed.push(path.relative(dir, folder));
      return readdirSync(folder, { withFileTypes: true });
    });
    expect(estimate).toBeGreaterThan(3000);
    expect(estimate).toBeLessThan(12000);
    // The articles' folder holds no folder: where link counts say so, it is not listed.
    if (statSync(folder).nlink === 2) expect(listed.sort()).toEqual(['', 'images']);
  });
});
