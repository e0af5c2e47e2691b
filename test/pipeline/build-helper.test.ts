/** The build's helper thread (build-helper.ts), run for real: what it renders and indexes equals this thread's work. */
import { createSynonymTable } from '../../generator/search/synonyms.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  type BuildHelper,
  renderAsRead,
  renderWithHelper,
  SLICE_CHARACTERS,
  slicesOf,
  startBuildHelper,
} from '../../generator/pipeline/helper/build-helper.ts';
import { writeIndexKeeping } from '../../generator/pipeline/outputs/search/stored-search.ts';
import { renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { toSearchText } from '../../generator/pipeline/outputs/search-documents.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';
import type { OutputFile } from '../../generator/pipeline/outputs/output-file.ts';
import { scratchDir } from '../helpers/scratch.ts';

const helper = startBuildHelper();
afterAll(() => helper.close());

const TOO_DEEP = `${'>'.repeat(60_000)} x`;

/** `count` documents whose Markdown bodies of about `characters` each hold links, tags and shared words. */
const markdownDocuments = (count: number, characters: number): SearchDocument[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `intelligence:doc-${String(count - i).padStart(4, '0')}`,
    title: `Title ${i} checkout`,
    tags: i % 3 ? 'alpha beta' : 'gamma',
    terms: 'Retail',
    summary: `Summary ${i}`,
    body: `See [the guide](https://example.test/${i}) on <em>search</em> relevance ${i}. `.repeat(Math.ceil(characters / 80)),
    stored: [`doc-${i}`, `Title ${i}`, `Summary ${i}`, `https://example.test/doc-${i}/`],
  }));

/** The bytes of each file, by path. */
const bytesOf = (files: readonly OutputFile[]) =>
  new Map(files.map((file) => [file.path, Buffer.from((file as { body: string | Uint8Array }).body).toString('base64')]));

describe('the build helper thread', () => {
  it('renders the bodies it takes as this thread would, and leaves out one that cannot be rendered', async () => {
    const bodies = Array.from(
      { length: 40 },
      (_, i) => `## Part ${i}\n\nSome *text* with a [link](https://example.test/${i}) and <b>html</b>.`,
    );
    // The bad body first: the helper takes the first share of the bodies.
    const mine: string[] = [];
    const html = await renderWithHelper(helper, [TOO_DEEP, ...bodies, bodies[0]!], (body) => {
      mine.push(body);
      return renderMarkdown(body);
    });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine).not.toContain(TOO_DEEP);
    expect(html.has(TOO_DEEP)).toBe(false);
    expect(html.size).toBe(bodies.length);
    for (const body of bodies) expect(html.get(body), body).toBe(renderMarkdown(body));
  });

  it('renders its share in slices, each answered on its own, every body as this thread would and in its place', async () => {
    const bodies = Array.from(
      { length: 24 },
      (_, i) => `## Part ${i}\n\n${`Some *text* ${i} with a [link](https://example.test/${i}). `.repeat(SLICE_CHARACTERS / 240)}`,
    );
    // The bad body falls in a later slice than the first: its slice's other bodies are still rendered there.
    bodies.splice(9, 0, TOO_DEEP);
    expect([...slicesOf(bodies.map((body) => ({ body })))].length).toBeGreaterThan(3);
    const mine: string[] = [];
    const html = await renderWithHelper(helper, bodies, (body) => {
      mine.push(body);
      return renderMarkdown(body);
    });
    expect(mine).not.toContain(TOO_DEEP);
    expect(html.has(TOO_DEEP)).toBe(false);
    expect(html.size).toBe(bodies.length - 1);
    for (const body of bodies.filter((body) => body !== TOO_DEEP))
      expect(html.get(body) === renderMarkdown(body), body.slice(0, 12)).toBe(true);
  });

  it("renders a cold build's bodies as the load reads them: every distinct one in the helper, a slice sent once it is full", async () => {
    const bodies = Array.from(
      { length: 12 },
      (_, i) => `## Part ${i}\n\n${`Some *text* ${i} with a [link](https://example.test/${i}). `.repeat(SLICE_CHARACTERS / 240)}`,
    );
    const sent: string[][] = [];
    const counting: BuildHelper = {
      ...helper,
      render: (slice) => {
        sent.push(slice);
        return helper.render(slice);
      },
    };
    const reading = renderAsRead(counting);
    for (const [index, body] of bodies.entries()) {
      reading.read({ body });
      reading.read({ body: index === 3 ? TOO_DEEP : bodies[0] });
      reading.read({});
    }
    // Slices went to the helper while the records were still being read, each body once.
    const beforeFinish = sent.length;
    expect(beforeFinish).toBeGreaterThanOrEqual(2);
    const html = await reading.finish()(() => {
      throw new Error('this thread renders none of the bodies');
    });
    expect(sent.flat().sort()).toEqual([...bodies, TOO_DEEP].sort());
    expect(html.has(TOO_DEEP)).toBe(false);
    expect(html.size).toBe(bodies.length);
    for (const body of bodies) expect(html.get(body) === renderMarkdown(body), body.slice(0, 12)).toBe(true);
  });

  it('writes the same index parts as this thread from documents whose bodies are Markdown', async () => {
    const documents: SearchDocument[] = Array.from({ length: 30 }, (_, i) => ({
      id: `intelligence:doc-${i}`,
      title: `Title ${i} checkout`,
      tags: 'alpha beta',
      terms: 'Retail',
      summary: `Summary ${i}`,
      body: `See [the guide](https://example.test/${i}) on <em>search</em> relevance ${i}.`,
      stored: [`doc-${i}`, `Title ${i}`, `Summary ${i}`, `https://example.test/doc-${i}/`],
    }));
    // With a synonym phrase the bodies hold, so the phrase terms are written on both sides.
    const synonyms = createSynonymTable({ groups: [{ words: ['search relevance', 'findability'] }] });
    const expected = writeSearchIndex(
      documents.map((document) => ({ ...document, body: toSearchText(document.body) })),
      undefined,
      synonyms,
    );
    const files = await helper.searchIndex(documents, 10, synonyms);
    // The documents given let their bodies go once posted (the copies posted hold them): the caller keeps the
    // documents to the index's end, and their bodies held every file's text until then.
    expect(documents.map((document) => document.body)).toEqual(documents.map(() => ''));
    expect(expected.some((file) => file.path.endsWith('synonyms.json'))).toBe(true);
    expect(files.map((file) => file.path)).toEqual(expected.map((file) => file.path));
    for (const [index, file] of files.entries())
      expect(Buffer.from((file as { body: Uint8Array }).body)).toEqual(Buffer.from(expected[index]!.body));
  });

  it('rejects an index over the budget with the writer’s message', async () => {
    const documents: SearchDocument[] = [
      { id: 'intelligence:a', title: 'A', tags: '', terms: '', summary: 'S', body: 'words '.repeat(500), stored: ['a', 'A', 'S', 'u'] },
    ];
    await expect(helper.searchIndex(documents, 0.000001, null)).rejects.toThrow(/over the budget/);
  });

  it('ends once it has answered a build’s search index, its answer delivered first', async () => {
    const last = startBuildHelper({ endAfterSearch: true });
    const documents: SearchDocument[] = [
      { id: 'intelligence:a', title: 'A', tags: '', terms: '', summary: 'S', body: 'checkout words', stored: ['a', 'A', 'S', 'u'] },
    ];
    const expected = writeSearchIndex(documents, undefined, null).map((file) => file.path);
    const files = await last.searchIndex(documents, 10, null);
    expect(files.map((file) => file.path)).toEqual(expected);
    // Nothing answers after it: the thread is gone (without the option it would render this), whether or not
    // its end was seen before the task was asked.
    await expect(last.render(['*more*'])).rejects.toThrow(/helper thread ended/);
    await expect(last.render(['*more*'])).rejects.toThrow(/helper thread ended/);
    await last.close();
  });

  it('cuts the documents into slices of about SLICE_CHARACTERS of body, in order, none empty', () => {
    const documents = markdownDocuments(50, SLICE_CHARACTERS / 8);
    const slices = [
      ...slicesOf(
        documents,
        documents.map(({ id }) => `key of ${id}`),
      ),
    ];
    expect(slices.length).toBeGreaterThan(5);
    expect(slices.flatMap((slice) => slice.documents)).toEqual(documents);
    for (const slice of slices) {
      expect(slice.keys).toEqual(slice.documents.map(({ id }) => `key of ${id}`));
      expect(slice.documents.slice(0, -1).reduce((sum, { body }) => sum + body.length, 0)).toBeLessThan(SLICE_CHARACTERS);
    }
    // A body larger than a slice is a slice of its own.
    expect([...slicesOf(markdownDocuments(3, SLICE_CHARACTERS * 2))].map((slice) => slice.documents.length)).toEqual([1, 1, 1]);
  });

  it('writes from its documents in slices the index one write of them all gives, and keeps the same analyses', async () => {
    const documents = markdownDocuments(40, SLICE_CHARACTERS / 10);
    expect([...slicesOf(documents)].length).toBeGreaterThan(3);
    const synonyms = createSynonymTable({ groups: [{ words: ['search relevance', 'findability'] }] });
    const keys = documents.map(({ id }) => `key of ${id}`);
    const root = scratchDir('helper-slices');
    try {
      const scope = 'scope';
      const texts = documents.map((document) => ({ ...document, body: toSearchText(document.body) }));
      const theirs = await helper.searchIndexKeeping(documents, 100, synonyms, { keys, scope, staging: path.join(root, 'helper') });
      const mine = writeIndexKeeping(texts, keys, synonyms, { scope, staging: path.join(root, 'this') });
      expect(bytesOf(theirs.files)).toEqual(bytesOf(mine.files));
      expect([...theirs.kept.numbers]).toEqual([...mine.kept.numbers]);
      expect([...theirs.kept.lengths]).toEqual([...mine.kept.lengths]);
      const staged = (dir: string) =>
        new Map(readdirSync(dir).map((name) => [name, readFileSync(path.join(dir, name)).toString('base64')]));
      expect(staged(theirs.kept.staged).size).toBeGreaterThan(20);
      expect(staged(theirs.kept.staged)).toEqual(staged(mine.kept.staged));
      // The documents the caller holds let their bodies go once posted: the helper works on the copies posted.
      expect(documents.every((document) => document.body === '')).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('fails the index with the error of a slice that failed, answers it, and writes the next index whole', async () => {
    const documents = markdownDocuments(30, SLICE_CHARACTERS / 8);
    // A body that is not text, in a later slice: making its search text throws there.
    documents[20] = { ...documents[20]!, body: 42 as unknown as string };
    expect([...slicesOf(documents)].findIndex((slice) => slice.documents.includes(documents[20]!))).toBeGreaterThan(0);
    await expect(helper.searchIndex(documents, 100, null)).rejects.toThrow(/replace is not a function/);
    // The thread goes on: the next index has none of the failed one's documents.
    const next = markdownDocuments(5, 200);
    const expected = writeSearchIndex(
      next.map((document) => ({ ...document, body: toSearchText(document.body) })),
      undefined,
      null,
    );
    expect(bytesOf(await helper.searchIndex(next, 100, null))).toEqual(bytesOf(expected));
  });
});
