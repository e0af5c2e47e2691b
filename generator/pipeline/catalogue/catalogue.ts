/**
 * The published content, sorted once in contract order and indexed for the lookups the route builders
 * need (names by id, records by category, topic or technology), so shaping a record never scans.
 */
import type { Article, Content, Expertise, Service, Technology } from '../../schemas/collections.ts';
import type { Term } from '../../schemas/taxonomies.ts';
import { byNewest, byOrderThen } from './order.ts';

export interface Catalogue {
  site: Content['site'];
  siteUrl: string;
  builtAt: string;
  categories: Term[];
  industries: Term[];
  topics: Term[];
  technologyCategories: Content['technologyCategories'];
  platforms: Content['platforms'];
  services: Service[];
  expertise: Expertise[];
  technology: Technology[];
  articles: Article[];
  resources: Content['resources'];
  /** Display names of every taxonomy term, technology and platform, by id. */
  names: {
    categories: Map<string, string>;
    industries: Map<string, string>;
    topics: Map<string, string>;
    technologyCategories: Map<string, string>;
    technologies: Map<string, string>;
  };
  /** Position of each article in newest-first order, for merging per-topic lists. */
  articleRank: Map<Article, number>;
  articlesByTopic: Map<string, Article[]>;
  articlesByCategory: Map<string, Article[]>;
  servicesByCategory: Map<string, Service[]>;
  expertiseByCategory: Map<string, Expertise[]>;
  /** Services and expertise that list a technology or platform id. */
  usersOfTechnology: Map<string, { services: Service[]; expertise: Expertise[] }>;
}

function groupBy<T>(items: T[], keys: (item: T) => readonly (string | undefined)[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    for (const key of keys(item)) {
      if (key === undefined) continue;
      const group = groups.get(key);
      if (group) group.push(item);
      else groups.set(key, [item]);
    }
  }
  return groups;
}

const namesOf = (items: readonly { id: string; name: string }[]) => new Map(items.map((item) => [item.id, item.name]));

export function createCatalogue(content: Content, options: { siteUrl: string; builtAt: string }): Catalogue {
  const byTitle = byOrderThen<{ order: number; title: string }>((item) => item.title);
  const byName = byOrderThen<{ order: number; name: string }>((item) => item.name);
  const services = [...content.services].sort(byTitle);
  const expertise = [...content.expertise].sort(byTitle);
  const technology = [...content.technology].sort(byName);
  const articles = [...content.intelligence].sort(byNewest);

  const usersOfTechnology = new Map<string, { services: Service[]; expertise: Expertise[] }>();
  const usersOf = (id: string) => {
    let users = usersOfTechnology.get(id);
    if (!users) usersOfTechnology.set(id, (users = { services: [], expertise: [] }));
    return users;
  };
  for (const service of services) for (const id of service.technologies) usersOf(id).services.push(service);
  for (const area of expertise) for (const id of area.technologies) usersOf(id).expertise.push(area);

  return {
    site: content.site,
    siteUrl: options.siteUrl,
    builtAt: options.builtAt,
    categories: [...content.categories].sort(byName),
    industries: [...content.industries].sort(byName),
    topics: [...content.topics].sort(byName),
    technologyCategories: [...content.technologyCategories].sort(byName),
    platforms: [...content.platforms].sort(byName),
    services,
    expertise,
    technology,
    articles,
    resources: content.resources,
    names: {
      categories: namesOf(content.categories),
      industries: namesOf(content.industries),
      topics: namesOf(content.topics),
      technologyCategories: namesOf(content.technologyCategories),
      technologies: new Map([...namesOf(content.platforms), ...technology.map((item) => [item.id, item.name] as const)]),
    },
    articleRank: new Map(articles.map((article, index) => [article, index])),
    articlesByTopic: groupBy(articles, (article) => article.topics),
    articlesByCategory: groupBy(articles, (article) => [article.category]),
    servicesByCategory: groupBy(services, (service) => [service.category]),
    expertiseByCategory: groupBy(expertise, (area) => [area.category]),
    usersOfTechnology,
  };
}
