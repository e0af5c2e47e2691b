/**
 * A cold build lets each Markdown file's text go once the record's envelope and page have its body
 * (load-file.ts markdownRecord, render-bodies.ts): asked again, the body is read again from the file, and
 * only while the file is the one the build loaded.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { bodyOf } from '../../generator/pipeline/load/load-file.ts';
import { bodyRenderer } from '../../generator/pipeline/render-bodies.ts';
import { withField } from '../../generator/pipeline/validate/check-record.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { entriesOf } from '../../generator/schemas/content.ts';
import { collections } from '../../generator/schemas/collections.ts';
import { fixtureDir, removeFixtureDirs } from '../helpers/fixture.ts';

afterAll(removeFixtureDirs);

describe("a Markdown record's text, let go", () => {
  it('is read again from the file when asked, and fails the build if the file changed since it was loaded', async () => {
    const content = fixtureDir('valid');
    const raw = await loadContent(content, { collections });
    const [record, other] = raw.records.intelligence!;
    const file = path.join(content, record!.file);
    const body = record!.body!;
    expect(readFileSync(file, 'utf8').endsWith(body)).toBe(true);
    // Held as a data property: an object with a getter of its own has its properties in a dictionary (0.45 KB).
    expect(Object.getOwnPropertyDescriptor(record, 'body')).toHaveProperty('value', body);
    record!.letTextGo!();
    expect(record!.body).toBeUndefined();
    expect(bodyOf(record!)).toBe(body);
    record!.letTextGo!();
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nMore.\n`);
    expect(() => bodyOf(record!)).toThrow(/changed while the build was reading the content/);
    expect(other!.body).toBeTypeOf('string');
  });

  it("is let go by a cold build's outputs once both that print its body's HTML have it", async () => {
    const content = fixtureDir('valid');
    const published = validateContent(await loadContent(content, { collections }), collections);
    const [entry] = entriesOf(published, 'intelligence');
    const render = bodyRenderer(undefined, undefined, (record) => `<p>${record.body.length}</p>`);
    const html = render(entry!);
    const file = path.join(content, entry!.file);
    writeFileSync(file, `${readFileSync(file, 'utf8')}\nMore.\n`);
    // Held after the envelope's use, let go after the page's: then read again, from a file now changed.
    expect(render(entry!)).toBe(html);
    expect(() => entry!.body).toThrow(/changed while the build was reading the content/);
  });

  it("is read by one getter for every entry, a copy's too, so that entries share their shape", async () => {
    const content = fixtureDir('valid');
    const [entry, other] = entriesOf(validateContent(await loadContent(content, { collections }), collections), 'intelligence');
    // A getter of each entry's own gave each entry a shape of its own, its properties in a dictionary.
    const getter = (record: object) => Object.getOwnPropertyDescriptor(record, 'body')!.get;
    expect(getter(entry!)).toBeTypeOf('function');
    expect(getter(other!)).toBe(getter(entry!));
    const copy = withField(entry!, 'title', 'Another title');
    expect(copy.title).toBe('Another title');
    expect(copy.body).toBe(entry!.body);
    expect(readFileSync(path.join(content, entry!.file), 'utf8').endsWith(copy.body)).toBe(true);
  });
});
