/** Shapes content records into what the API answers: summaries for lists, full records for get routes. */
import type * as Api from '../../../schemas/api.ts';
import type { Article, Expertise, Service, Technology } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { readingTime, renderMarkdown } from '../render-markdown.ts';

const recordUrl = (catalogue: Catalogue, collection: string, slug: string) => `${catalogue.siteUrl}/${collection}/${slug}/`;

/** Terms by id; ids without a published name (a draft technology) are left out rather than shown half. */
function termRefs(ids: readonly string[], names: Map<string, string>): Api.TermRef[] {
  return ids.flatMap((id) => {
    const name = names.get(id);
    return name === undefined ? [] : [{ id, name }];
  });
}

function termRef(id: string, names: Map<string, string>): Api.TermRef {
  return { id, name: names.get(id) ?? id };
}

function recordRefs(records: readonly (Service | Expertise | Article)[], collection: string, catalogue: Catalogue, exclude?: string, max = Infinity) {
  const refs: Api.RecordRef[] = [];
  for (const record of records) {
    if (refs.length >= max) break;
    if (record.id !== exclude) refs.push({ id: record.id, title: record.title, url: recordUrl(catalogue, collection, record.slug) });
  }
  return refs;
}

/** Services and expertise areas share their list item's shape (schemas/api.ts). */
function toPracticeItem(record: Service | Expertise, collection: 'services' | 'expertise', catalogue: Catalogue): Api.ServiceItem {
  return {
    id: record.id,
    slug: record.slug,
    title: record.title,
    summary: record.summary,
    category: record.category,
    industries: record.industries,
    tags: record.tags,
    url: recordUrl(catalogue, collection, record.slug),
    updated: record.updated,
  };
}

export function toServiceItem(service: Service, catalogue: Catalogue): Api.ServiceItem {
  return toPracticeItem(service, 'services', catalogue);
}

/** `item` is the list item when the caller has it already, so shared fields are shaped once. */
export function toServiceRecord(service: Service, catalogue: Catalogue, item = toServiceItem(service, catalogue)): Api.ServiceRecord {
  const { names } = catalogue;
  return {
    ...item,
    technologies: service.technologies,
    deliverables: service.deliverables,
    reading_time: readingTime(service.body),
    content_html: renderMarkdown(service.body),
    related: {
      category: termRef(service.category, names.categories),
      industries: termRefs(service.industries, names.industries),
      technologies: termRefs(service.technologies, names.technologies),
      expertise: recordRefs(catalogue.expertiseByCategory.get(service.category) ?? [], 'expertise', catalogue),
      articles: recordRefs(catalogue.articlesByCategory.get(service.category) ?? [], 'intelligence', catalogue, undefined, 5),
    },
  };
}

export function toExpertiseItem(area: Expertise, catalogue: Catalogue): Api.ExpertiseItem {
  return toPracticeItem(area, 'expertise', catalogue);
}

/** `item` is the list item when the caller has it already, so shared fields are shaped once. */
export function toExpertiseRecord(area: Expertise, catalogue: Catalogue, item = toExpertiseItem(area, catalogue)): Api.ExpertiseRecord {
  const { names } = catalogue;
  return {
    ...item,
    technologies: area.technologies,
    reading_time: readingTime(area.body),
    content_html: renderMarkdown(area.body),
    related: {
      category: termRef(area.category, names.categories),
      industries: termRefs(area.industries, names.industries),
      technologies: termRefs(area.technologies, names.technologies),
      services: recordRefs(catalogue.servicesByCategory.get(area.category) ?? [], 'services', catalogue),
      articles: recordRefs(catalogue.articlesByCategory.get(area.category) ?? [], 'intelligence', catalogue, undefined, 5),
    },
  };
}

export function toTechnologyItem(technology: Technology, catalogue: Catalogue): Api.TechnologyItem {
  return {
    id: technology.id,
    slug: technology.slug,
    name: technology.name,
    summary: technology.summary,
    category: technology.category,
    status: technology.status ?? null,
    open_protocol: technology.open_protocol,
    maintainer: technology.maintainer ?? null,
    website: technology.website ?? null,
    spec_url: technology.spec_url ?? null,
    tags: technology.tags,
    url: recordUrl(catalogue, 'technology', technology.slug),
    updated: technology.updated,
  };
}

/** `item` is the list item when the caller has it already, so shared fields are shaped once. */
export function toTechnologyRecord(technology: Technology, catalogue: Catalogue, item = toTechnologyItem(technology, catalogue)): Api.TechnologyRecord {
  const users = catalogue.usersOfTechnology.get(technology.id);
  return {
    ...item,
    reading_time: readingTime(technology.body),
    content_html: renderMarkdown(technology.body),
    related: {
      category: termRef(technology.category, catalogue.names.technologyCategories),
      services: recordRefs(users?.services ?? [], 'services', catalogue),
      expertise: recordRefs(users?.expertise ?? [], 'expertise', catalogue),
    },
  };
}

export function toArticleItem(article: Article, catalogue: Catalogue): Api.ArticleItem {
  return {
    id: article.id,
    slug: article.slug,
    title: article.title,
    summary: article.summary,
    date: article.date,
    updated: article.updated,
    author: article.author,
    topics: article.topics,
    category: article.category ?? null,
    tags: article.tags,
    image: article.image ? `${catalogue.siteUrl}${article.image}` : null,
    reading_time: readingTime(article.body),
    url: recordUrl(catalogue, 'intelligence', article.slug),
  };
}

/** Up to `max` other articles that share a topic, newest first: merges the (already sorted) topic lists. */
function relatedArticles(article: Article, catalogue: Catalogue, max = 3): Article[] {
  const candidates = new Set<Article>();
  for (const topic of article.topics) {
    let taken = 0;
    for (const other of catalogue.articlesByTopic.get(topic) ?? []) {
      if (taken > max) break;
      if (other !== article) {
        candidates.add(other);
        taken++;
      }
    }
  }
  return [...candidates].sort((a, b) => catalogue.articleRank.get(a)! - catalogue.articleRank.get(b)!).slice(0, max);
}

/** `item` is the list item when the caller has it already, so shared fields are shaped once. */
export function toArticleRecord(article: Article, catalogue: Catalogue, item = toArticleItem(article, catalogue)): Api.ArticleRecord {
  const { names } = catalogue;
  return {
    ...item,
    content_html: renderMarkdown(article.body),
    related: {
      topics: termRefs(article.topics, names.topics),
      category: article.category ? termRef(article.category, names.categories) : null,
      articles: recordRefs(relatedArticles(article, catalogue), 'intelligence', catalogue),
    },
  };
}
