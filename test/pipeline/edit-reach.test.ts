/**
 * The edit's reach (generator/pipeline/edit-reach.ts): a build is steady only when the scope is the same, the
 * same records are published and every changed record kept its facts (everything but its body and its shown
 * fields); then an output that names no touched record keeps its previous key and its inputs are never made,
 * and an output that names one is keyed from its inputs. A shown field's edit touches the records that print
 * it, when they can be said. Anything else keys every output from its inputs.
 */
import { describe, expect, it } from 'vitest';
import { findReach, type KnownRecords, type RecordFacts } from '../../generator/pipeline/edit-reach.ts';
import { createOutputTracker, type TrackedOutputs } from '../../generator/pipeline/output-tracker.ts';

type Record = { file: string; title: string; body: string; date?: string };
const records = (...list: Record[]) => list;
/** The titles are shown fields: an edit of one reaches the records `readers` names. */
const entries = (list: Record[]) => list.map((record) => ({ record, shown: ['title'] }));
const a = { file: 'a.md', title: 'A', body: 'one' };
const b = { file: 'b.md', title: 'B', body: 'two' };
const c = { file: 'c.md', title: 'C', body: 'three' };
type Readers = (files: ReadonlySet<string>) => ReadonlySet<string> | undefined;

/** The table a first build of `list` records, and the reach of a second build of `now` with these digests. */
function reachAfter(list: Record[], now: Record[], digests: Map<string, string>, scoped = 'scope', readers?: Readers) {
  const first = findReach(
    undefined,
    'scope',
    () => entries(list),
    (file) => `${file} v1`,
  );
  expect(first.steady(), 'a build with no record before').toBe(false);
  return findReach(
    first.record(),
    scoped,
    () => entries(now),
    (file) => digests.get(file) ?? '',
    readers,
  );
}

const v1 = new Map([
  ['a.md', 'a.md v1'],
  ['b.md', 'b.md v1'],
  ['c.md', 'c.md v1'],
]);
const aEdited = new Map([...v1, ['a.md', 'a.md v2']]);

describe('the reach of an edit', () => {
  it('is steady after a body edit: only the edited record is touched', () => {
    const reach = reachAfter(records(a, b), records({ ...a, body: 'one, edited' }, b), aEdited);
    expect(reach.steady()).toBe(true);
    expect(reach.touched('a.md')).toBe(true);
    expect(reach.touched('b.md')).toBe(false);
    expect(reach.record().byFile.get('a.md')![0]).toBe('a.md v2');
  });

  it('is steady after a title edit whose readers are known: the record and its readers are touched', () => {
    const readers: Readers = (files) => (files.has('a.md') ? new Set(['b.md']) : new Set<string>());
    const reach = reachAfter(records(a, b, c), records({ ...a, title: 'A, revised' }, b, c), aEdited, 'scope', readers);
    expect(reach.steady()).toBe(true);
    expect(['a.md', 'b.md', 'c.md'].map((file) => reach.touched(file))).toEqual([true, true, false]);
    const unknown = reachAfter(records(a, b), records({ ...a, title: 'A, revised' }, b), aEdited, 'scope', () => undefined);
    expect(unknown.steady(), 'readers that cannot be said').toBe(false);
  });

  it('is not steady after an edit of a fact, an added or removed record, another scope, or a record with no digest', () => {
    expect(reachAfter(records(a, b), records({ ...a, title: 'A, revised' }, b), aEdited).steady(), 'title, no readers').toBe(false);
    expect(reachAfter(records(a, b), records({ ...a, date: '2026-01-01' }, b), aEdited).steady(), 'a fact').toBe(false);
    expect(reachAfter(records(a), records(a, b), v1).steady(), 'added').toBe(false);
    expect(reachAfter(records(a, b), records(a), v1).steady(), 'removed').toBe(false);
    expect(reachAfter(records(a, b), records(a, b), v1, 'another scope').steady(), 'scope').toBe(false);
    expect(reachAfter(records(a, b), records(a, b), new Map([['a.md', 'a.md v1']])).steady(), 'no digest').toBe(false);
    const unsteady = reachAfter(records(a, b), records({ ...a, date: '2026-01-01' }, b), aEdited);
    expect(unsteady.touched('b.md'), 'every record is touched when not steady').toBe(true);
  });

  it('lets a steady build carry untouched outputs without making their inputs, and key touched ones from theirs', () => {
    const build = (previous: TrackedOutputs | undefined, list: Record[], digests: Map<string, string>) => {
      const tracker = createOutputTracker({ previous, scope: 's', digests, records: () => entries(list) });
      const asked: string[] = [];
      const files = list.map((record) =>
        tracker.file(
          `${record.file}.html`,
          () => {
            asked.push(record.file);
            return `${digests.get(record.file)} ${record.title}`;
          },
          () => `${record.title}: ${record.body}`,
          !tracker.touched(record.file),
        ),
      );
      const emitted = new Map(files.map((file) => [file.path, 'carried' in file ? file.carried : `made ${file.path}`]));
      return { asked, files, outputs: tracker.settle(emitted)! };
    };
    const first = build(undefined, records(a, b), v1);
    expect(first.asked).toEqual(['a.md', 'b.md']);
    const second = build(first.outputs, records({ ...a, body: 'one, edited' }, b), aEdited);
    expect(second.asked, 'only the touched record').toEqual(['a.md']);
    expect(second.files.map((file) => 'carried' in file)).toEqual([false, true]);
    expect(second.outputs.files.get('b.md.html')).toEqual(first.outputs.files.get('b.md.html'));
    const dated = build(
      second.outputs,
      records({ ...a, body: 'one, edited' }, { ...b, date: '2026-01-01' }),
      new Map([...aEdited, ['b.md', 'b.md v2']]),
    );
    expect(dated.asked, 'not steady: every output keyed from its inputs').toEqual(['a.md', 'b.md']);
    expect(dated.files.map((file) => 'carried' in file)).toEqual([true, false]);
  });

  it('compares only the records the build says changed, when it knows them, and finds a title’s readers by file', () => {
    const first = findReach(
      undefined,
      'scope',
      () => entries(records(a, b, c)),
      (file) => `${file} v1`,
    );
    const retitled = { ...a, title: 'A, revised' };
    const now = records(retitled, b, c);
    let walked = 0;
    const walk = function* () {
      for (const entry of entries(now)) {
        walked++;
        yield entry;
      }
    };
    const asked: string[][] = [];
    const index: KnownRecords = {
      edited: () => ({ entries: entries([retitled]), count: 3 }),
      of: (files) => {
        asked.push([...files]);
        return entries(now.filter((record) => files.has(record.file)));
      },
    };
    const readers: Readers = (files) => (files.has('a.md') ? new Set(['c.md']) : new Set<string>());
    const reach = findReach(first.record(), 'scope', walk, (file) => aEdited.get(file) ?? '', readers, index);
    expect(reach.steady()).toBe(true);
    expect(reach.touchedRecords()!.map((entry) => entry.record.file)).toEqual(['a.md', 'c.md']);
    expect(asked).toEqual([['c.md']]);
    expect(reach.record().byFile.get('a.md')![0]).toBe('a.md v2');
    expect(reach.record().byFile.size).toBe(3);
    expect(walked, 'no walk of every record').toBe(0);
    const fewer = findReach(reach.record(), 'scope', walk, (file) => aEdited.get(file) ?? '', readers, {
      ...index,
      edited: () => ({ entries: [], count: 2 }),
    });
    expect(fewer.steady(), 'a count unlike the table’s').toBe(false);
  });

  it('records a table the next build reads back', () => {
    const table: RecordFacts = findReach(
      undefined,
      'scope',
      () => entries(records(a, b)),
      (file) => `${file} v1`,
    ).record();
    expect([...table.byFile.keys()]).toEqual(['a.md', 'b.md']);
    expect(table.byFile.get('a.md')![1]).not.toBe(table.byFile.get('b.md')![1]);
  });
});
