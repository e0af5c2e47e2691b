/** The build's helper thread (build-helper.ts), run for real: what it renders and indexes equals this thread's work. */
import { createSynonymTable } from '../../generator/search/synonyms.ts';
import { afterAll, describe, expect, it } from 'vitest';
import { renderWithHelper, startBuildHelper } from '../../generator/pipeline/helper/build-helper.ts';
import { renderMarkdown } from '../../generator/pipeline/outputs/render-markdown.ts';
import { toSearchText } from '../../generator/pipeline/outputs/search/search-file.ts';
import { writeSearchIndex } from '../../generator/search/index-writer.ts';
import type { SearchDocument } from '../../generator/search/index-format.ts';

const helper = startBuildHelper();
afterAll(() => helper.close());

const TOO_DEEP = `${'>'.repeat(60_000)} x`;

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
    const files = await helper.searchIndex(documents, 10, synonyms);
    const expected = writeSearchIndex(
      documents.map((document) => ({ ...document, body: toSearchText(document.body) })),
      undefined,
      synonyms,
    );
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
    const files = await last.searchIndex(documents, 10, null);
    expect(files.map((file) => file.path)).toEqual(writeSearchIndex(documents, undefined, null).map((file) => file.path));
    // Nothing answers after it: the thread is gone (without the option it would render this), whether or not
    // its end was seen before the task was asked.
    await expect(last.render(['*more*'])).rejects.toThrow(/helper thread ended/);
    await expect(last.render(['*more*'])).rejects.toThrow(/helper thread ended/);
    await last.close();
  });
});
