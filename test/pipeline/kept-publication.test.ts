/**
 * What a build publishes, patched from the previous build's (generator/pipeline/catalogue/kept-publication.ts):
 * after an edit that keeps every record's file, id, draft flag and schedule, the published lists are the
 * previous ones with the edited records put in place (an unedited collection's list is the previous list
 * itself), and after any edit the result is what selecting and counting from every record gives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { publish } from '../../generator/pipeline/catalogue/kept-publication.ts';
import { countPublication, NO_PREVIEW, selectPublished } from '../../generator/pipeline/catalogue/publish.ts';
import { loadContent } from '../../generator/pipeline/load/load-content.ts';
import { validateContent } from '../../generator/pipeline/validate/validate-content.ts';
import { type AnyEntry, collections } from '../../generator/schemas/collections.ts';
import type { Content } from '../../generator/schemas/content.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';

const DAY = '2026-11-18';
let content: Content;
beforeAll(async () => {
  content = validateContent(await loadContent(VALID_FIXTURE, { collections }), collections);
});

const listOf = (from: Content, key: string) => (from as unknown as Record<string, AnyEntry[]>)[key]!;
/** `from` with the record of `key` at `index` replaced by a copy changed by `change`: a new object, as an edited file's record is. */
function edited(from: Content, key: string, index: number, change: (record: AnyEntry) => AnyEntry = (record) => ({ ...record })): Content {
  const list = listOf(from, key).slice();
  list[index] = change(list[index]!);
  return { ...from, [key]: list } as Content;
}

/** The result is a full selection's and count's, whatever the edit. */
function expectFull(now: Content, result: ReturnType<typeof publish>, day = DAY): void {
  const published = selectPublished(now, collections, day);
  expect(result.published).toEqual(published);
  expect(result.publication).toEqual(countPublication(now, collections, published, day));
}

describe('publication patched from the previous build', () => {
  it('puts an edited record in place and keeps every other list as it was', () => {
    const first = publish(content, collections, DAY, NO_PREVIEW);
    expectFull(content, first);
    const service = edited(content, 'services', 0);
    const patched = publish(service, collections, DAY, NO_PREVIEW, first.kept);
    expectFull(service, patched);
    expect(listOf(patched.published, 'intelligence'), 'an unedited collection: the previous list').toBe(
      listOf(first.published, 'intelligence'),
    );
    expect(listOf(patched.published, 'services')).not.toBe(listOf(first.published, 'services'));
    expect(patched.publication, 'the same counts').toBe(first.publication);
  });

  it('selects again when a record is drafted, renamed, scheduled, removed, a term list changed or the day moved, and gives the same', () => {
    const first = publish(content, collections, DAY, NO_PREVIEW);
    const edits: [string, Content][] = [
      ['a referenced record drafted', edited(content, 'technology', 0, (record) => ({ ...record, draft: true }))],
      [
        'a draft published',
        edited(
          content,
          'intelligence',
          listOf(content, 'intelligence').findIndex((record) => record.draft),
          (record) => ({ ...record, draft: false }),
        ),
      ],
      ['an id changed', edited(content, 'technology', 1, (record) => ({ ...record, id: 'renamed' }))],
      ['a record scheduled', edited(content, 'intelligence', 1, (record) => ({ ...record, date: '2030-01-01' }))],
      ['a record removed', { ...content, services: listOf(content, 'services').slice(1) } as unknown as Content],
      ['terms changed', { ...content, categories: (content as unknown as Record<string, unknown[]>).categories!.slice(1) } as Content],
    ];
    for (const [name, now] of edits) {
      const result = publish(now, collections, DAY, NO_PREVIEW, first.kept);
      expect(result.publication, name).not.toBe(first.publication);
      expectFull(now, result);
    }
    expectFull(content, publish(content, collections, '2031-01-01', NO_PREVIEW, first.kept), '2031-01-01');
  });
});
