/**
 * Related objects kept across builds (generator/pipeline/outputs/records/kept-relations.ts): after any series of
 * edits to the fields relations read (titles, dates, topics, categories, technologies, drafts, added, removed
 * and renamed files), every record's kept related object is the one made afresh from the same catalogue, and
 * an edit that no relation reads relates nothing again.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { collections } from '../../generator/schemas/collections.ts';
import { apiCollections } from '../../generator/schemas/collection-types.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { createCatalogue } from '../../generator/pipeline/catalogue/catalogue.ts';
import { selectPublished } from '../../generator/pipeline/catalogue/publish.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import type { OutputTracker, TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';
import { trackerOf } from '../../generator/pipeline/build-tracking.ts';
import { keptRelated } from '../../generator/pipeline/outputs/records/kept-relations.ts';
import { createRelated } from '../../generator/pipeline/outputs/records/relations.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(() => removeBuildDirs());

const SIZES = { articles: 40, services: 8, expertise: 6, technology: 6, resources: 2, bodyWords: 12 };
const TOPICS = ['agentic-commerce', 'ai-search', 'conversion-optimization', 'measurement'];
const CATEGORIES = ['neural-intelligence', 'neural-core', 'paid-media'];

type Edit =
  | {
      kind: 'title' | 'date' | 'topics' | 'category' | 'technologies' | 'draft' | 'rename' | 'delete' | 'body';
      index: number;
      pick: number;
    }
  | { kind: 'add'; pick: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      'title' as const,
      'date' as const,
      'topics' as const,
      'category' as const,
      'technologies' as const,
      'draft' as const,
      'rename' as const,
      'delete' as const,
      'body' as const,
    ),
    index: fc.nat(),
    pick: fc.nat(),
  }),
  fc.record({ kind: fc.constant('add' as const), pick: fc.nat() }),
);

let added = 0;

/** Applies an edit to one record of the folder the edit's kind fits (articles, services, technologies). */
function apply(content: string, change: Edit): unknown {
  const folder =
    change.kind === 'technologies'
      ? 'services'
      : change.kind === 'title' && change.pick % 3 === 1
        ? 'technology'
        : change.kind === 'category' && change.pick % 2
          ? 'services'
          : 'intelligence';
  const files = readdirSync(path.join(content, folder))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join(content, folder, name));
  const file = files[('index' in change ? change.index : 0) % files.length]!;
  const rewrite = (from: RegExp, to: string) => writeFileSync(file, readFileSync(file, 'utf8').replace(from, to));
  const day = `2026-0${1 + (change.pick % 9)}-${String(1 + (change.pick % 28)).padStart(2, '0')}`;
  switch (change.kind) {
    case 'title':
      return rewrite(/^(title|name): .*$/m, `$1: "Edited ${change.pick}"`);
    case 'date':
      return rewrite(/^date: .*$/m, `date: ${day}`);
    case 'topics':
      return rewrite(/^topics: .*$/m, `topics: [${TOPICS[change.pick % 4]}, ${TOPICS[(change.pick + 1 + ((change.pick >> 2) % 3)) % 4]}]`);
    case 'category':
      return rewrite(/^category: .*$/m, `category: ${CATEGORIES[change.pick % 3]}`);
    case 'technologies':
      return rewrite(/^technologies: .*$/m, `technologies: [technology-${1 + (change.pick % 6)}]`);
    case 'draft':
      // A draft toggled: the record leaves the catalogue, or comes back.
      return /^draft: true$/m.test(readFileSync(file, 'utf8')) ? rewrite(/^draft: true\n/m, '') : rewrite(/^---\n/, '---\ndraft: true\n');
    case 'body':
      return writeFileSync(file, `${readFileSync(file, 'utf8')}\nMore text ${change.pick}.\n`);
    case 'rename':
      return renameSync(file, path.join(path.dirname(file), `renamed-${++added}.md`));
    case 'delete':
      if (files.length > 3) rmSync(file);
      return;
    case 'add':
      return writeFileSync(
        path.join(content, 'intelligence', `added-${++added}.md`),
        `---\ntitle: "Added ${change.pick}"\nsummary: "Added."\ndate: ${day}\nauthor: Someone\ntopics: [${TOPICS[change.pick % 4]}]\ncategory: ${CATEGORIES[change.pick % 3]}\n---\nAdded.\n`,
      );
  }
}

/** Builds catalogues as npm run dev does, keeping what each tracker keeps; returns each build's related objects, kept and fresh. */
function createBuilds(content: string) {
  const cache = createBuildCache();
  let previous: TrackedOutputs | undefined;
  return async () => {
    const raw = await loadContent(content, { collections, cache });
    const published = selectPublished(validateContent(raw, collections), collections, '2026-11-18');
    // As npm run dev keeps them: values and inputs in memory, and the edit's reach found from the catalogue.
    let tracker: OutputTracker | undefined;
    const tracking = { scope: 'test', digests: raw.digests, previous, inMemory: true };
    const catalogue = createCatalogue(published, collections, {
      siteUrl: 'https://api.example.test',
      builtAt: '2026-11-18T00:00:00Z',
      render: () => '',
      cache,
      track: trackerOf(tracking, 'https://api.example.test', collections, (made) => {
        tracker = made;
      }),
    });
    const kept: Record<string, string> = {};
    const fresh: Record<string, string> = {};
    let made = 0;
    // The related objects the build before kept, as they were (a steady build brings its state up to date in place).
    const before = new Set<unknown>();
    for (const { value } of (previous?.kept?.values() ?? []) as Iterable<{ value: any }>)
      for (const list of value?.related?.values() ?? []) for (const { related } of list.values()) before.add(related);
    for (const [key, collection] of apiCollections(collections)) {
      if (!collection.api.relations) continue;
      for (const record of catalogue.records[key]!) {
        const { related } = keptRelated(record, key, catalogue);
        if (!before.has(related)) made++;
        kept[`${key}/${record.id}`] = JSON.stringify(related);
        fresh[`${key}/${record.id}`] = JSON.stringify(createRelated(record, key, catalogue));
      }
    }
    cache.endBuild();
    previous = tracker!.settle(new Map());
    return { kept, fresh, made };
  };
}

describe('related objects kept across builds', () => {
  it('are the ones made afresh after any series of edits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(edit, { minLength: 1, maxLength: 8 }), async (edits) => {
        const content = path.join(tempDir('kept-relations'), 'content');
        await writeSyntheticContent(content, SIZES);
        const build = createBuilds(content);
        await build();
        for (const change of edits) {
          apply(content, change);
          const { kept, fresh } = await build();
          expect(kept, JSON.stringify(change)).toEqual(fresh);
        }
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 12) },
    );
  }, 180_000);

  it('relates again only the records an edit may change', async () => {
    const content = path.join(tempDir('kept-relations'), 'content');
    await writeSyntheticContent(content, SIZES);
    const build = createBuilds(content);
    const first = await build();
    expect(first.made).toBe(Object.keys(first.kept).length);
    expect((await build()).made).toBe(0);
    // A body edit changes no relation: only the edited record is related again (its own file changed).
    apply(content, { kind: 'body', index: 5, pick: 1 });
    expect((await build()).made).toBe(1);
    // The oldest article's title is read by no other record's short lists: it alone is related again.
    const oldest = readdirSync(path.join(content, 'intelligence')).sort().indexOf('article-40.md');
    apply(content, { kind: 'title', index: oldest, pick: 0 });
    expect((await build()).made).toBe(1);
    // The newest article's title is in the short lists of those sharing its topic or category: they are related again.
    apply(content, { kind: 'title', index: 0, pick: 0 });
    const newest = await build();
    expect(newest.made).toBeGreaterThan(1);
    expect(newest.made).toBeLessThan(Object.keys(newest.kept).length);
    expect(newest.kept).toEqual(newest.fresh);
  });
});
