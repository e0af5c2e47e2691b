/**
 * The records beside the output kept as columns (generator/pipeline/emit/file-columns.ts): read back as they
 * were written, and refused whole when damaged, cut short or of another shape, so the next build trusts
 * nothing of them rather than part.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromColumns, toColumns } from '../../generator/pipeline/emit/file-columns.ts';
import {
  damagedCount,
  damageOf,
  type FileRecord,
  identityOf,
  readPreviousOutput,
  recordOutput,
  witness,
} from '../../generator/pipeline/emit/previous-output.ts';
import { readTrackedOutputs, recordTrackedOutputs } from '../../generator/pipeline/emit/tracked-outputs.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

/** An output folder of three files, with its record written. */
function recordedOutput(): { out: string; records: Map<string, FileRecord> } {
  const out = path.join(tempDir('columns'), 'dist');
  mkdirSync(path.join(out, 'a'), { recursive: true });
  const records = new Map<string, FileRecord>();
  for (const [file, digest] of [
    ['index.html', 'one='],
    ['a/b.json', 'two='],
    ['a/c.json', 'three='],
  ] as const) {
    writeFileSync(path.join(out, file), digest);
    records.set(file, witness(digest, path.join(out, file)));
  }
  recordOutput(out, records);
  return { out, records };
}

/** A record beside the output as JSON gives it back. */
interface Recorded {
  version: unknown;
  identity: unknown;
  files: { text: Record<string, string>; numbers: Record<string, unknown[]> };
}

/** Rewrites the record beside `out` (`suffix`) through `change`. */
function tamper(out: string, suffix: string, change: (record: Recorded) => unknown) {
  const file = `${out}${suffix}`;
  const record = JSON.parse(readFileSync(file, 'utf8')) as Recorded;
  writeFileSync(file, JSON.stringify(change(record) ?? record));
}

describe('the records beside the output, as columns', () => {
  it('are read back as written; a path that holds the separator is left out, never trusted', () => {
    const rows: [string, [string, number]][] = [
      ['a', ['x', 1]],
      ['b\nc', ['y', 2]],
      ['d', ['z\nw', 3]],
      ['e', ['', 4]],
    ];
    const table = fromColumns(JSON.parse(JSON.stringify(toColumns(rows, { v: ([v]) => v }, { n: ([, n]) => n }))), ['v'], ['n']);
    expect(table).toEqual({ paths: ['a', 'e'], text: { v: ['x', ''] }, numbers: { n: [1, 4] } });
    expect(fromColumns(toColumns([], { v: String }), ['v'])).toEqual({ paths: [], text: { v: [] }, numbers: {} });
    const { out, records } = recordedOutput();
    expect(readPreviousOutput(out)?.records).toEqual(records);
    expect(new Map(readPreviousOutput(out)?.digests)).toEqual(new Map([...records].map(([file, [digest]]) => [file, digest])));
  });

  it('are refused whole when a column is short, a number is not one, the version is another or the text is cut', () => {
    const damages: [string, (record: Recorded) => unknown][] = [
      [
        'a short column',
        (record) => {
          record.files.text.digest = 'one=\ntwo=';
        },
      ],
      [
        'a number that is text',
        (record) => {
          record.files.numbers.size![1] = '5';
        },
      ],
      [
        'a missing column',
        (record) => {
          delete record.files.numbers.inode;
        },
      ],
      [
        'another version',
        (record) => {
          record.version = 1;
        },
      ],
      ['the old shape', (record) => ({ identity: record.identity, files: { 'index.html': ['one=', 4, 0, 0] } })],
    ];
    for (const [what, change] of damages) {
      const { out } = recordedOutput();
      tamper(out, '.digests.json', change);
      expect(readPreviousOutput(out), what).toBeUndefined();
    }
    const { out } = recordedOutput();
    writeFileSync(`${out}.digests.json`, readFileSync(`${out}.digests.json`, 'utf8').slice(0, 60));
    expect(readPreviousOutput(out), 'cut short').toBeUndefined();
  });

  it("give the damage check the files changed or removed since, from the record's columns, and no answer for another folder", () => {
    const { out } = recordedOutput();
    const bytes = () => readFileSync(`${out}.digests.json`);
    expect(damageOf(out, bytes())?.damaged).toEqual([]);
    writeFileSync(path.join(out, 'a/b.json'), 'two, changed');
    rmSync(path.join(out, 'a/c.json'));
    expect(damageOf(out, bytes())).toEqual({ record: hash('sha1', bytes(), 'base64'), damaged: ['a/b.json', 'a/c.json'] });
    tamper(out, '.digests.json', (record) => {
      record.identity = 'another:folder';
    });
    expect(damageOf(out, bytes())).toBeUndefined();
  });

  it("count the damaged files by the damage check's answer only when it is for the record in place", () => {
    const { out } = recordedOutput();
    const record = hash('sha1', readFileSync(`${out}.digests.json`), 'base64');
    const answer = (digest: string) => ({ record: digest, damaged: new Set(['one', 'two', 'three']) });
    expect(damagedCount(out, answer(record))).toBe(3);
    // An answer for another record is not taken: each file is statted.
    expect(damagedCount(out, answer('another record'))).toBe(0);
    writeFileSync(path.join(out, 'a/b.json'), 'two, changed');
    expect(damagedCount(out)).toBe(1);
    rmSync(`${out}.digests.json`);
    expect(damagedCount(out, answer(record))).toBeUndefined();
  });

  it('of tracked outputs: read back for the folder they name, refused for another or when damaged', () => {
    const { out } = recordedOutput();
    const outputs = {
      files: new Map<string, [string, string]>([
        ['index.html', ['key1', 'one=']],
        ['a/b.json', ['key2', 'two=']],
      ]),
      groups: new Map([['search index', { key: 'k', files: ['a/b.json'] }]]),
    };
    recordTrackedOutputs(out, outputs, identityOf(out));
    expect(readTrackedOutputs(out)).toEqual(outputs);
    tamper(out, '.inputs.json', (record) => {
      record.files.text.key = 'key1';
    });
    expect(readTrackedOutputs(out), 'a short column').toBeUndefined();
    recordTrackedOutputs(out, outputs, 'another:folder');
    expect(readTrackedOutputs(out), 'another folder').toBeUndefined();
    recordTrackedOutputs(out, outputs, identityOf(out));
    tamper(out, '.inputs.json', (record) => {
      record.version = 1;
    });
    expect(readTrackedOutputs(out), 'another version').toBeUndefined();
  });
});
