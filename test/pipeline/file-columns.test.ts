/**
 * The records beside the output kept as columns (generator/pipeline/emit/file-columns.ts) in parts
 * (table-parts.ts): read back as they were written; a damaged part is no part (its rows unknown, and the damage
 * check gives no answer, so the build takes the full path), and a damaged index is no record.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
import { readTrackedOutputs, recordTrackedOutputs, wholeTrackedOutputs } from '../../generator/pipeline/emit/tracked-outputs.ts';
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

/** A part of a record beside the output as JSON gives it back (table-parts.ts). */
interface Part {
  paths: string;
  text: Record<string, string>;
  numbers: Record<string, unknown[]>;
}

/** The part files of the record `<out><suffix>` (`.digests`, `.inputs`), each named by the index. */
const partFiles = (out: string, suffix: string) =>
  readdirSync(`${out}${suffix}`)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(`${out}${suffix}`, name));

/** Rewrites every part of the record `<out><suffix>` through `change`. */
function tamperParts(out: string, suffix: string, change: (part: Part) => unknown) {
  for (const file of partFiles(out, suffix)) {
    const part = JSON.parse(readFileSync(file, 'utf8')) as Part;
    writeFileSync(file, JSON.stringify(change(part) ?? part));
  }
}

/** Rewrites the index beside `out` (`suffix`) through `change`. */
function tamper(out: string, suffix: string, change: (record: Record<string, unknown>) => unknown) {
  const file = `${out}${suffix}`;
  const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify(change(record) ?? record));
}

describe('the records beside the output, as columns in parts', () => {
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
    expect(new Map(readPreviousOutput(out)!.records)).toEqual(records);
    expect(readPreviousOutput(out)!.records!.size).toBe(3);
    expect(new Map(readPreviousOutput(out)?.digests)).toEqual(new Map([...records].map(([file, [digest]]) => [file, digest])));
  });

  it('take a damaged part as no part (its rows unknown, no damage check answer) and refuse a damaged index whole', () => {
    const parts: [string, (part: Part) => unknown][] = [
      [
        'a short column',
        (part) => {
          part.text.digest = '';
        },
      ],
      [
        'a number that is text',
        (part) => {
          part.numbers.size![0] = '5';
        },
      ],
      [
        'a missing column',
        (part) => {
          delete part.numbers.inode;
        },
      ],
      ['other rows of the right shape', (part) => ({ ...part, paths: part.paths.toUpperCase() })],
    ];
    for (const [what, change] of parts) {
      const { out } = recordedOutput();
      tamperParts(out, '.digests', change);
      const previous = readPreviousOutput(out)!;
      expect(previous.records!.get('a/b.json'), what).toBeUndefined();
      // Counted from the index until each part is read, then from the parts that could be.
      expect([...previous.records!.keys()], what).toEqual([]);
      expect(previous.records!.size, what).toBe(0);
      expect(damageOf(out, readFileSync(`${out}.digests.json`)), what).toBeUndefined();
    }
    const indexes: [string, (record: Record<string, unknown>) => unknown][] = [
      [
        'another version',
        (record) => {
          record.version = 1;
        },
      ],
      [
        'a part missing from the index',
        (record) => {
          (record.parts as unknown[]).pop();
        },
      ],
      ['the old shape', (record) => ({ identity: record.identity, files: { 'index.html': ['one=', 4, 0, 0] } })],
    ];
    for (const [what, change] of indexes) {
      const { out } = recordedOutput();
      tamper(out, '.digests.json', change);
      expect(readPreviousOutput(out), what).toBeUndefined();
    }
    const { out } = recordedOutput();
    writeFileSync(`${out}.digests.json`, readFileSync(`${out}.digests.json`, 'utf8').slice(0, 60));
    expect(readPreviousOutput(out), 'cut short').toBeUndefined();
  });

  it("give the damage check the files changed or removed since, from the parts' columns, and no answer for another folder", () => {
    const { out } = recordedOutput();
    const bytes = () => readFileSync(`${out}.digests.json`);
    expect(damageOf(out, bytes())?.damaged).toEqual([]);
    writeFileSync(path.join(out, 'a/b.json'), 'two, changed');
    rmSync(path.join(out, 'a/c.json'));
    expect(damageOf(out, bytes())?.record).toBe(hash('sha1', bytes(), 'base64'));
    expect(damageOf(out, bytes())?.damaged.sort()).toEqual(['a/b.json', 'a/c.json']);
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

  it('of tracked outputs: read back for the folder they name, refused for another, whole only while every part is', () => {
    const { out } = recordedOutput();
    const outputs = {
      files: new Map<string, [string, string]>([
        ['index.html', ['key1', 'one=']],
        ['a/b.json', ['key2', 'two=']],
      ]),
      groups: new Map([['search index', { key: 'k', files: ['a/b.json'] }]]),
    };
    recordTrackedOutputs(out, outputs, identityOf(out), 'stamp');
    const read = readTrackedOutputs(out)!;
    expect(new Map(read.files)).toEqual(outputs.files);
    expect(read.groups).toEqual(outputs.groups);
    expect(read.onDisk).toEqual({ record: hash('sha1', readFileSync(`${out}.inputs.json`), 'base64'), output: 'stamp' });
    expect(wholeTrackedOutputs(out)).toBe(read.onDisk!.record);
    tamperParts(out, '.inputs', (part) => {
      part.text.key = 'key1';
    });
    expect(readTrackedOutputs(out)!.files.get('a/b.json'), 'a short column').toBeUndefined();
    expect(wholeTrackedOutputs(out), 'a part of other bytes').toBeUndefined();
    recordTrackedOutputs(out, outputs, 'another:folder', 'stamp');
    expect(readTrackedOutputs(out), 'another folder').toBeUndefined();
    recordTrackedOutputs(out, outputs, identityOf(out), 'stamp');
    tamper(out, '.inputs.json', (record) => {
      record.version = 1;
    });
    expect(readTrackedOutputs(out), 'another version').toBeUndefined();
  });
});
