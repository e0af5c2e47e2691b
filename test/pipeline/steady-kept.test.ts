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
import { afterAll, describe, expect, it } from 'vitest';
import { hash } from 'node:crypto';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { createBuildCache } from '../../generator/pipeline/build-cache.ts';
import { createOutputTracker, type TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';
import { sortRecords } from '../../generator/pipeline/catalogue/order.ts';
import { type AnyEntry, collections, type MarkdownCollection } from '../../generator/schemas/collections.ts';
import { BUILD_ENV, readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';

afterAll(removeBuildDirs);

type Row = { file: string; title: string; body: string; date: string };
const entries = (list: Row[]) => list.map((record) => ({ record, shown: ['title'], collection: 'a' }));

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

  /**
   * Builds as npm run dev does: outputs and values kept in memory, and an emit step (in memory) that keeps the
   * previous build's files it is not given, so a steady build names only what its edit reached.
   */
  function devBuilds() {
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

  async function cleanTree(): Promise<Map<string, Buffer>> {
    const out = path.join(tempDir('steady-kept-clean'), 'dist');
    await buildSite({ contentDir: content, outDir: out, env: BUILD_ENV });
    const tree = readTree(out);
    rmSync(path.dirname(out), { recursive: true, force: true });
    return tree;
  }

  function expectSameTree(left: Map<string, Buffer>, right: Map<string, Buffer>, after: string): void {
    expect([...left.keys()], after).toEqual([...right.keys()]);
    const differ = [...left].filter(([file, bytes]) => !bytes.equals(right.get(file)!)).map(([file]) => file);
    expect(differ, after).toEqual([]);
  }

  const kept = (outputs: TrackedOutputs | undefined) => new Map([...(outputs?.kept ?? [])].map(([name, { value }]) => [name, value]));
  const edit = (file: string, change: (text: string) => string) => writeFileSync(file, change(readFileSync(file, 'utf8')));

  it('takes the selections, groups, counts, positions and the reach’s table from the build before, and writes a clean build', async () => {
    await ready;
    const dev = devBuilds();
    await dev.build();
    const before = kept(dev.tracked.outputs);
    const table = dev.tracked.outputs!.records!.byFile;
    const names = [...before.keys()].filter((name) => /^(list selections|list page filters|term counts|groups|ranks)\n/.test(name));
    expect(names.filter((name) => name.startsWith('list selections')).length).toBeGreaterThan(1);
    expect(names.some((name) => name.startsWith('list page filters'))).toBe(true);
    expect(names.some((name) => name.startsWith('term counts'))).toBe(true);
    expect(names.filter((name) => name.startsWith('groups')).length, 'the catalogue’s groups').toBeGreaterThan(2);
    const inputs = [...before].find(([name]) => name.startsWith('search inputs'))![1] as { keys: string[]; key: string };

    const file = path.join(content, 'intelligence', 'article-60.md');
    edit(file, (text) => text.replace(/^title: .*$/m, 'title: A steady retitle'));
    const tree = await dev.build();
    expectSameTree(tree, await cleanTree(), 'a title edit');
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
    expectSameTree(await dev.build(), await cleanTree(), 'a date edit');
    const dated = kept(dev.tracked.outputs);
    for (const name of names) expect(dated.get(name), name).not.toBe(after.get(name));
  }, 120_000);
});

describe('the order of a collection sorted from an earlier build’s', () => {
  const collection = {
    ...collections.intelligence,
    order: 'date',
    fields: { ...collections.intelligence.fields, date: 'date' },
  } as MarkdownCollection;
  /** 200 records whose dates are read through a counter. */
  function records(reads: { count: number }) {
    return Array.from({ length: 200 }, (_, at) => {
      const date = `2026-${String(1 + (at % 12)).padStart(2, '0')}-${String(1 + (at % 28)).padStart(2, '0')}`;
      return Object.defineProperty({ id: `a-${at}`, file: `intelligence/a-${at}.md` }, 'date', {
        enumerable: true,
        get: () => {
          reads.count++;
          return date;
        },
      }) as unknown as AnyEntry;
    });
  }

  it('takes the hinted order after one comparison a record when it is in order, and sorts whatever the hint', () => {
    const reads = { count: 0 };
    const list = records(reads);
    const sorted = sortRecords(list, collection);
    const sortReads = reads.count;
    const hint = new Map(sorted.map((record, at) => [record.file, at]));
    reads.count = 0;
    expect(sortRecords([...list].reverse(), collection, hint)).toEqual(sorted);
    expect(reads.count, 'two dates read a record, not a sort’s').toBeLessThanOrEqual(2 * list.length);
    expect(sortReads).toBeGreaterThan(4 * list.length);
    const shuffled = new Map(sorted.map((record, at) => [record.file, (at * 7) % sorted.length]));
    expect(sortRecords(list, collection, shuffled), 'a hint out of order').toEqual(sorted);
    expect(sortRecords(list, collection, new Map([...hint].slice(1))), 'a hint short of a record').toEqual(sorted);
  });
});
