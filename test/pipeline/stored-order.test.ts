/**
 * A collection's order stored beside the output for the next `npm run build` (catalogue/stored-order.ts): taken
 * with the gone records dropped and the changed and new ones put in place, and never trusted: an order that is
 * wrong (a file edited by hand, a change not told) gives a sort's order all the same.
 */
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { pathHash } from '../../generator/shared/path-part.ts';
import { orderRecords } from '../../generator/pipeline/catalogue/kept-order.ts';
import { newestOf } from '../../generator/pipeline/catalogue/newest-day.ts';
import { sortedPositions, sortRecords } from '../../generator/pipeline/catalogue/order.ts';
import { isStoredOrder, orderFromStored, type StoredOrder, storedOrderOf } from '../../generator/pipeline/catalogue/stored-order.ts';
import type { AnyEntry, MarkdownCollection } from '../../generator/schemas/collections.ts';
import { readTree, removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { buildAsCommand } from '../helpers/command-build.ts';
import { cleanBuildTree, expectSameTree } from '../helpers/same-tree.ts';
import { writeSyntheticContent } from '../helpers/synthetic-content.ts';
import { byDate, byOrder, byUpdated } from '../helpers/order-kinds.ts';

afterAll(removeBuildDirs);

const kinds = [byDate, byUpdated, byOrder];

const day = (at: number) => `2026-01-${String(1 + at).padStart(2, '0')}`;
const row = fc.record({
  date: fc.integer({ min: 0, max: 20 }),
  updated: fc.integer({ min: 0, max: 20 }),
  order: fc.integer({ min: 0, max: 3 }),
});
type Row = { date: number; updated: number; order: number };
/** The record of file `name` (its id, as the load gives it), with `fields`. */
const entry = (name: string, { date, updated, order }: Row) =>
  ({ id: name, file: `a/${name}.md`, title: `T ${order}`, date: day(date), updated: day(updated), order }) as unknown as AnyEntry;

/** What a build stores of `given`. */
const storedOf = (given: AnyEntry[], collection: MarkdownCollection) => storedOrderOf(given, sortedPositions(given, collection));

describe('an order stored for the next build', () => {
  it('gives a sort’s order and newest day after any edits, additions and removals, told or not', () => {
    const change = fc.record({ index: fc.nat(), row, remove: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(row, { minLength: 1, maxLength: 60 }),
        fc.array(change, { maxLength: 6 }),
        fc.array(row, { maxLength: 4 }),
        fc.boolean(),
        (rows, changes, added, told) => {
          const before = rows.map((fields, at) => entry(`r${String(at).padStart(2, '0')}`, fields));
          for (const collection of kinds) {
            const stored = storedOf(before, collection);
            const now: (AnyEntry | undefined)[] = before.slice();
            const changed = new Set<string>();
            for (const { index, row: fields, remove } of changes) {
              const at = index % now.length;
              const was = before[at]!;
              changed.add(was.file);
              now[at] = remove ? undefined : entry(was.id, fields);
            }
            const fresh = added.map((fields, at) => entry(`s${at}`, fields));
            for (const record of fresh) changed.add(record.file);
            const given = [...now.filter((record) => record !== undefined), ...fresh];
            const ordered = orderRecords(given, collection, undefined, { order: stored, changed: told ? changed : undefined });
            expect(ordered.sorted).toEqual(sortRecords(given, collection));
            expect(ordered.kept.newest).toBe(newestOf(given, collection));
            // Told what changed, the stored order holds: the collection is not sorted again.
            if (!told) continue;
            const found = orderFromStored(given, collection, stored, changed);
            expect(found?.sorted).toEqual(ordered.sorted);
          }
        },
      ),
    );
  });

  it('is never trusted when it is wrong: any order, positions repeated or out of range, other files or more', () => {
    const positions = fc.array(fc.integer({ min: -2, max: 70 }), { maxLength: 70 });
    fc.assert(
      fc.property(fc.array(row, { minLength: 2, maxLength: 60 }), positions, fc.boolean(), fc.boolean(), (rows, order, renamed, more) => {
        const given = rows.map((fields, at) => entry(`r${String(at).padStart(2, '0')}`, fields));
        const names = given.map((record, at) => (renamed && at === 0 ? 'a/other.md' : record.file));
        // With a file more than now, the positions are found by the files' hashes.
        const files = Int32Array.from(more ? [...names, 'a/gone.md'] : names, (file) => pathHash(file));
        const stored: StoredOrder = { files, order: Int32Array.from(order.length === files.length ? order : files.map((_, at) => at)) };
        for (const collection of kinds) {
          for (const changed of [undefined, new Set<string>(), new Set([given[1]!.file])]) {
            const ordered = orderRecords(given, collection, undefined, { order: stored, changed });
            expect(ordered.sorted).toEqual(sortRecords(given, collection));
            expect(ordered.kept.newest).toBe(newestOf(given, collection));
          }
        }
      }),
    );
  });

  it('is checked reading each record’s date once, and each record’s file only where a file changed', () => {
    const reads = { date: 0, file: 0 };
    const counted = (record: AnyEntry, field: 'date' | 'file', value: string) =>
      Object.defineProperty(record, field, {
        enumerable: true,
        get: () => {
          reads[field]++;
          return value;
        },
      });
    const given = Array.from({ length: 500 }, (_, at) => {
      const record = entry(`r${String(at).padStart(3, '0')}`, { date: at % 20, updated: 0, order: 0 });
      return counted(counted(record, 'date', day(at % 20)), 'file', record.file);
    });
    const stored = storedOf(given, byDate);
    // A file of this collection changed, and one of another collection (the content's witnesses name every file).
    for (const changed of [new Set([given[7]!.file]), new Set([given[7]!.file, 'b/other.md'])]) {
      Object.assign(reads, { date: 0, file: 0 });
      const found = orderFromStored(given, byDate, stored, changed);
      expect(reads.date, 'one read a record, and a bisection’s').toBeLessThan(given.length + 30);
      expect(reads.file, 'bisections').toBeLessThan(30);
      expect(found?.sorted).toEqual(sortRecords(given, byDate));
    }
  });

  it('is read back only in its own shape', () => {
    expect(isStoredOrder({ files: Int32Array.of(7), order: Int32Array.of(0) })).toBe(true);
    expect(isStoredOrder({ files: Int32Array.of(7), order: [0] })).toBe(false);
    expect(isStoredOrder({ files: ['a.md'], order: Int32Array.of(0) })).toBe(false);
    expect(isStoredOrder({ files: Int32Array.of(7), order: Int32Array.of(0, 0) })).toBe(false);
    expect(isStoredOrder(undefined)).toBe(false);
  });
});

describe('a build after one that stored its orders', () => {
  const content = path.join(tempDir('stored-order'), 'content');
  const out = path.join(tempDir('stored-order-out'), 'dist');
  const ready = writeSyntheticContent(content, { articles: 80, bodyWords: 20 });
  const article = (n: number) => path.join(content, 'intelligence', `article-${n}.md`);
  const append = (file: string, text: string) => writeFileSync(file, `${readFileSync(file, 'utf8')}\n${text}\n`);

  it('sorts again, and writes a clean build, when the stored order was changed by hand (its digest and all)', async () => {
    await ready;
    await buildAsCommand(content, out);
    const file = `${out}.kept.bin`;
    const values = deserialize(readFileSync(file)) as Map<string, { value: unknown }>;
    const stored = values.get('stored order\nintelligence')?.value;
    expect(isStoredOrder(stored)).toBe(true);
    const { files, order } = stored as StoredOrder;
    expect(files.length, 'every published article').toBeGreaterThan(70);
    // Newest last: every position in place, every pair the wrong way round.
    values.get('stored order\nintelligence')!.value = { files, order: order.slice().reverse() };
    const bytes = serialize(values);
    writeFileSync(file, bytes);
    const inputs = JSON.parse(readFileSync(`${out}.inputs.json`, 'utf8'));
    writeFileSync(`${out}.inputs.json`, JSON.stringify({ ...inputs, kept: hash('sha1', bytes, 'base64') }));
    append(article(5), 'A sentence more.');
    await buildAsCommand(content, out);
    expectSameTree(readTree(out), await cleanBuildTree(content), 'an order reversed by hand');
    writeFileSync(article(9), readFileSync(article(9), 'utf8').replace(/^date: .*$/m, 'date: 2019-01-02'));
    await buildAsCommand(content, out);
    expectSameTree(readTree(out), await cleanBuildTree(content), 'a date edit after it');
  }, 120_000);
});
