/**
 * A second, independent set of judgements over the real content: needs described in the records' own words
 * but asked as questions, one per record (and a second expected record where two answer it). Written from
 * the records' titles and summaries before any ranking was measured on them, and never tuned against; the
 * ranking's knobs were chosen on the first set (relevance-judgements.ts) and checked here.
 */
import type { Judgement } from './relevance-judgements.ts';

export const questionJudgements: Judgement[] = [
  // Services
  {
    q: 'how do I make my product catalogue readable for AI shopping agents',
    expect: ['services:agent-ready-product-feeds', 'expertise:agent-ready-product-data-retail'],
  },
  { q: 'can you build a headless storefront that AI agents can check out on', expect: ['services:agentic-storefront-build'] },
  { q: 'we want a shopping assistant on our site that hands over to staff', expect: ['services:conversational-shopping-assistant'] },
  {
    q: 'who can run an experimentation programme to improve our checkout conversion',
    expect: ['services:conversion-rate-optimisation-programme'],
  },
  {
    q: 'how do we prove which marketing spend creates revenue with geo experiments',
    expect: ['services:incrementality-measurement', 'intelligence:geo-lift-incrementality-tests'],
  },
  { q: 'who can build behaviour-triggered email and SMS journeys', expect: ['services:lifecycle-crm-growth'] },
  { q: 'can a language model explain our demand forecasts to planners', expect: ['services:llm-demand-forecasting'] },
  {
    q: 'how do we expose orders and inventory to AI agents through Model Context Protocol servers',
    expect: ['services:mcp-server-development', 'intelligence:mcp-server-for-catalogue-search'],
  },
  { q: 'who manages Google Ads and retail media budgets by product margin', expect: ['services:paid-search-retail-media'] },
  { q: 'we need retrieval-augmented generation with permission-aware retrieval', expect: ['services:rag-platform-engineering'] },
  // Expertise
  { q: 'how do travel assistants rebook travellers when plans fall apart', expect: ['expertise:conversational-booking-travel'] },
  { q: 'what elasticity models help hotels set rates for perishable inventory', expect: ['expertise:dynamic-pricing-signals-travel'] },
  {
    q: 'how should banks control payments initiated by AI agents on behalf of customers',
    expect: ['expertise:fraud-aware-agent-payments-financial-services', 'intelligence:fraud-in-agent-initiated-payments'],
  },
  {
    q: 'can patient assistants handle scheduling and prescriptions under privacy law',
    expect: ['expertise:hipaa-conscious-patient-assistants'],
  },
  { q: 'what controls let regulated organisations run language model features', expect: ['expertise:llm-guardrails-regulated-industries'] },
  {
    q: 'how can a healthcare provider measure campaigns without leaking health information to ad platforms',
    expect: ['expertise:privacy-safe-measurement-healthcare'],
  },
  {
    q: 'how do software companies score product-qualified leads from free trials',
    expect: ['expertise:product-led-growth-analytics-b2b-saas', 'intelligence:b2b-saas-trial-conversion'],
  },
  {
    q: 'how should food and beauty brands buy retail media across retailer networks',
    expect: ['expertise:retail-media-consumer-goods', 'intelligence:retail-media-networks'],
  },
  {
    q: 'how do we improve retail product search measurably instead of by anecdote',
    expect: ['expertise:search-relevance-evaluation-retail', 'intelligence:internal-site-search-relevance'],
  },
  {
    q: 'how can household brands grow direct-to-consumer subscriptions and retention',
    expect: ['expertise:subscription-replenishment-consumer-goods'],
  },
  {
    q: 'how do we turn more software trials into paying accounts with onboarding and billing recovery',
    expect: ['expertise:trial-to-paid-lifecycle-b2b-saas', 'intelligence:b2b-saas-trial-conversion'],
  },
  // Articles
  {
    q: "how can a buyer's agent talk to a merchant's agent about delivery and bundles",
    expect: ['intelligence:a2a-merchant-and-buyer-agents'],
  },
  { q: 'can screen readers follow streaming text in an AI chat widget', expect: ['intelligence:accessibility-of-ai-chat-widgets'] },
  { q: 'how do we earn citations in AI answer engines for considered purchases', expect: ['intelligence:answer-engine-optimisation'] },
  { q: 'how do I keep machine-generated product descriptions on-brand', expect: ['intelligence:brand-voice-in-generated-copy'] },
  { q: 'how can I find the friction in my checkout and rank fixes by revenue impact', expect: ['intelligence:checkout-friction-audit'] },
  { q: 'does LCP and INP field data predict conversion on real orders', expect: ['intelligence:core-web-vitals-and-conversion'] },
  {
    q: 'when should we refresh ads on Meta and TikTok as frequency and costs rise',
    expect: ['intelligence:creative-fatigue-in-paid-social'],
  },
  {
    q: 'how does a customer-service agent pass context to a person without the customer repeating themselves',
    expect: ['intelligence:customer-service-agent-handoff-to-humans'],
  },
  { q: 'which email and SMS flows matter most for a subscription business', expect: ['intelligence:email-lifecycle-subscription-brands'] },
  { q: 'what does server-side Google Tag Manager change for data quality', expect: ['intelligence:ga4-server-side-tagging'] },
  { q: 'how do we design a geographic holdout experiment that finance trusts', expect: ['intelligence:geo-lift-incrementality-tests'] },
  {
    q: 'what must a private healthcare provider get right when launching a patient chatbot',
    expect: ['intelligence:healthcare-chatbot-privacy'],
  },
  {
    q: 'how can an independent hotel shift bookings away from online travel agencies',
    expect: ['intelligence:hotel-direct-booking-vs-otas'],
  },
  { q: 'how do signed mandates let AI agents complete payments', expect: ['intelligence:how-ai-agents-pay-ap2-x402'] },
  { q: 'how can routing model calls through a gateway cut LLM costs', expect: ['intelligence:llm-cost-control-with-a-gateway'] },
  { q: 'can a mid-market brand build a Bayesian marketing mix model', expect: ['intelligence:marketing-mix-modelling-on-a-budget'] },
  {
    q: 'how do I personalise emails with first-party and zero-party data',
    expect: ['intelligence:personalisation-without-third-party-cookies'],
  },
  { q: "how can we test prices in ecommerce without losing customers' trust", expect: ['intelligence:pricing-experiments'] },
  {
    q: 'what does a product feed need for ChatGPT shopping and agent checkout',
    expect: ['intelligence:product-feeds-for-chatgpt-shopping'],
  },
  {
    q: 'how do malicious reviews and product pages manipulate shopping agents',
    expect: ['intelligence:prompt-injection-defences-for-shopping-agents'],
  },
  { q: 'how do apparel retailers cut size-related returns with fit data', expect: ['intelligence:returns-reduction-with-size-advice'] },
  { q: 'which structured data types help products appear in AI search answers', expect: ['intelligence:schema-org-markup-for-ai-search'] },
  { q: 'what did retailers say about adopting AI shopping agents in the survey', expect: ['intelligence:state-of-agentic-commerce-2026'] },
  {
    q: 'are asset-level ratings in Performance Max a good guide to creative quality',
    expect: ['intelligence:performance-max-creative-testing'],
  },
  { q: 'how do I calibrate LLM judges against humans when evaluating retrieval', expect: ['intelligence:rag-evaluation'] },
];
