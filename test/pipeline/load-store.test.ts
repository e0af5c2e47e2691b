/**
 * What `npm run build` read of each Markdown file, kept beside the output (load/load-store.ts): a file not
 * changed since is not read again, a changed one is, one changed within the clock's tick is read whatever
 * its witness says, and a kept part that is damaged is ignored. Each test plants front matter in the store
 * that no file holds: the loaded title shows whether it was taken from the store or from the file. The text
 * is never kept: a kept file's body is read from the file when asked for, and only if its bytes are still
 * those the store's digest names.
 */
import { hash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { bodyOf } from '../../generator/pipeline/load/load-file.ts';
import { type FileKey, openLoadStore } from '../../generator/pipeline/load/load-store.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { removeBuildDirs, tempDir } from '../helpers/build-output.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(() => {
  removeBuildDirs();
  removeFixtureDirs();
});

const FILE = 'intelligence/rag-evaluation.md';
const PLANTED = 'A title no file holds';

/** The key the store keeps a file by, as the scan sees it. */
function keyOf(content: string, file: string): FileKey {
  const stats = statSync(path.join(content, file));
  return { dev: stats.dev, ino: stats.ino, size: stats.size, changedMs: Math.max(stats.mtimeMs, stats.ctimeMs) };
}

async function titleOf(content: string, out: string, trust = true): Promise<string | undefined> {
  const store = openLoadStore(out, { trust });
  const raw = await loadContent(content, { store });
  store.save();
  return (raw.records.intelligence!.find((record) => record.file === FILE)?.data as { title?: string } | undefined)?.title;
}

/** Replaces the kept front matter of FILE by one whose title is PLANTED, under `key`. */
function plant(content: string, out: string, key: FileKey, digest?: string): void {
  const store = openLoadStore(out);
  const stored = store.get(FILE, keyOf(content, FILE)) ?? { digest: 'planted', data: {} };
  store.set(FILE, key, { ...stored, digest: digest ?? stored.digest, data: { ...(stored.data as object), title: PLANTED } });
  store.save();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let content: string;
beforeAll(async () => {
  content = fixtureDir('valid');
  // Files written this close to now are never kept: let the fixture age past the clock's tick.
  await sleep(2100);
});

describe('the load store', () => {
  it('serves an unchanged file without reading it, and reads a changed one', async () => {
    const out = path.join(tempDir('load-store'), 'dist');
    const real = await titleOf(content, out);
    expect(real).not.toContain(PLANTED);
    expect(readdirSync(`${out}.load`).length).toBeGreaterThan(0);
    plant(content, out, keyOf(content, FILE));
    expect(await titleOf(content, out), 'taken from the store').toBe(PLANTED);
    expect(await titleOf(content, out, false), '--force reads every file').toBe(real);
    plant(content, out, keyOf(content, FILE));
    writeFileSync(path.join(content, FILE), `${readFileSync(path.join(content, FILE), 'utf8')}\nOne more line.\n`);
    expect(await titleOf(content, out), 'a changed file is parsed').toBe(real);
  });

  it('reads a file changed within the last two seconds even when its witness matches', async () => {
    const out = path.join(tempDir('load-store-racy'), 'dist');
    const file = path.join(content, FILE);
    writeFileSync(file, readFileSync(file, 'utf8'));
    await titleOf(content, out);
    plant(content, out, keyOf(content, FILE));
    expect(await titleOf(content, out)).not.toContain(PLANTED);
  });

  it('confirms a file by its bytes after a fresh checkout (new inodes, new times), and parses a changed one', async () => {
    const out = path.join(tempDir('load-store-checkout'), 'dist');
    await titleOf(content, out);
    // The kept front matter says what no file says: a build that confirms the file by its bytes shows it.
    const store = openLoadStore(out);
    const digest = hash('sha1', `${FILE}\n${readFileSync(path.join(content, FILE), 'utf8')}`, 'base64');
    const kept = store.confirm(FILE, digest, keyOf(content, FILE))!;
    store.set(FILE, keyOf(content, FILE), { ...kept, data: { ...(kept.data as object), title: 'Planted title' } });
    store.save();
    const checkoutTitle = async (dir: string) => {
      const raw = await loadContent(dir, { store: openLoadStore(out) });
      return (raw.records.intelligence!.find((record) => record.file === FILE)!.data as { title: string }).title;
    };
    const checkout = path.join(tempDir('load-store-checkout'), 'content');
    cpSync(content, checkout, { recursive: true });
    expect(statSync(path.join(checkout, FILE)).ino).not.toBe(statSync(path.join(content, FILE)).ino);
    expect(await checkoutTitle(checkout), 'confirmed by its bytes, not parsed').toBe('Planted title');
    writeFileSync(path.join(checkout, FILE), readFileSync(path.join(checkout, FILE), 'utf8').replace(/^title: .*$/m, 'title: "Edited"'));
    expect(await checkoutTitle(checkout), 'other bytes are parsed').toBe('Edited');
  });

  it('ignores parts another version of the parser kept (a cache restored across an upgrade)', async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-scope'), 'dist');
    const real = await titleOf(content, out);
    plant(content, out, keyOf(content, FILE));
    expect(await titleOf(content, out)).toBe(PLANTED);
    plant(content, out, keyOf(content, FILE));
    for (const part of readdirSync(`${out}.load`)) {
      const file = path.join(`${out}.load`, part);
      writeFileSync(file, serialize({ ...(deserialize(readFileSync(file)) as object), scope: 'another parser' }));
    }
    expect(await titleOf(content, out)).toBe(real);
  });

  it('ignores a part whose columns do not agree (a cell past its column, a column of another length)', async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-columns'), 'dist');
    const real = await titleOf(content, out);
    const damages: ((columns: Record<string, unknown>) => void)[] = [
      (columns) => (columns.keys = new Float64Array(0)),
      (columns) => (columns.digestEnds = new Uint32Array(0)),
      (columns) => (columns.digests = (columns.digests as string).slice(1)),
      (columns) => (columns.scopeOf = new Int32Array((columns.scopeOf as Int32Array).length).fill(7)),
    ];
    for (const damage of damages) {
      plant(content, out, keyOf(content, FILE));
      expect(await titleOf(content, out), 'planted, before the damage').toBe(PLANTED);
      plant(content, out, keyOf(content, FILE));
      for (const part of readdirSync(`${out}.load`)) {
        const file = path.join(`${out}.load`, part);
        const kept = deserialize(readFileSync(file)) as { columns: Record<string, unknown> };
        damage(kept.columns);
        writeFileSync(file, serialize(kept));
      }
      expect(await titleOf(content, out)).toBe(real);
    }
  });

  it('ignores a damaged part and keeps the files again', async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-damaged'), 'dist');
    const real = await titleOf(content, out);
    plant(content, out, keyOf(content, FILE));
    for (const part of readdirSync(`${out}.load`)) {
      const bytes = readFileSync(path.join(`${out}.load`, part));
      writeFileSync(path.join(`${out}.load`, part), bytes.subarray(0, bytes.length >> 1));
    }
    expect(await titleOf(content, out)).toBe(real);
    plant(content, out, keyOf(content, FILE));
    expect(await titleOf(content, out), 'kept again after the damage').toBe(PLANTED);
  });

  it("reads a kept file's body from the file when asked, and fails the build when its bytes are not the kept ones", async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-body'), 'dist');
    await titleOf(content, out);
    const stored = readdirSync(`${out}.load`).map((part) => readFileSync(path.join(`${out}.load`, part), 'utf8'));
    expect(stored.join('').includes('Measure recall@k'), 'no text in the store').toBe(false);
    const keptBody = async () => {
      const raw = await loadContent(content, { store: openLoadStore(out) });
      const record = raw.records.intelligence!.find((one) => one.file === FILE)!;
      // No text held: the body is read from the file when asked (load-file.ts bodyOf).
      expect(record.body).toBeUndefined();
      return () => bodyOf(record);
    };
    expect((await keptBody())()).toContain('Measure recall@k');
    plant(content, out, keyOf(content, FILE), 'another digest');
    const body = await keptBody();
    expect(body).toThrow(`${FILE}: changed while the build was reading the content`);
  });

  it('keeps a YAML file parsed, and still finds the line of a field in it when a problem asks', async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-yaml'), 'dist');
    const load = async () => {
      const store = openLoadStore(out);
      const raw = await loadContent(content, { store });
      store.save();
      return raw.records.categories!;
    };
    const first = await load();
    const store = openLoadStore(out);
    const key = keyOf(content, 'categories.yaml');
    const kept = store.get('categories.yaml', key)!;
    expect(kept.data, 'the parsed list is kept').toEqual(first.map((record) => record.data));
    const planted = (kept.data as { name: string }[]).map((item) => ({ ...item, name: 'Planted' }));
    store.set('categories.yaml', key, { ...kept, data: planted });
    store.save();
    const again = await load();
    expect(
      again.map((record) => (record.data as { name: string }).name),
      'taken from the store, not parsed',
    ).toEqual(first.map(() => 'Planted'));
    expect(again[1]!.locate(['description']), 'the line, from the file read when asked').toBe(first[1]!.locate(['description']));
    expect(again[1]!.locate(['description'])).toBe(8);
  });

  it("keeps each file's validated value, used by the next build under the same validation scope only", async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-checked'), 'dist');
    const validated = async () => {
      const store = openLoadStore(out);
      const content_ = validateContent(await loadContent(content, { store }));
      store.save();
      return content_.intelligence.find((record) => record.file === FILE)!;
    };
    const first = await validated();
    const store = openLoadStore(out);
    const kept = store.get(FILE, keyOf(content, FILE))!;
    expect(kept.checked, 'the schema value is kept after validation').toBeDefined();
    expect('data' in kept, 'beside it, no front matter: parsed from the file when asked').toBe(false);
    // A value no schema would give, under the kept scope: a build that takes it shows it.
    store.set(FILE, keyOf(content, FILE), {
      ...kept,
      checked: { ...kept.checked!, value: { ...(kept.checked!.value as object), title: 'Kept title' } },
    });
    store.save();
    expect((await validated()).title, 'taken from the store, not validated again').toBe('Kept title');
    const again = openLoadStore(out);
    const planted = again.get(FILE, keyOf(content, FILE))!;
    again.set(FILE, keyOf(content, FILE), { ...planted, checked: { scope: 'another schema', value: planted.checked!.value } });
    again.save();
    expect(await validated(), 'validated again under another scope').toEqual(first);
  });

  it('keeps validated values as JSON where each one comes back the same from it, else as they are; a damaged JSON column is no part', async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-json'), 'dist');
    const store = openLoadStore(out);
    validateContent(await loadContent(content, { store }));
    store.save();
    const partOf = () =>
      readdirSync(`${out}.load`)
        .map((name) => path.join(`${out}.load`, name))
        .find((file) => (deserialize(readFileSync(file)) as { columns: { files: string[] } }).columns.files.includes(FILE))!;
    const columnsOf = () => (deserialize(readFileSync(partOf())) as { columns: { values: unknown } }).columns;
    expect(typeof columnsOf().values, 'plain values: JSON text').toBe('string');
    const kept = openLoadStore(out).get(FILE, keyOf(content, FILE))!;
    // A Date, a negative zero and a property set to undefined would not come back from JSON.
    const odd = { ...(kept.checked!.value as object), when: new Date(0), minus: -0, nothing: undefined };
    const planting = openLoadStore(out);
    planting.set(FILE, keyOf(content, FILE), { ...kept, checked: { ...kept.checked!, value: odd } });
    planting.save();
    expect(Array.isArray(columnsOf().values), 'a value JSON would change: the column as it is').toBe(true);
    const back = openLoadStore(out).get(FILE, keyOf(content, FILE))!.checked!.value as typeof odd;
    expect(back.when).toBeInstanceOf(Date);
    expect(Object.is(back.minus, -0)).toBe(true);
    expect('nothing' in back).toBe(true);
    // Back to plain values, then their JSON damaged: cut short, or an array of another length.
    const plain = openLoadStore(out);
    plain.set(FILE, keyOf(content, FILE), kept);
    plain.save();
    for (const damage of [(text: string) => text.slice(0, -1), (text: string) => JSON.stringify([...JSON.parse(text), null])]) {
      const file = partOf();
      const part = deserialize(readFileSync(file)) as { columns: { values: string } };
      const whole = part.columns.values;
      part.columns.values = damage(whole);
      writeFileSync(file, serialize(part));
      expect(openLoadStore(out).get(FILE, keyOf(content, FILE)), 'a damaged part keeps nothing').toBeUndefined();
      part.columns.values = whole;
      writeFileSync(file, serialize(part));
      expect(openLoadStore(out).get(FILE, keyOf(content, FILE))?.checked?.value).toEqual(kept.checked!.value);
    }
  });

  it("gives every kept record the same functions, which read the record's own file", async () => {
    await sleep(2100);
    const out = path.join(tempDir('load-store-shared'), 'dist');
    const load = async () => {
      const store = openLoadStore(out);
      const raw = await loadContent(content, { store });
      validateContent(raw);
      store.save();
      return raw.records.intelligence!;
    };
    await load();
    const [a, b] = await load();
    // A closure of each record's own for each of these was about 0.64 KB a record (load-file.ts markdownRecord).
    for (const name of ['readBody', 'locate', 'letTextGo', 'readData', 'keepChecked'] as const) {
      expect(a![name], name).toBeTypeOf('function');
      expect(a![name], name).toBe(b![name]);
    }
    const text = (record: typeof a) => readFileSync(path.join(content, record!.file), 'utf8');
    expect(text(a).endsWith(bodyOf(a!)!), 'its own body').toBe(true);
    expect(text(b).endsWith(bodyOf(b!)!), 'its own body').toBe(true);
    expect(a!.locate(['title'])).toBe(2);
  });
});
