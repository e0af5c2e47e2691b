/**
 * `npm run dev`'s practice edit (dev-warm-up.ts): one record's title changed in memory, its digest too, and
 * nothing of the loaded content changed in place; and the net change of the two warm-up builds.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { collections } from '../../generator/schemas/collections.ts';
import { netChanges, practiceEdit } from '../../generator/server/dev/dev-warm-up.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

const bytes = (text: string) => new TextEncoder().encode(text);

describe("npm run dev's practice edit", () => {
  /** The one record the practice changed in a copy of `raw` (which it leaves as it was), with its date and title fields. */
  const practised = async (newestUpTo?: number) => {
    const raw = await loadContent(fixtureDir('valid'), { collections });
    const before = JSON.stringify(raw.records);
    const digests = new Map(raw.digests);
    const practice = practiceEdit(raw, collections, newestUpTo);
    expect(JSON.stringify(raw.records)).toBe(before);
    expect(raw.digests).toEqual(digests);
    const changed = Object.entries(practice.records).flatMap(([key, records]) =>
      records.flatMap((record, i) => (record === raw.records[key]![i] ? [] : [{ key, record, was: raw.records[key]![i]! }])),
    );
    expect(changed).toHaveLength(1);
    const [{ key, record, was }] = changed as [(typeof changed)[number]];
    const { title: field, date } = ((collections as Record<string, unknown>)[key] as { fields: { title: string; date?: string } }).fields;
    expect(date).toBeDefined();
    const time = (record: { data: unknown }) => new Date((record.data as Record<string, string>)[date!]!).getTime();
    const title = (record.data as Record<string, unknown>)[field];
    expect(title).not.toBe((was.data as Record<string, unknown>)[field]);
    expect(raw.records[key]!.some((other) => (other.data as Record<string, unknown>)[field] === title)).toBe(true);
    expect({ ...(record.data as object), [field]: null }).toEqual({ ...(was.data as object), [field]: null });
    expect(practice.digests.get(record.file)).not.toBe(raw.digests.get(record.file));
    expect([...practice.digests].filter(([file, digest]) => raw.digests.get(file) !== digest)).toHaveLength(1);
    return { time: time(was), times: raw.records[key]!.map(time) };
  };

  it("changes the newest record's title to another's of its collection, and its digest, in a copy", async () => {
    // A recent record's title is on the lists of many others: its practice takes every path such an edit takes.
    const { time, times } = await practised();
    expect(time).toBe(Math.max(...times));
    expect(Math.min(...times)).toBeLessThan(time);
  });

  it('practises on the oldest record of a collection larger than the limit, whose title no short list shows', async () => {
    const { time, times } = await practised(1);
    expect(time).toBe(Math.min(...times));
    expect(Math.max(...times)).toBeGreaterThan(time);
  });

  it('nets the two builds: what differs from the build before them, with the last bytes given', () => {
    const before = new Map([
      ['same.json', 'a'],
      ['edited.json', 'b'],
      ['gone.json', 'c'],
      ['back.json', 'd'],
    ]);
    const after = new Map([
      ['same.json', 'a'],
      ['edited.json', 'b2'],
      ['new.json', 'e'],
      ['back.json', 'd'],
    ]);
    const net = netChanges(before, after, [
      {
        changed: [
          { path: 'same.json', bytes: bytes('practice') },
          { path: 'back.json', bytes: bytes('practice') },
        ],
        removed: ['gone.json'],
      },
      {
        changed: [
          { path: 'same.json', bytes: bytes('a') },
          { path: 'edited.json', bytes: bytes('b2') },
          { path: 'new.json', bytes: bytes('e') },
        ],
        removed: [],
      },
    ]);
    expect(net.changed.map(({ path, bytes }) => [path, new TextDecoder().decode(bytes)])).toEqual([
      ['edited.json', 'b2'],
      ['new.json', 'e'],
    ]);
    expect(net.removed).toEqual(['gone.json']);
  });
});
