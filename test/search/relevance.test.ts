/** Relevance over the real content, by the judgements in test/helpers/relevance-judgements.ts. */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { createSearch, type Search, type SearchQuery } from '../../generator/search/search.ts';
import { createFileAssets } from '../../generator/server/file-assets.ts';
import { judgements, measureRelevance, misses, MRR_BEFORE_SHARDS, TOP } from '../helpers/relevance-judgements.ts';
import { scratchDir } from '../helpers/scratch.ts';

describe('search relevance on the real content', () => {
  let outDir: string;
  let search: Search;

  beforeAll(async () => {
    outDir = path.join(scratchDir('search-relevance'), 'dist');
    await buildSite({ contentDir: 'content', outDir, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    search = createSearch(createFileAssets(outDir));
  });

  afterAll(() => rmSync(path.dirname(outDir), { recursive: true, force: true }));

  const ranked = async (q: string, type: SearchQuery['type'] = 'all') =>
    (await search.search({ q, type, limit: TOP, offset: 0 })).items.map((item) => `${item.type}:${item.id}`);

  it(`puts the expected records near the top (MRR@${TOP} at least as before the sharded index)`, async () => {
    const { mrr, recall, misranked } = await measureRelevance(search);
    console.log(
      `search relevance: ${judgements.length} queries, MRR@${TOP} ${mrr.toFixed(3)} (before: ${MRR_BEFORE_SHARDS.toFixed(3)}), recall@${TOP} ${recall.toFixed(3)}` +
        (misranked.length ? `\nnot first:\n${misranked.join('\n')}` : ''),
    );
    expect(judgements.length).toBeGreaterThanOrEqual(30);
    expect(mrr).toBeGreaterThanOrEqual(MRR_BEFORE_SHARDS);
    expect(recall).toBe(1);
  });

  it('keeps every result of a narrowed search in its collection', async () => {
    for (const judgement of judgements.filter((j) => j.type)) {
      const ids = await ranked(judgement.q, judgement.type);
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(id.startsWith(`${judgement.type}:`)).toBe(true);
    }
  });

  it.each(misses)('finds nothing for "%s"', async (q) => {
    expect(await search.search({ q, type: 'all', limit: TOP, offset: 0 })).toEqual({ total: 0, items: [] });
  });

  it('never returns a draft or an article dated after the build', async () => {
    // ai-crawler-access-policy is a draft; measuring-agent-referred-revenue is dated 2027.
    for (const q of ['AI crawler access policy robots.txt', 'measuring revenue from AI agents and assistants']) {
      const { total, items } = await search.search({ q, type: 'all', limit: 100, offset: 0 });
      expect(items.length).toBe(total);
      expect(items.map((item) => item.id)).not.toContain('ai-crawler-access-policy');
      expect(items.map((item) => item.id)).not.toContain('measuring-agent-referred-revenue');
    }
  });
});
