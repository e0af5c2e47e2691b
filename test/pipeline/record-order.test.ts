/**
 * A collection's contract order (catalogue/order.ts): the newest-first order is taken day by day, and must
 * give the very array a stable sort by the contract's comparison gives, ties and all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordOrder, sortRecords } from '../../generator/pipeline/catalogue/order.ts';
import type { AnyEntry } from '../../generator/schemas/collections.ts';
import { byDate, byOrder, byUpdated } from '../helpers/order-kinds.ts';

/** A record of `fields`, with a serial number to tell apart two records that compare equal. */
const entry = (serial: number, fields: Record<string, unknown>) => ({ serial, file: `a/${serial}.md`, ...fields }) as unknown as AnyEntry;

describe('a collection’s contract order', () => {
  it('is a stable sort by the contract’s comparison, for every kind of order, with days and ids shared', () => {
    const day = fc.integer({ min: 0, max: 30 }).map((at) => `2026-01-${String(1 + at).padStart(2, '0')}`);
    const row = fc.record({
      id: fc.constantFrom('a', 'b', 'c', 'ab', 'b-1', 'Z'),
      date: day,
      updated: day,
      order: fc.integer({ min: 0, max: 3 }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 80 }), (rows) => {
        const records = rows.map((fields, serial) => entry(serial, { ...fields, title: fields.id }));
        for (const collection of [byDate, byUpdated, byOrder]) {
          expect(sortRecords(records, collection)).toEqual([...records].sort(recordOrder(collection)));
        }
      }),
    );
  });

  it('reads each record’s day once, where a sort read it at each of its comparisons', () => {
    let reads = 0;
    const records = Array.from({ length: 2000 }, (_, at) =>
      Object.defineProperty(entry(at, { id: `a-${String(at).padStart(4, '0')}` }), 'date', {
        enumerable: true,
        get: () => {
          reads++;
          return `2026-${String(1 + (at % 12)).padStart(2, '0')}-${String(1 + (at % 28)).padStart(2, '0')}`;
        },
      }),
    );
    const sorted = sortRecords(records, byDate);
    expect(reads).toBe(records.length);
    expect(sorted.map((record) => record.id)).toEqual([...records].sort(recordOrder(byDate)).map((record) => record.id));
  });
});
