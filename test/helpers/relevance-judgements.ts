/**
 * Relevance judgements over the real content: questions people ask, each with the records they would expect
 * to see first. The judgements were made by reading `content/`, not by looking at what the engine returns.
 * Used by test/search/relevance.test.ts and printed by the search benchmark.
 */
import type { SearchDocument } from '../../generator/search/index-format.ts';
import type { Search, SearchQuery } from '../../generator/search/search.ts';
import { processTerm, tokenize } from '../../generator/search/text-analysis.ts';

export interface Judgement {
  q: string;
  type?: SearchQuery['type'];
  /** Relevant records as `<type>:<id>`, the most expected first. */
  expect: string[];
}

export const judgements: Judgement[] = [
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

/**
 * Questions that name a record only by a synonym content/synonyms.yaml defines (a group's other entry, or a
 * one-way `from`): found through the synonyms, not through the record's own words.
 */
export const synonymJudgements: Judgement[] = [
  { q: 'mmm for a small brand', expect: ['intelligence:marketing-mix-modelling-on-a-budget'] },
  { q: 'ppc and retail media for retailers', expect: ['services:paid-search-retail-media'] },
  { q: 'sca for agent payments', expect: ['expertise:fraud-aware-agent-payments-financial-services'] },
  { q: 'clv and churn risk', expect: ['services:lifecycle-crm-growth'] },
  { q: 'cart abandonment', expect: ['intelligence:checkout-friction-audit'] },
  { q: 'ppc agency', expect: ['services:paid-search-retail-media'] },
  { q: 'evaluating retrieval augmented generation', expect: ['intelligence:rag-evaluation', 'services:rag-platform-engineering'] },
  { q: 'aov uplift from checkout fixes', expect: ['intelligence:checkout-friction-audit'] },
];

/** Queries about nothing the site covers, or about nothing at all. */
export const misses = ['zebra quantum banjo', 'the and of', '?!', 'volcano knitting'];

export const TOP = 10;

function reciprocalRank(ids: string[], relevant: string[]): number {
  const rank = ids.slice(0, TOP).findIndex((id) => relevant.includes(id));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

function recall(ids: string[], relevant: string[]): number {
  const top = new Set(ids.slice(0, TOP));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

/** MRR and recall in the first TOP of `answers` (ids in order, one list per judgement of `list`). */
export function scoreRanking(list: readonly Judgement[], answers: readonly string[][]): { mrr: number; recall: number } {
  if (list.length === 0) return { mrr: 0, recall: 0 };
  const rr = list.reduce((sum, judgement, i) => sum + reciprocalRank(answers[i]!, judgement.expect), 0);
  const found = list.reduce((sum, judgement, i) => sum + recall(answers[i]!, judgement.expect), 0);
  return { mrr: rr / list.length, recall: found / list.length };
}

/** Reciprocal rank and recall in the first TOP over `list` (the judgements above by default), and the queries whose expected record is not first. */
export async function measureRelevance(search: Search, list: readonly Judgement[] = judgements) {
  let rrSum = 0;
  let recallSum = 0;
  const misranked: string[] = [];
  for (const judgement of list) {
    const { items } = await search.search({ q: judgement.q, type: judgement.type ?? 'all', limit: TOP, offset: 0 });
    const ids = items.map((item) => `${item.type}:${item.id}`);
    const rr = reciprocalRank(ids, judgement.expect);
    rrSum += rr;
    recallSum += recall(ids, judgement.expect);
    if (rr < 1)
      misranked.push(
        `  ${rr.toFixed(2)}  "${judgement.q}"${judgement.type ? ` (${judgement.type})` : ''} -> ${ids.slice(0, 3).join(', ')}`,
      );
  }
  return { mrr: rrSum / list.length, recall: recallSum / list.length, misranked };
}

/** MRR@10 over the judgements with whole bodies in the sharded index; before it (bodies cut to 32 terms), 0.950. */
export const MRR_BEFORE_SHARDS = 0.95;

/**
 * The "words only its body has" probe: for a sample of `sample` documents among `candidates`, three words of
 * middle frequency (in 0.1% to 2% of `all` documents, at least 2) that its body holds and its title, tags,
 * terms and summary do not; the query is the three words, and the document is the one expected.
 */
export function bodyWordsProbe(all: readonly SearchDocument[], candidates: readonly SearchDocument[], sample = 40): Judgement[] {
  const terms = (text: string) => new Set(tokenize(text).flatMap((token) => processTerm(token) ?? []));
  const picked = Array.from(
    { length: Math.min(sample, candidates.length) },
    (_, i) => candidates[Math.floor((i * candidates.length) / sample)]!,
  );
  const wanted = new Set(picked.flatMap((document) => [...terms(document.body)]));
  const df = new Map<string, number>();
  for (const document of all) {
    const seen = terms(`${document.title} ${document.tags} ${document.terms} ${document.summary} ${document.body}`);
    for (const term of seen) if (wanted.has(term)) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const low = Math.max(2, all.length * 0.001);
  const high = Math.max(low + 1, all.length * 0.02);
  return picked.flatMap((document) => {
    const short = terms(`${document.title} ${document.tags} ${document.terms} ${document.summary}`);
    const words = [...terms(document.body)].filter((term) => !short.has(term) && df.get(term)! >= low && df.get(term)! <= high);
    // Spread over the range: the rarest, the middle and the commonest of the eligible words.
    words.sort((a, b) => df.get(a)! - df.get(b)! || (a < b ? -1 : 1));
    if (words.length < 3) return [];
    const chosen = new Set([words[0]!, words[words.length >> 1]!, words[words.length - 1]!]);
    // As a person would type them: the body's own spelling of each word.
    const spelled = new Map(tokenize(document.body).map((token) => [processTerm(token), token] as const));
    return [{ q: [...chosen].map((term) => spelled.get(term)!).join(' '), expect: [document.id] }];
  });
}
