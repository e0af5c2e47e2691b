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
 * edit rewrites one part. A part that cannot be read, or an entry of another shape, is ignored. The text is
 * not kept: a steady edit makes few outputs, and reading every file's text from the store (a quarter of a
 * gigabyte at 100,000 articles) cost more than reading the few files whose outputs are made
 * (load-content.ts reads them from the content, checked against the kept digest). The front matter kept is
 * the content's own, drafts included, beside the output and never in it. Parts are tied to the parser that
 * wrote them (parserScope): another version's parts are ignored.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { partOfPath } from '../../shared/path-part.ts';

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

interface Entry extends Omit<StoredFile, 'text'> {
  /** `dev:ino:size:changedMs` of the file when it was read; '' for a file too new to be known by its key. */
  key: string;
}

/** Raise when what is kept changes shape, so no build reads another version's parts. */
const VERSION = 4;
const PARTS = 256;

export interface LoadStore {
  get(file: string, key: string): StoredFile | undefined;
  /** Whether anything is kept of `file`, under any key. */
  has(file: string): boolean;
  /** What is kept of `file` when `digest` (of its bytes as read now) is the kept one; kept under `key` from now on. */
  confirm(file: string, digest: string, key: string): StoredFile | undefined;
  set(file: string, key: string, stored: StoredFile): void;
  /** Keeps the schema's value of a file this build asked for, so the next build need not validate it again. */
  check(file: string, checked: Checked): void;
  /** Files handed back by `get` or `confirm` (not parsed again) and files set (read and parsed). */
  readonly counts: { kept: number; parsed: number };
  /** Writes the parts that changed, keeping only the files this build asked for. */
  save(): void;
}

const isEntry = (value: unknown): value is Entry => {
  const entry = value as Entry;
  const checked = entry?.checked;
  return (
    typeof entry?.key === 'string' &&
    typeof entry.digest === 'string' &&
    ('data' in entry || checked !== undefined) &&
    (checked === undefined || (typeof checked?.scope === 'string' && 'value' in checked))
  );
};

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
  const parts = new Map<number, { kept: Map<string, Entry>; used: Map<string, Entry>; changed: boolean }>();
  const partOf = (file: string) => {
    const index = partOfPath(file, PARTS);
    let part = parts.get(index);
    if (!part) {
      part = { kept: trust ? readPart(path.join(dir, partName(index)), scope) : new Map(), used: new Map(), changed: !trust };
      parts.set(index, part);
    }
    return part;
  };
  const counts = { kept: 0, parsed: 0 };
  return {
    counts,
    get(file, key) {
      const part = partOf(file);
      const entry = part.kept.get(file);
      if (key === '' || entry?.key !== key) return undefined;
      part.used.set(file, entry);
      counts.kept++;
      return entry;
    },
    has: (file) => partOf(file).kept.has(file),
    confirm(file, digest, key) {
      const part = partOf(file);
      const entry = part.kept.get(file);
      if (entry?.digest !== digest) return undefined;
      part.used.set(file, entry.key === key ? entry : { ...entry, key });
      if (entry.key !== key) part.changed = true;
      counts.kept++;
      return entry;
    },
    set(file, key, stored) {
      const part = partOf(file);
      const { text: _, ...kept } = stored;
      part.used.set(file, { key, ...kept });
      part.changed = true;
      counts.parsed++;
    },
    check(file, checked) {
      const part = partOf(file);
      const entry = part.used.get(file);
      if (!entry) return;
      part.used.set(file, { ...entry, checked });
      part.changed = true;
    },
    save() {
      mkdirSync(dir, { recursive: true });
      for (const [index, part] of parts) {
        if (!part.changed && part.used.size === part.kept.size) continue;
        writePart(path.join(dir, partName(index)), part.used, scope);
      }
    },
  };
}

const partName = (index: number) => `${index.toString(16).padStart(2, '0')}.bin`;

function readPart(file: string, scope: string): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  try {
    const part = deserialize(readFileSync(file)) as { version: unknown; scope: unknown; entries: unknown };
    if (part?.version !== VERSION || part.scope !== scope || !Array.isArray(part.entries)) return entries;
    for (const item of part.entries) {
      if (Array.isArray(item) && typeof item[0] === 'string' && isEntry(item[1])) entries.set(item[0], item[1]);
    }
  } catch {
    // Missing, cut short or of another shape: nothing kept.
  }
  return entries;
}

function writePart(file: string, entries: ReadonlyMap<string, Entry>, scope: string): void {
  if (entries.size === 0) {
    rmSync(file, { force: true });
    return;
  }
  const temporary = `${file}.${process.pid}-${Date.now()}`;
  // Beside a kept value, no front matter (StoredFile `data`): at 100,000 articles it was half of what every
  // edit deserialized, and a million objects held by the build to the end.
  const kept = [...entries].map(([file, entry]) => [file, entry.checked && 'data' in entry ? withoutData(entry) : entry]);
  writeFileSync(temporary, serialize({ version: VERSION, scope, entries: kept }));
  renameSync(temporary, file);
}

const withoutData = ({ data: _, ...entry }: Entry): Entry => entry;
