/**
 * A load with a build cache kept from the load before (npm run dev) reads only the files whose identity
 * moved, and gives the records a load from nothing gives, in the same order.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { loadContent, type RawContent } from '../../generator/pipeline/load/load-content.ts';
import { DEFAULT_LIMITS } from '../../generator/pipeline/load/content-limits.ts';
import { listEntries, scanContent } from '../../generator/pipeline/load/scan-content.ts';
import { createContentListing } from '../../generator/server/dev/dev-content-listing.ts';
import { collections } from '../../generator/schemas/collections.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

/** Longer than the time within which a changed file is read again whatever its identity (load-content.ts). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));

/** What a load gives, without the functions that find a field's line. */
const shapeOf = (raw: RawContent) => ({
  records: Object.fromEntries(
    Object.entries(raw.records).map(([key, records]) => [key, records.map(({ file, data, slug, body }) => ({ file, data, slug, body }))]),
  ),
  problems: raw.problems,
  digests: Object.fromEntries([...raw.digests].sort()),
  images: [...raw.images].sort(),
});

describe('a load kept with the build cache', () => {
  it('reads only the edited, added and renamed files, and gives what a load from nothing gives', async () => {
    const content = fixtureDir('valid');
    const article = (name: string) => path.join(content, 'intelligence', name);
    const cache = createBuildCache();
    await settle();
    const load = () => loadContent(content, { collections, limits: DEFAULT_LIMITS, cache });
    const first = await load();
    // Every file, and the optional synonyms.yaml the fixture has not.
    expect(first.read).toBe(first.digests.size + 1);
    const again = await load();
    expect(again.read).toBe(0);
    expect(again.records.intelligence![0]).toBe(first.records.intelligence![0]);
    // Limits of the same values, as each build resolves them from the settings anew.
    expect((await loadContent(content, { collections, limits: { ...DEFAULT_LIMITS }, cache })).read).toBe(0);

    writeFileSync(
      article('rag-evaluation.md'),
      readFileSync(article('rag-evaluation.md'), 'utf8').replace(/^title: .*$/m, 'title: Edited'),
    );
    const edited = await load();
    expect(edited.read).toBe(1);
    expect(shapeOf(edited)).toEqual(shapeOf(await loadContent(content, { collections })));

    await settle();
    renameSync(article('rag-evaluation.md'), article('zz-renamed.md'));
    rmSync(article('agent-payments-draft.md'));
    writeFileSync(article('aa-added.md'), readFileSync(article('zz-renamed.md'), 'utf8').replace(/^title: .*$/m, 'title: Added'));
    const moved = await load();
    // The renamed file keeps its inode but not its change time: it is read again, as the added one is.
    expect(moved.read).toBe(2);
    expect(shapeOf(moved)).toEqual(shapeOf(await loadContent(content, { collections })));
    expect(moved.records.intelligence!.map((record) => record.slug)).toEqual(['aa-added', 'mcp-server-for-catalogue-search', 'zz-renamed']);
  }, 30_000);

  it('reports a file that stopped parsing, and takes it again once it parses', async () => {
    const content = fixtureDir('valid');
    const file = path.join(content, 'services', 'seo-audit.md');
    const text = readFileSync(file, 'utf8');
    const cache = createBuildCache();
    await settle();
    const load = () => loadContent(content, { collections, limits: DEFAULT_LIMITS, cache });
    await load();
    writeFileSync(file, text.replace(/^title: .*$/m, 'title: [unclosed'));
    const broken = await load();
    expect(broken.problems.map((problem) => problem.file)).toEqual(['services/seo-audit.md']);
    expect(broken.records.services!.map((record) => record.slug)).toEqual(['mcp-server-development']);
    writeFileSync(file, text);
    const mended = await load();
    expect(mended.problems).toEqual([]);
    expect(shapeOf(mended)).toEqual(shapeOf(await loadContent(content, { collections })));
  }, 30_000);

  it('given the listing with the changed files reported (npm run dev), looks at those files only and gives what a load from nothing gives', async () => {
    const content = fixtureDir('valid');
    const file = (name: string) => path.join(content, name);
    const retitle = (name: string, title: string) =>
      writeFileSync(file(name), readFileSync(file(name), 'utf8').replace(/^title: .*$/m, `title: ${title}`));
    const cache = createBuildCache();
    const listing = createContentListing();
    await settle();
    const load = async (reported: string[] | 'all') => {
      listing.report(reported);
      const raw = await loadContent(content, { collections, limits: DEFAULT_LIMITS, cache, list: (root) => listing.list(root) });
      expect(shapeOf(raw)).toEqual(shapeOf(await loadContent(content, { collections })));
      return raw;
    };
    await load('all');
    retitle('intelligence/rag-evaluation.md', 'Edited');
    expect((await load(['intelligence/rag-evaluation.md'])).read).toBe(1);
    // Read again while it is within the racy window, as the one edited now.
    retitle('services/seo-audit.md', 'Edited too');
    expect((await load(['services/seo-audit.md'])).read).toBe(2);
    writeFileSync(
      file('intelligence/topics.yaml'),
      readFileSync(file('intelligence/topics.yaml'), 'utf8').replace('Agentic Commerce', 'Agentic Trade'),
    );
    await load(['intelligence/topics.yaml']);
    writeFileSync(file('services/seo-audit.md'), 'not front matter: [');
    expect((await load(['services/seo-audit.md'])).problems.map((problem) => problem.file)).toEqual([]);
    writeFileSync(file('services/seo-audit.md'), '---\ntitle: [unclosed\n---\n');
    expect((await load(['services/seo-audit.md'])).problems.map((problem) => problem.file)).toEqual(['services/seo-audit.md']);
    rmSync(file('services/seo-audit.md'));
    await load(['services/seo-audit.md']);
    renameSync(file('intelligence/mcp-server-for-catalogue-search.md'), file('intelligence/zz.md'));
    await load(['intelligence/mcp-server-for-catalogue-search.md', 'intelligence/zz.md']);
  }, 30_000);

  it('takes a scan up to date from the one before when the listing is its own with entries replaced', async () => {
    const content = fixtureDir('valid');
    const before = await scanContent(content, DEFAULT_LIMITS, listEntries(content));
    const name = 'intelligence/rag-evaluation.md';
    writeFileSync(path.join(content, name), 'edited');
    const fresh = listEntries(content);
    const entries = before.entries.map((entry) => (entry.path === name ? fresh.find((now) => now.path === name)! : entry));
    const scan = await scanContent(content, DEFAULT_LIMITS, entries, before);
    expect(scan.changed).toEqual(new Set([name]));
    const whole = await scanContent(content, DEFAULT_LIMITS, fresh);
    expect([[...scan.readable].sort(), scan.identities.get(name)]).toEqual([[...whole.readable].sort(), whole.identities.get(name)]);
    expect((await scanContent(content, DEFAULT_LIMITS, fresh, scan)).changed).toBeUndefined();
  });
});
