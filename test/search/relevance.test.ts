/**
 * Relevance over the real content: questions people ask, each with the records they would expect to see
 * first. The judgements were made by reading `content/`, not by looking at what the engine returns.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../generator/pipeline/build-site.ts';
import { createSearch, type Search, type SearchQuery } from '../../generator/search/search.ts';
import { createFileAssets } from '../../generator/server/file-assets.ts';

interface Judgement {
  q: string;
  type?: SearchQuery['type'];
  /** Relevant records as `<type>:<id>`, the most expected first. */
  expect: string[];
}

const judgements: Judgement[] = [
  // Misspellings
  { q: 'agentc comerce protocl', expect: ['intelligence:product-feeds-for-chatgpt-shopping', 'services:agentic-storefront-build'] },
  { q: 'incrementallity mesurement', expect: ['services:incrementality-measurement', 'intelligence:geo-lift-incrementality-tests'] },
  { q: 'prompt injektion', expect: ['intelligence:prompt-injection-defences-for-shopping-agents'] },
  { q: 'acessibility of chat widgets', expect: ['intelligence:accessibility-of-ai-chat-widgets'] },
  { q: 'subscriptoin replenishment', expect: ['expertise:subscription-replenishment-consumer-goods'] },
  { q: 'guardrials for regulated industries', expect: ['expertise:llm-guardrails-regulated-industries'] },
  // American spellings of British text, plurals and other word forms
  { q: 'personalization without cookies', expect: ['intelligence:personalisation-without-third-party-cookies'] },
  { q: 'conversion rate optimization', expect: ['services:conversion-rate-optimisation-programme'] },
  { q: 'media mix modeling', expect: ['intelligence:marketing-mix-modelling-on-a-budget', 'services:incrementality-measurement'] },
  { q: 'forecasts', expect: ['services:llm-demand-forecasting'] },
  { q: 'evaluating rag systems', expect: ['intelligence:rag-evaluation', 'services:rag-platform-engineering'] },
  { q: 'hotel bookings', expect: ['intelligence:hotel-direct-booking-vs-otas', 'expertise:dynamic-pricing-signals-travel'] },
  { q: 'product catalog search', expect: ['intelligence:mcp-server-for-catalogue-search', 'expertise:search-relevance-evaluation-retail'] },
  // Long questions
  {
    q: 'how can AI agents pay for things in my store',
    expect: ['intelligence:how-ai-agents-pay-ap2-x402', 'expertise:fraud-aware-agent-payments-financial-services'],
  },
  {
    q: 'what product data do AI shopping agents need to compare my products',
    expect: ['expertise:agent-ready-product-data-retail', 'services:agent-ready-product-feeds'],
  },
  { q: 'why do shoppers abandon the checkout', expect: ['intelligence:checkout-friction-audit'] },
  {
    q: 'when should a customer service bot hand the conversation to a human',
    expect: ['intelligence:customer-service-agent-handoff-to-humans'],
  },
  { q: 'how do I stop a shopping agent from being manipulated', expect: ['intelligence:prompt-injection-defences-for-shopping-agents'] },
  { q: 'does site speed affect conversion rate', expect: ['intelligence:core-web-vitals-and-conversion'] },
  { q: 'how much do online travel agencies cost a hotel', expect: ['intelligence:hotel-direct-booking-vs-otas'] },
  { q: 'which ad spend actually creates revenue', expect: ['services:incrementality-measurement'] },
  { q: 'can a small brand afford a marketing mix model', expect: ['intelligence:marketing-mix-modelling-on-a-budget'] },
  { q: 'survey of retailers about agentic commerce', expect: ['intelligence:state-of-agentic-commerce-2026'] },
  // Short queries
  { q: 'HIPAA', expect: ['expertise:hipaa-conscious-patient-assistants'] },
  { q: 'x402', expect: ['intelligence:how-ai-agents-pay-ap2-x402'] },
  { q: 'mcp', expect: ['services:mcp-server-development', 'intelligence:mcp-server-for-catalogue-search'] },
  { q: 'rag', expect: ['services:rag-platform-engineering', 'intelligence:rag-evaluation'] },
  { q: 'ga4 server-side tagging', expect: ['intelligence:ga4-server-side-tagging'] },
  { q: 'creative fatigue', expect: ['intelligence:creative-fatigue-in-paid-social'] },
  { q: 'performance max', expect: ['intelligence:performance-max-creative-testing', 'services:paid-search-retail-media'] },
  { q: 'brand voice', expect: ['intelligence:brand-voice-in-generated-copy'] },
  { q: 'LLM gateway costs', expect: ['intelligence:llm-cost-control-with-a-gateway'] },
  { q: 'fashion returns', expect: ['intelligence:returns-reduction-with-size-advice'] },
  { q: 'schema.org markup', expect: ['intelligence:schema-org-markup-for-ai-search'] },
  { q: 'answer engines', expect: ['intelligence:answer-engine-optimisation'] },
  { q: 'dynamic pricing', expect: ['expertise:dynamic-pricing-signals-travel'] },
  { q: 'flight disruption rebooking', expect: ['expertise:conversational-booking-travel'] },
  { q: 'product-qualified leads', expect: ['expertise:product-led-growth-analytics-b2b-saas', 'intelligence:b2b-saas-trial-conversion'] },
  { q: 'free trial to paid conversion', expect: ['intelligence:b2b-saas-trial-conversion', 'expertise:trial-to-paid-lifecycle-b2b-saas'] },
  {
    q: 'fraud in agent payments',
    expect: ['intelligence:fraud-in-agent-initiated-payments', 'expertise:fraud-aware-agent-payments-financial-services'],
  },
  { q: 'product feeds for ChatGPT', expect: ['intelligence:product-feeds-for-chatgpt-shopping', 'services:agent-ready-product-feeds'] },
  { q: 'email flows for subscription brands', expect: ['intelligence:email-lifecycle-subscription-brands'] },
  { q: 'merchant and buyer agents talking', expect: ['intelligence:a2a-merchant-and-buyer-agents'] },
  { q: 'healthcare chatbot privacy', expect: ['intelligence:healthcare-chatbot-privacy', 'expertise:hipaa-conscious-patient-assistants'] },
  { q: 'site search relevance', expect: ['intelligence:internal-site-search-relevance', 'expertise:search-relevance-evaluation-retail'] },
  // Details that only the body mentions
  { q: 'idempotency keys for agent checkout retries', expect: ['services:agentic-storefront-build'] },
  { q: 'DMARC deliverability', expect: ['services:lifecycle-crm-growth'] },
  { q: "cohen's kappa for llm judges", expect: ['expertise:search-relevance-evaluation-retail'] },
  { q: 'Walmart Connect', expect: ['services:paid-search-retail-media'] },
  { q: 'business associate agreement', expect: ['expertise:hipaa-conscious-patient-assistants'] },
  { q: 'airline NDC offers', expect: ['expertise:conversational-booking-travel'] },
  // One collection only
  { q: 'shopping assistant', type: 'services', expect: ['services:conversational-shopping-assistant'] },
  { q: 'retail media', type: 'expertise', expect: ['expertise:retail-media-consumer-goods'] },
  { q: 'retail media', type: 'intelligence', expect: ['intelligence:retail-media-networks'] },
  { q: 'lifecycle', type: 'services', expect: ['services:lifecycle-crm-growth'] },
  { q: 'agent payments', type: 'expertise', expect: ['expertise:fraud-aware-agent-payments-financial-services'] },
  { q: 'evaluation', type: 'services', expect: ['services:rag-platform-engineering'] },
];

/** Queries about nothing the site covers, or about nothing at all. */
const misses = ['zebra quantum banjo', 'the and of', '?!', 'volcano knitting'];

const TOP = 10;

function reciprocalRank(ids: string[], relevant: string[]): number {
  const rank = ids.slice(0, TOP).findIndex((id) => relevant.includes(id));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

function recall(ids: string[], relevant: string[]): number {
  const top = new Set(ids.slice(0, TOP));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

describe('search relevance on the real content', () => {
  let outDir: string;
  let search: Search;

  beforeAll(async () => {
    outDir = mkdtempSync(path.join(os.tmpdir(), 'search-relevance-'));
    await buildSite({ contentDir: 'content', outDir, env: { SOURCE_DATE_EPOCH: '1795000000' } });
    search = createSearch(createFileAssets(outDir));
  });

  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const ranked = async (q: string, type: SearchQuery['type'] = 'all') =>
    (await search.search({ q, type, limit: TOP, offset: 0 })).items.map((item) => `${item.type}:${item.id}`);

  it(`puts the expected records near the top (MRR@${TOP} >= 0.85)`, async () => {
    let rrSum = 0;
    let recallSum = 0;
    const misranked: string[] = [];
    for (const judgement of judgements) {
      const ids = await ranked(judgement.q, judgement.type);
      const rr = reciprocalRank(ids, judgement.expect);
      rrSum += rr;
      recallSum += recall(ids, judgement.expect);
      if (rr < 1)
        misranked.push(
          `  ${rr.toFixed(2)}  "${judgement.q}"${judgement.type ? ` (${judgement.type})` : ''} -> ${ids.slice(0, 3).join(', ')}`,
        );
    }
    const mrr = rrSum / judgements.length;
    console.log(
      `search relevance: ${judgements.length} queries, MRR@${TOP} ${mrr.toFixed(3)}, recall@${TOP} ${(recallSum / judgements.length).toFixed(3)}` +
        (misranked.length ? `\nnot first:\n${misranked.join('\n')}` : ''),
    );
    expect(judgements.length).toBeGreaterThanOrEqual(30);
    expect(mrr).toBeGreaterThanOrEqual(0.85);
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
