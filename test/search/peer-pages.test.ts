import { describe, expect, it } from 'vitest';
import { idOfUrl, syntheticPage, syntheticPagePath, withTypeFilter } from '../../bench/search-peer-pages.ts';

// The pages Pagefind indexes in the static-search comparison (bench/search-peer.ts): a result's address must
// name the record it came from, or the comparison scores Pagefind's right answers as wrong.
const document = {
  id: 'intelligence:article-42',
  title: 'Checkout <agents> & "pricing"',
  tags: 'agent-payments checkout-ux',
  terms: 'Neural Core',
  summary: 'A summary.',
  body: 'Words of the body </p><script>alert(1)</script>',
};

describe('the pages of the static-search comparison', () => {
  it('names the record a result came from, for synthetic pages and for the build own fan-out paths', () => {
    const page = syntheticPagePath(document.id);
    expect(page).toMatch(/^intelligence\/\d{3}\/article-42\/index\.html$/);
    expect(idOfUrl(`/${page.replace(/index\.html$/, '')}`)).toBe('intelligence:article-42');
    expect(idOfUrl('/services/be/llm-demand-forecasting/')).toBe('services:llm-demand-forecasting');
  });

  it('writes a synthetic page with the title as h1, every field escaped, and the type filter on the indexed article', () => {
    const page = syntheticPage(document);
    expect(page).toContain('<h1>Checkout &lt;agents&gt; &amp; &quot;pricing&quot;</h1>');
    expect(page).toContain('<article class="entry" data-pagefind-filter="type:intelligence">');
    expect(page).toContain('<li>agent-payments</li><li>checkout-ux</li>');
    expect(page).not.toContain('<script>');
  });

  it('adds the type filter to a built record page once, and refuses a page without the record article', () => {
    const built = '<main><article class="entry"><h1>T</h1></article><article class="entry"></article></main>';
    const filtered = withTypeFilter(built, 'services:t');
    expect(filtered.match(/data-pagefind-filter="type:services"/g)).toHaveLength(1);
    expect(filtered.startsWith('<main><article class="entry" data-pagefind-filter')).toBe(true);
    expect(() => withTypeFilter('<main><h1>T</h1></main>', 'services:t')).toThrow(/no <article class="entry">/);
  });
});
