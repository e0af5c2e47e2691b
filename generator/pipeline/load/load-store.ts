/**
 * What `npm run build` read of each Markdown file, kept on disk for the next build (`<out>.load/`, safe to
 * delete), so that a file not changed since is not parsed again, and its text is read only if this build
 * needs it (its outputs are made): its digest and parsed front matter, keyed as the nothing-changed check keys files (its device, inode, size and latest change
 * time). A file whose key moved but whose bytes did not (a fresh checkout, as every Netlify deploy starts
 * from, gives every file a new inode and time) is read and hashed, not parsed: `confirm` hands back what was
 * kept when the digest of its bytes is the kept one. A file changed within RACY_MS of being read is only
 * ever confirmed by its bytes: a coarse clock could hide a second edit in the same tick. Only files that
 * loaded without a problem are kept.
 *
 * Kept in 256 parts by a hash of the file's path, each written whole into a file of its own and renamed
 * into place, so a build killed while it saves leaves each part old or new, never half written, and an
 * edit rewrites one part. A part that cannot be read, or of another shape, is ignored. The text is
 * not kept: a steady edit makes few outputs, and reading every file's text from the store (a quarter of a
 * gigabyte at 100,000 articles) cost more than reading the few files whose outputs are made
 * (load-content.ts reads them from the content, checked against the kept digest). The front matter kept is
 * the content's own, drafts included, beside the output and never in it. Parts are tied to the parser that
 * wrote them (parserScope): another version's parts are ignored.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { writeWhole } from '../whole-file.ts';
import { compareText } from '../../shared/compare-text.ts';
import { partOfPath } from '../../shared/path-part.ts';
import { type Columns, columnsOf, digestIs, entryAt, type FileKey, fromDisk, keyIs, onDisk, storedAt } from './load-store-columns.ts';

export type { FileKey } from './load-store-columns.ts';

/** A Markdown file as loaded: its digest (load-content.ts), its parsed front matter, and its text when it was just read. */
export interface StoredFile {
  /** Never kept on disk: present when the file was read by this build (parsed, or confirmed by its bytes). */
  text?: string | undefined;
  digest: string;
  /**
   * The parsed front matter (or YAML document). Not kept on disk beside a value that passed its schema
   * (`checked`): a build that takes that value never reads it, and one that asks (another validation scope, a
   * problem's line) parses it again from the file, whose bytes the digest vouches for (load-file.ts).
   */
  data?: unknown;
  /** The collection schema's value of `data`, once it passed, with the scope of the validation that made it. */
  checked?: Checked | undefined;
}

/** A record's value as its schema gave it (validate-content.ts), and what that depended on. */
export interface Checked {
  scope: string;
  value: unknown;
}

export interface Entry extends Omit<StoredFile, 'text'> {
  /** The file's identity, size and latest change time when it was read; undefined for a file too new to be known by them. */
  key: FileKey | undefined;
}

/** Raise when what is kept changes shape, so no build reads another version's parts. */
const VERSION = 6;
const PARTS = 256;

export interface LoadStore {
  get(file: string, key: FileKey | undefined): StoredFile | undefined;
  /** Whether anything is kept of `file`, under any key. */
  has(file: string): boolean;
  /** What is kept of `file` when `digest` (of its bytes as read now) is the kept one; kept under `key` from now on. */
  confirm(file: string, digest: string, key: FileKey | undefined): StoredFile | undefined;
  set(file: string, key: FileKey | undefined, stored: StoredFile): void;
  /** Keeps the schema's value of a file this build asked for, so the next build need not validate it again. */
  check(file: string, checked: Checked): void;
  /** Files handed back by `get` or `confirm` (not parsed again) and files set (read and parsed). */
  readonly counts: { kept: number; parsed: number };
  /** Writes the parts that changed, keeping only the files this build asked for. */
  save(): void;
}

/** A part in memory: what was kept, the kept rows this build took as they were, and the entries it made. */
interface Part {
  kept: Columns;
  rows: Map<string, number>;
  /** 1 for a kept row this build took as it was. */
  taken: Uint8Array;
  takenCount: number;
  /** Entries this build made or changed: a file parsed, confirmed under a new key, or given its value. */
  made: Map<string, Entry>;
}

function openPart(kept: Columns): Part {
  const rows = new Map<string, number>();
  for (const [row, file] of kept.files.entries()) rows.set(file, row);
  return { kept, rows, taken: new Uint8Array(kept.files.length), takenCount: 0, made: new Map() };
}

/** Takes a kept row as it was; its entry, if this build has made it since, is the one made. */
function take(part: Part, row: number): void {
  if (part.taken[row] === 1) return;
  part.taken[row] = 1;
  part.takenCount++;
}

/** Puts `entry` for `file` in the part, in place of its kept row if it was taken. */
function make(part: Part, file: string, entry: Entry): void {
  const row = part.rows.get(file);
  if (row !== undefined && part.taken[row] === 1) {
    part.taken[row] = 0;
    part.takenCount--;
  }
  part.made.set(file, entry);
}

/** The entry this build asked for of `file`: made by it, or a kept row it took. */
function usedEntry(part: Part, file: string): Entry | undefined {
  const made = part.made.get(file);
  if (made) return made;
  const row = part.rows.get(file);
  return row !== undefined && part.taken[row] === 1 ? entryAt(part.kept, row) : undefined;
}

/** The entries the next build is to find: the rows taken, then the entries made, by file. */
function usedEntries(part: Part): [string, Entry][] {
  const entries: [string, Entry][] = [];
  part.kept.files.forEach((file, row) => {
    if (part.taken[row] === 1) entries.push([file, entryAt(part.kept, row)]);
  });
  for (const made of part.made) entries.push(made);
  return entries.sort(([a], [b]) => compareText(a, b));
}

/**
 * What parsed the kept files: this folder's sources, the one rule it takes from the schemas (which YAML
 * scalars are calendar days), the locked dependencies and Node's version. Parts kept
 * by another are ignored, so a build after an upgrade (a deploy restoring an older cache, say) never takes
 * front matter parsed by the old parser.
 */
function parserScope(): string {
  const here = fileURLToPath(new URL('./', import.meta.url));
  const digest = createHash('sha1').update(process.version);
  const sources = readdirSync(here)
    .filter((file) => file.endsWith('.ts'))
    .sort();
  for (const name of [...sources, '../../schemas/fields.ts']) digest.update(`\0${name}\0`).update(readFileSync(path.join(here, name)));
  try {
    digest.update(readFileSync(fileURLToPath(new URL('../../../package-lock.json', import.meta.url))));
  } catch {
    digest.update('no lock file');
  }
  return digest.digest('base64');
}

/** The store beside `outDir`; `trust: false` (--force) reads nothing kept, but keeps what this build reads. */
export function openLoadStore(outDir: string, { trust = true } = {}): LoadStore {
  const scope = parserScope();
  const dir = `${path.resolve(outDir)}.load`;
  const parts = new Map<number, Part>();
  const partOf = (file: string) => {
    const index = partOfPath(file, PARTS);
    let part = parts.get(index);
    if (!part) {
      part = openPart(trust ? readPart(path.join(dir, partName(index)), scope) : NONE);
      parts.set(index, part);
    }
    return part;
  };
  const counts = { kept: 0, parsed: 0 };
  return {
    counts,
    get(file, key) {
      const part = partOf(file);
      const row = part.rows.get(file);
      if (key === undefined || row === undefined || !keyIs(part.kept, row, key)) return undefined;
      take(part, row);
      counts.kept++;
      return storedAt(part.kept, row);
    },
    has: (file) => partOf(file).rows.has(file),
    confirm(file, digest, key) {
      const part = partOf(file);
      const row = part.rows.get(file);
      if (row === undefined || !digestIs(part.kept, row, digest)) return undefined;
      if (key !== undefined && keyIs(part.kept, row, key)) take(part, row);
      else make(part, file, { ...entryAt(part.kept, row), key });
      counts.kept++;
      return storedAt(part.kept, row);
    },
    set(file, key, stored) {
      const { text: _, ...kept } = stored;
      make(partOf(file), file, { key, ...kept });
      counts.parsed++;
    },
    check(file, checked) {
      const part = partOf(file);
      const entry = usedEntry(part, file);
      if (entry) make(part, file, { ...entry, checked });
    },
    save() {
      mkdirSync(dir, { recursive: true });
      for (const [index, part] of parts) {
        // A part this build took whole is as it was; with --force (no trust) each part it touched is written anew.
        if (part.made.size === 0 && part.takenCount === part.kept.files.length && trust) continue;
        writePart(path.join(dir, partName(index)), usedEntries(part), scope);
      }
    },
  };
}

const NONE = columnsOf([]);
const partName = (index: number) => `${index.toString(16).padStart(2, '0')}.bin`;

function readPart(file: string, scope: string): Columns {
  try {
    const part = deserialize(readFileSync(file)) as { version: unknown; scope: unknown; columns: unknown };
    const columns = part?.version === VERSION && part.scope === scope ? fromDisk(part.columns) : undefined;
    if (columns) return columns;
  } catch {
    // Missing, cut short or of another shape: nothing kept.
  }
  return NONE;
}

function writePart(file: string, entries: readonly [string, Entry][], scope: string): void {
  if (entries.length === 0) {
    rmSync(file, { force: true });
    return;
  }
  writeWhole(file, serialize({ version: VERSION, scope, columns: onDisk(columnsOf(entries)) }));
}
