/**
 * What a steady build takes from the build before rather than making again from every record
 * (output-tracker.ts `steadyKept`, edit-reach.ts's table, search-inputs.ts): the lists' selections, the list
 * pages' filter groups, the taxonomy counts, the records' positions and the reach's table are the previous
 * build's own, and the search inputs the previous ones with the edited record's key alone made again; while
 * the output is byte for byte a clean build's. The catalogue's groups and order, by position, likewise; and
 * each collection is put in the previous build's order and checked, not sorted again. An edit of a fact (a date) makes them all again.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hash } from 'node:crypto';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { createOutputTracker, type TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';
import { sortRecords } from '../../generator/pipeline/catalogue/order.ts';
import { orderRecords } from '../../generator/pipeline/catalogue/kept-order.ts';
import { type AnyEntry, collections, type MarkdownCollection } from '../../generator/schemas/collections.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

type Row = { file: string; title: string; body: string; date: string };
const entries = (list: Row[]) => list.map((record) => ({ record, shown: ['title'], collection: 'a' }));

/**
 * Builds of `content` as npm run dev does: outputs and values kept in memory, and an emit step (in memory) that
 * keeps the previous build's files it is not given, so a steady build names only what its edit reached.
 */
function devBuildsOf(content: string) {
  const cache = createBuildCache();
  const tracked: { outputs?: TrackedOutputs } = {};
  const root = tempDir('steady-kept-out');
  let files = new Map<string, Buffer>();
  let step = 0;
  const emit: BuildOptions['emit'] = async (given, rest) => {
    const now = new Map<string, Buffer>();
    const digests = new Map<string, string>();
    for await (const file of given) {
      const body = 'body' in file ? file.body : 'carried' in file ? file.make() : readFileSync(file.copyFrom);
      now.set(file.path, Buffer.from(body));
      digests.set(file.path, hash('sha1', now.get(file.path)!, 'base64'));
    }
    const carried = rest();
    for (const [file, bytes] of carried ? files : []) if (carried!.has(file) && !now.has(file)) now.set(file, bytes);
    files = now;
    return { files: files.size, written: digests.size, bytes: 0, digests, identity: `build ${step}` };
  };
  return {
    tracked,
    async build(): Promise<Map<string, Buffer>> {
      const outDir = path.join(root, `dist-${step++}`);
      await buildSite({ contentDir: content, outDir, env: BUILD_ENV, cache, emit, emitKeepsRest: true, scope: 't', tracked });
      return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    },
  };
}

describe('a value kept between steady builds', () => {
  it('is the previous build’s while no fact changed, and made again when one did', () => {
    const a = { file: 'a.md', title: 'A', body: 'one', date: '2026-01-01' };
    const b = { file: 'b.md', title: 'B', body: 'two', date: '2026-01-02' };
    let made = 0;
    const build = (previous: TrackedOutputs | undefined, list: Row[], digests: Map<string, string>) => {
      const tracker = createOutputTracker({ previous, scope: 's', digests, keepInputs: true, records: () => entries(list) });
      const value = tracker.steadyKept('positions', () => {
        made++;
        return { files: list.map((row) => row.file) };
      });
      tracker.file('x', 'x', () => 'x');
      return { value, outputs: tracker.settle(new Map([['x', 'x']]))! };
    };
    const first = build(undefined, [a, b], new Map([...[a, b].map((row) => [row.file, `${row.file} 1`] as const)]));
    const edited = new Map([
      ['a.md', 'a.md 2'],
      ['b.md', 'b.md 1'],
    ]);
    const second = build(first.outputs, [{ ...a, body: 'one, edited' }, b], edited);
    expect(made).toBe(1);
    expect(second.value).toBe(first.value);
    const dated = build(second.outputs, [{ ...a, body: 'one, edited', date: '2025-01-01' }, b], new Map([...edited, ['a.md', 'a.md 3']]));
    expect(made, 'a fact changed').toBe(2);
    expect(dated.value).not.toBe(first.value);
  });
});

describe('a steady build of a site', () => {
  const content = path.join(tempDir('steady-kept'), 'content');
  const ready = writeSyntheticContent(content, { articles: 120, bodyWords: 30 });

  const kept = (outputs: TrackedOutputs | undefined) => new Map([...(outputs?.kept ?? [])].map(([name, { value }]) => [name, value]));
  const edit = (file: string, change: (text: string) => string) => writeFileSync(file, change(readFileSync(file, 'utf8')));

  it('takes the selections, groups, counts, positions, images and the reach’s table from the build before, and writes a clean build', async () => {
    await ready;
    const dev = devBuildsOf(content);
    await dev.build();
    const before = kept(dev.tracked.outputs);
    const table = dev.tracked.outputs!.records!.byFile;
    const names = [...before.keys()].filter((name) =>
      /^(list selections|list page filters|term counts|groups|ranks)\n|^images$/.test(name),
    );
    expect(names, 'the images copied').toContain('images');
    expect(names.filter((name) => name.startsWith('list selections')).length).toBeGreaterThan(1);
    expect(names.some((name) => name.startsWith('list page filters'))).toBe(true);
    expect(names.some((name) => name.startsWith('term counts'))).toBe(true);
    expect(names.filter((name) => name.startsWith('groups')).length, 'the catalogue’s groups').toBeGreaterThan(2);
    const inputs = [...before].find(([name]) => name.startsWith('search inputs'))![1] as { keys: string[]; key: string };

    const file = path.join(content, 'intelligence', 'article-60.md');
    edit(file, (text) => text.replace(/^title: .*$/m, 'title: A steady retitle'));
    const tree = await dev.build();
    expectSameTree(tree, await cleanBuildTree(content), 'a title edit');
    const after = kept(dev.tracked.outputs);
    for (const name of names) expect(after.get(name), name).toBe(before.get(name));
    expect(
      [...after.keys()].some((name) => name.startsWith('ranks\n')),
      'positions found by file',
    ).toBe(true);
    expect(dev.tracked.outputs!.records!.byFile, 'the reach’s table, patched in place').toBe(table);
    const patched = [...after].find(([name]) => name.startsWith('search inputs'))![1] as { keys: string[]; key: string };
    const differ = patched.keys.flatMap((key, at) => (key === inputs.keys[at] ? [] : [at]));
    expect(differ, 'only the edited record’s search inputs').toHaveLength(1);
    expect(patched.keys[differ[0]!]).not.toBe(inputs.keys[differ[0]!]);
    expect(patched.key).not.toBe(inputs.key);

    edit(file, (text) => text.replace(/^date: .*$/m, 'date: 2024-02-03'));
    expectSameTree(await dev.build(), await cleanBuildTree(content), 'a date edit');
    const dated = kept(dev.tracked.outputs);
    for (const name of names) expect(dated.get(name), name).not.toBe(after.get(name));
  }, 120_000);
});

describe('a series of edits of every kind in builds that patch the previous build’s order', () => {
  const content = path.join(tempDir('steady-series'), 'content');
  const ready = writeSyntheticContent(content, { articles: 40, resources: 10, bodyWords: 20 });
  const at = (name: string) => path.join(content, 'intelligence', `${name}.md`);
  const edit = (name: string, change: (text: string) => string) => writeFileSync(at(name), change(readFileSync(at(name), 'utf8')));

  it('writes a clean build after each: a body, a title, a date, tags, a draft, a file removed and one added', async () => {
    await ready;
    // Files older than the load's racy window are kept as they were read: only the edited ones are new objects.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const dev = devBuildsOf(content);
    await dev.build();
    const steps: [string, () => void][] = [
      ['a body', () => edit('article-5', (text) => `${text}\nA sentence more.\n`)],
      ['a title', () => edit('article-7', (text) => text.replace(/^title: .*$/m, 'title: A new title'))],
      ['a date', () => edit('article-9', (text) => text.replace(/^date: .*$/m, 'date: 2019-01-02'))],
      ['the newest date', () => edit('article-9', (text) => text.replace(/^date: .*$/m, 'date: 2026-01-02'))],
      ['tags', () => edit('article-11', (text) => text.replace(/^tags: .*$/m, 'tags: [latency, checkout]'))],
      ['a draft', () => edit('article-13', (text) => text.replace(/^---\n/, '---\ndraft: true\n'))],
      ['a draft published', () => edit('article-13', (text) => text.replace('draft: true\n', ''))],
      ['a file removed', () => rmSync(at('article-15'))],
      [
        'a file added',
        () => writeFileSync(at('article-added'), readFileSync(at('article-3'), 'utf8').replace(/^title: .*$/m, 'title: Added')),
      ],
    ];
    for (const [name, step] of steps) {
      step();
      expectSameTree(await dev.build(), await cleanBuildTree(content), name);
    }
  }, 240_000);
});

describe('the order of a collection patched from the previous build’s', () => {
  const collection = {
    ...collections.intelligence,
    order: 'date',
    fields: { ...collections.intelligence.fields, date: 'date' },
  } as MarkdownCollection;
  const day = (at: number) => `2026-${String(1 + (at % 12)).padStart(2, '0')}-${String(1 + (at % 28)).padStart(2, '0')}`;
  /** A record whose date is read through a counter. */
  const record = (at: number, date: string, reads: { count: number }) =>
    Object.defineProperty({ id: `a-${String(at).padStart(3, '0')}`, file: `intelligence/a-${at}.md` }, 'date', {
      enumerable: true,
      get: () => {
        reads.count++;
        return date;
      },
    }) as unknown as AnyEntry;
  /** 200 records in file order, as the load gives them. */
  const records = (reads: { count: number }) => Array.from({ length: 200 }, (_, at) => record(at, day(at), reads));

  it('puts an edited record where it was after a few comparisons, and moves it when its date moved', () => {
    const reads = { count: 0 };
    const list = records(reads);
    const first = orderRecords(list, collection);
    expect(first.edited, 'sorted whole').toBeUndefined();
    expect(first.sorted).toEqual(sortRecords(list, collection));
    expect(first.kept.newest).toBe('2026-12-28');
    const same = orderRecords(list.slice(), collection, first.kept);
    expect(same.edited).toEqual([]);
    expect(same.sorted).toEqual(first.sorted);

    // The body of record 7 edited: a new object with the same facts.
    reads.count = 0;
    const edited = list.slice();
    edited[7] = record(7, day(7), reads);
    const patched = orderRecords(edited, collection, same.kept);
    expect(reads.count, 'a bisection’s dates, not a sort’s nor a walk’s').toBeLessThan(60);
    expect(patched.edited).toEqual([edited[7]]);
    expect(patched.sorted).toEqual(sortRecords(edited, collection));

    // Its date moved: it moves, and the newest date follows it.
    const dated = edited.slice();
    dated[7] = record(7, '2027-01-01', reads);
    const moved = orderRecords(dated, collection, patched.kept);
    expect(moved.sorted).toEqual(sortRecords(dated, collection));
    expect(moved.sorted[0]).toBe(dated[7]);
    expect(moved.kept.newest).toBe('2027-01-01');
    const back = dated.slice();
    back[7] = record(7, day(7), reads);
    const returned = orderRecords(back, collection, moved.kept);
    expect(returned.sorted).toEqual(sortRecords(back, collection));
    expect(returned.kept.newest, 'the newest date read again once its record moved back').toBe('2026-12-28');
  });

  it('gives a sort’s order and newest date after any changes of any records’ dates, in any number', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 40 })), { maxLength: 8 }),
        (days, changes) => {
          const reads = { count: 0 };
          const list = days.map((at, index) => record(index, day(at), reads));
          const { kept } = orderRecords(list, collection);
          const now = list.slice();
          for (const [index, at] of changes) now[index % now.length] = record(index % now.length, day(at), reads);
          const patched = orderRecords(now, collection, kept);
          expect(patched.sorted).toEqual(sortRecords(now, collection));
          expect(patched.kept.newest).toBe(orderRecords(now, collection).kept.newest);
          expect(new Set(patched.edited)).toEqual(new Set(now.filter((entry, index) => entry !== list[index])));
        },
      ),
    );
  });

  it('sorts whole when a record is added or removed, or another file is at a position', () => {
    const list = records({ count: 0 });
    const { kept } = orderRecords(list, collection);
    const shorter = list.slice(1);
    expect(orderRecords(shorter, collection, kept)).toMatchObject({ edited: undefined, sorted: sortRecords(shorter, collection) });
    const renamed = list.slice();
    renamed[3] = { ...list[3]!, file: 'intelligence/renamed.md' } as AnyEntry;
    expect(orderRecords(renamed, collection, kept)).toMatchObject({ edited: undefined, sorted: sortRecords(renamed, collection) });
  });
});
