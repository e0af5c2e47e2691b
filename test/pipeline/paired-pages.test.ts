/**
 * A build that names every output makes each record's page right after its envelope (paired-pages.ts), so the
 * body's HTML and the shaped record both print are let go at once rather than held from the last envelope's
 * pass to the pages' pass. The files are the same (golden.test.ts compares every byte, the sitemap's order too).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { type BuildOptions, buildSite } from '../../generator/pipeline/build-site.ts';
import { entriesOf } from '../../generator/schemas/content.ts';
import { recordPageFolder, recordPath } from '../../generator/shared/data-paths.ts';
import { BUILD_ENV, removeBuildDirs, tempDir } from '../helpers/build-output.ts';

afterAll(removeBuildDirs);

describe('the pages of records in a build that names every output', () => {
  it('come each right after its record envelope', async () => {
    const order: string[] = [];
    const emit: BuildOptions['emit'] = async (files) => {
      for await (const file of files) order.push(file.path);
      return { files: order.length, written: order.length, bytes: 0 };
    };
    const { content } = await buildSite({
      contentDir: 'content',
      outDir: tempDir('paired-pages'),
      env: BUILD_ENV,
      emit,
      searchIndex: false,
    });
    // Drafts and scheduled articles are read but get neither.
    const paged = entriesOf(content, 'intelligence').filter((article) =>
      order.includes(`${recordPageFolder('intelligence', article.slug)}/index.html`),
    );
    expect(paged.length).toBeGreaterThan(2);
    for (const article of paged) {
      const page = order.indexOf(`${recordPageFolder('intelligence', article.slug)}/index.html`);
      expect(order[page - 1], article.slug).toBe(recordPath('intelligence/get', article.slug));
      expect(order.lastIndexOf(recordPath('intelligence/get', String(article.id))), article.slug).toBeLessThan(page);
    }
  });
});
