/**
 * Writes a synthetic content folder of any size: the real taxonomies from `content/`, and generated
 * records with realistic Markdown bodies. Deterministic (seeded), so benchmarks and tests repeat.
 */
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface SyntheticSizes {
  articles: number;
  services?: number;
  expertise?: number;
  technology?: number;
  resources?: number;
  /** Words per article body. */
  bodyWords?: number;
}

const TAXONOMY_FILES = [
  'site.yaml',
  'categories.yaml',
  'industries.yaml',
  'platforms.yaml',
  'technology/categories.yaml',
  'intelligence/topics.yaml',
];
const CATEGORIES = [
  'websites-agentic-commerce',
  'neural-intelligence',
  'neural-core',
  'ai-digital-experiences',
  'growth-marketing',
  'paid-media',
  'performance-marketing',
];
const INDUSTRIES = ['retail-ecommerce', 'financial-services', 'healthcare', 'travel-hospitality', 'b2b-saas', 'consumer-goods'];
const TOPICS = ['agentic-commerce', 'ai-search', 'conversion-optimization', 'measurement', 'ai-engineering', 'brand-content'];
const TECH_CATEGORIES = ['protocols', 'infrastructure', 'agents'];
const AUTHORS = ['Maya Okafor', 'Daniel Reyes', 'Priya Raman', 'Tomasz Nowak', 'Elena Fischer', 'Samuel Adeyemi'];
const TYPES = ['guide', 'template', 'checklist', 'research-report'];

const STEMS = (
  'agent checkout catalogue product feed search ranking retrieval embedding vector latency budget forecast demand ' +
  'margin basket conversion funnel experiment holdout incrementality attribution lift creative audience bidding ' +
  'inventory pricing promotion loyalty subscription churn onboarding trial pipeline dashboard warehouse schema ' +
  'protocol payment mandate wallet merchant buyer consent privacy cookie tagging server consent signal model ' +
  'evaluation guardrail prompt injection gateway routing caching token cost quality review relevance recall ' +
  'precision freshness latency accessibility keyboard screen contrast journey persona segment lifecycle email ' +
  'retention referral affiliate marketplace logistics returns sizing fit recommendation personalisation'
).split(' ');
const GLUE = 'the a of and to in for with on that is by as from at we our it this can be'.split(' ');

/** mulberry32: small, fast and seedable, so the same seed gives the same folder, documents and queries. */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function createWriter(seed = 42) {
  const random = createRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  // A Zipf-like skew: low ranks far more often, as in real prose.
  const word = () => (random() < 0.45 ? pick(GLUE) : STEMS[Math.floor(STEMS.length * random() ** 2.2)]!);
  const sentence = (words: number) => {
    const text = Array.from({ length: words }, word).join(' ');
    return `${text[0]!.toUpperCase()}${text.slice(1)}.`;
  };
  const paragraph = (words: number) => {
    const sentences: string[] = [];
    for (let left = words; left > 0; left -= 15) sentences.push(sentence(Math.min(15, left)));
    return sentences.join(' ');
  };
  const body = (words: number) => {
    const per = Math.ceil(words / 4);
    return [
      paragraph(per),
      `## ${sentence(4).slice(0, -1)}`,
      paragraph(per),
      `- ${sentence(6)}\n- ${sentence(6)}`,
      paragraph(per),
      paragraph(per - 12),
    ].join('\n\n');
  };
  const title = () => sentence(5).slice(0, -1);
  const some = <T>(items: readonly T[], max: number) => [
    ...new Set(Array.from({ length: 1 + Math.floor(random() * max) }, () => pick(items))),
  ];
  return { random, pick, body, title, sentence, some };
}

const list = (items: readonly string[]) => `[${items.join(', ')}]`;

function dateFor(index: number, count: number): string {
  // Spread over roughly four years back from 2026-11-01.
  const day = new Date(Date.UTC(2026, 10, 1) - Math.floor((index / Math.max(1, count)) * 1460) * 86_400_000);
  return day.toISOString().slice(0, 10);
}

export async function writeSyntheticContent(dir: string, sizes: SyntheticSizes, sourceDir = 'content'): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  for (const sub of ['services', 'expertise', 'technology', 'intelligence', 'resources', 'images/resources']) {
    await mkdir(path.join(dir, sub), { recursive: true });
  }
  for (const file of TAXONOMY_FILES) await copyFile(path.join(sourceDir, file), path.join(dir, file));
  await writeFile(path.join(dir, 'images/resources/hero.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="12" height="6"/>');
  // Written as they are made, in parallel batches: fast for 20,000 files without exhausting file handles, and
  // never the whole folder in memory (a million articles are 2.8 GB of text).
  let batch: Promise<void>[] = [];
  for (const [file, text] of syntheticFiles(sizes)) {
    batch.push(writeFile(path.join(dir, file), text));
    if (batch.length === 256) {
      await Promise.all(batch);
      batch = [];
    }
  }
  await Promise.all(batch);
}

/** The generated records' files, path and text, one at a time in a fixed order (the bytes depend on it). */
export function* syntheticFiles(sizes: SyntheticSizes): Generator<[string, string]> {
  const w = createWriter();
  const words = sizes.bodyWords ?? 400;
  const front = (fields: Record<string, string | number | boolean>) =>
    Object.entries(fields)
      .map(([key, value]) => `${key}: ${value}`)
      .join('\n');
  const technologyIds = Array.from({ length: sizes.technology ?? 30 }, (_, i) => `technology-${i + 1}`);

  for (const [i, id] of technologyIds.entries()) {
    const fields = {
      name: `"${w.title()}"`,
      summary: `"${w.sentence(18)}"`,
      category: TECH_CATEGORIES[i % 3]!,
      open_protocol: i % 3 === 0,
      order: i + 1,
      updated: dateFor(i, technologyIds.length),
      tags: list(w.some(STEMS, 4)),
    };
    yield [`technology/${id}.md`, `---\n${front(fields)}\n---\n\n${w.body(250)}\n`];
  }
  // Services and expertise share one shape; only services list deliverables. Fields are drawn in file
  // order, so the generated bytes depend on the order of these calls.
  const practices = [
    { folder: 'services', file: 'service', count: sizes.services ?? 40, span: 40, technologies: 3, deliverables: true },
    { folder: 'expertise', file: 'expertise', count: sizes.expertise ?? 60, span: 60, technologies: 2, deliverables: false },
  ];
  for (const practice of practices) {
    for (let i = 0; i < practice.count; i++) {
      const fields = {
        title: `"${w.title()}"`,
        summary: `"${w.sentence(20)}"`,
        category: CATEGORIES[i % 7]!,
        order: i + 1,
        updated: dateFor(i, practice.span),
        industries: list(w.some(INDUSTRIES, 3)),
        technologies: list(w.some(technologyIds, practice.technologies)),
        tags: list(w.some(STEMS, 4)),
        ...(practice.deliverables && { deliverables: list([`"${w.sentence(5)}"`, `"${w.sentence(6)}"`]) }),
      };
      yield [`${practice.folder}/${practice.file}-${i + 1}.md`, `---\n${front(fields)}\n---\n\n${w.body(300)}\n`];
    }
  }
  for (let i = 0; i < sizes.articles; i++) {
    const fields = {
      title: `"${w.title()}"`,
      summary: `"${w.sentence(22)}"`,
      date: dateFor(i, sizes.articles),
      author: w.pick(AUTHORS),
      topics: list(w.some(TOPICS, 2)),
      category: CATEGORIES[i % 7]!,
      tags: list(w.some(STEMS, 4)),
    };
    yield [`intelligence/article-${i + 1}.md`, `---\n${front(fields)}\n---\n\n${w.body(words)}\n`];
  }
  for (let i = 0; i < (sizes.resources ?? 50); i++) {
    const fields = {
      title: `"${w.title()}"`,
      type: TYPES[i % 4]!,
      category: CATEGORIES[i % 7]!,
      excerpt: `"${w.sentence(20)}"`,
      author: w.pick(AUTHORS),
      updated: dateFor(i, 50),
      image: '/images/resources/hero.svg',
      topics: list(w.some(STEMS, 3)),
    };
    yield [`resources/resource-${i + 1}.md`, `---\n${front(fields)}\n---\n\n${w.body(300)}\n`];
  }
}
