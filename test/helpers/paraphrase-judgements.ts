/**
 * Paraphrase questions over the real content: each describes a need in other words than its record's
 * (the record's title and summary share at most a word or two with it), as a visitor who does not know the
 * site's vocabulary would ask. Written by reading `content/`, not by looking at what any engine returns.
 * Used by test/semantic/semantic-search.test.ts, bench/semantic-measures.ts and bench/semantic-lab.ts.
 */
import type { Judgement } from './relevance-judgements.ts';

export const paraphraseJudgements: Judgement[] = [
  { q: 'making chat popups usable for blind people', expect: ['intelligence:accessibility-of-ai-chat-widgets'] },
  {
    q: 'advertising on supermarket websites',
    expect: ['expertise:retail-media-consumer-goods', 'intelligence:retail-media-networks', 'services:paid-search-retail-media'],
  },
  { q: 'stop bots from scraping my site to train their models', expect: ['intelligence:ai-crawler-access-policy'] },
  { q: 'why do buyers give up at the till before paying', expect: ['intelligence:checkout-friction-audit'] },
  { q: 'does a slow loading page lose sales', expect: ['intelligence:core-web-vitals-and-conversion'] },
  { q: 'people are bored of seeing the same ads on instagram', expect: ['intelligence:creative-fatigue-in-paid-social'] },
  { q: 'when should the bot pass the chat to a real person', expect: ['intelligence:customer-service-agent-handoff-to-humans'] },
  { q: 'newsletters for monthly box companies', expect: ['intelligence:email-lifecycle-subscription-brands'] },
  {
    q: 'scammers abusing purchases made by bots',
    expect: ['intelligence:fraud-in-agent-initiated-payments', 'expertise:fraud-aware-agent-payments-financial-services'],
  },
  {
    q: 'keeping medical details private in a virtual helper for clinics',
    expect: ['intelligence:healthcare-chatbot-privacy', 'expertise:hipaa-conscious-patient-assistants'],
  },
  { q: 'get guests to reserve rooms on our own site instead of expedia', expect: ['intelligence:hotel-direct-booking-vs-otas'] },
  { q: 'cutting the bill for language model api calls', expect: ['intelligence:llm-cost-control-with-a-gateway'] },
  {
    q: 'which advertising channel really brought extra sales',
    expect: [
      'services:incrementality-measurement',
      'intelligence:marketing-mix-modelling-on-a-budget',
      'intelligence:geo-lift-incrementality-tests',
    ],
  },
  { q: 'clothes sent back because they do not fit', expect: ['intelligence:returns-reduction-with-size-advice'] },
  { q: 'tags in the page code so chatbots understand my products', expect: ['intelligence:schema-org-markup-for-ai-search'] },
  { q: 'poll of shops about robots doing the buying', expect: ['intelligence:state-of-agentic-commerce-2026'] },
  { q: 'attackers hiding instructions in customer reviews', expect: ['intelligence:prompt-injection-defences-for-shopping-agents'] },
  {
    q: 'checking that a bot answering from our documents is correct',
    expect: ['intelligence:rag-evaluation', 'services:rag-platform-engineering'],
  },
  { q: 'changing what things cost to learn what customers will pay', expect: ['intelligence:pricing-experiments'] },
  {
    q: 'tailoring the site to each visitor without tracking them across the web',
    expect: ['intelligence:personalisation-without-third-party-cookies'],
  },
  {
    q: 'people try our software for free but never buy',
    expect: ['intelligence:b2b-saas-trial-conversion', 'expertise:trial-to-paid-lifecycle-b2b-saas'],
  },
  {
    q: 'machine written product descriptions that still sound like us',
    expect: ['intelligence:brand-voice-in-generated-copy'],
  },
  { q: 'being recommended when people ask a chatbot what to buy', expect: ['intelligence:answer-engine-optimisation'] },
  { q: 'two bots haggling over an order with each other', expect: ['intelligence:a2a-merchant-and-buyer-agents'] },
  { q: 'predicting how much stock we will sell next month', expect: ['services:llm-demand-forecasting'] },
  { q: 'texting and emailing customers at the right moment so they come back', expect: ['services:lifecycle-crm-growth'] },
  { q: 'a virtual salesperson that helps people pick items in messenger', expect: ['services:conversational-shopping-assistant'] },
  { q: 'rebooking holidays when flights get cancelled', expect: ['expertise:conversational-booking-travel'] },
  { q: 'raising room prices when lots of people want to visit', expect: ['expertise:dynamic-pricing-signals-travel'] },
  { q: 'safety rules for chatbots at banks and hospitals', expect: ['expertise:llm-guardrails-regulated-industries'] },
  { q: 'counting online sales that came from chatbots', expect: ['intelligence:measuring-agent-referred-revenue'] },
  { q: 'freemium apps finding which users will upgrade', expect: ['expertise:product-led-growth-analytics-b2b-saas'] },
  { q: 'proving ads work without leaking medical details', expect: ['expertise:privacy-safe-measurement-healthcare'] },
  { q: 'moving website analytics tracking off the browser', expect: ['intelligence:ga4-server-side-tagging'] },
];
