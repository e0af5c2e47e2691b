/**
 * schema.org JSON-LD for a record page, by the type the collections table gives its collection's pages:
 * what a search engine or an agent reading the page learns about the record without parsing the prose.
 */
import type { AnyEntry, PageSchema } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';

type Json = Record<string, unknown>;

interface Subject {
  record: AnyEntry;
  /** The record as its get route answers it. */
  shaped: Json;
  key: string;
  catalogue: Catalogue;
}

const organization = (catalogue: Catalogue) => ({ '@type': 'Organization', name: catalogue.site.name, url: catalogue.siteUrl });
const categoryName = ({ shaped }: Subject) => (shaped.related as { category?: { name?: string } } | undefined)?.category?.name;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
/** The record's field in one of the roles its collection names (title, summary, date). */
const role = ({ shaped, record, key, catalogue }: Subject, name: 'title' | 'summary' | 'date') => {
  const field = catalogue.collection(key).fields[name];
  return field === undefined ? undefined : (shaped[field] ?? record[field]);
};

const BUILDERS: Record<PageSchema, (subject: Subject) => Json> = {
  Article: (subject) => ({
    headline: role(subject, 'title'),
    datePublished: role(subject, 'date'),
    dateModified: subject.record.updated,
    author: { '@type': 'Person', name: subject.record.author },
    publisher: organization(subject.catalogue),
    articleSection: categoryName(subject),
    keywords: subject.record.tags,
    // Already absolute in the API's shape.
    image: text(subject.shaped.image),
  }),
  Service: (subject) => ({
    name: role(subject, 'title'),
    serviceType: categoryName(subject),
    provider: organization(subject.catalogue),
    dateModified: subject.record.updated,
  }),
  DefinedTerm: (subject) => ({
    name: role(subject, 'title'),
    inDefinedTermSet: `${subject.catalogue.siteUrl}/${subject.catalogue.collection(subject.key).page.path}/`,
    dateModified: subject.record.updated,
  }),
  SoftwareApplication: (subject) => ({
    name: role(subject, 'title'),
    applicationCategory: categoryName(subject),
    sameAs: text(subject.shaped.website),
    maintainer: text(subject.shaped.maintainer) && { '@type': 'Organization', name: subject.shaped.maintainer },
  }),
};

/** The JSON-LD object of a record page (without `@context`), undefined fields left out. */
export function recordJsonLd(schema: PageSchema, subject: Subject): Json {
  const data: Json = {
    '@type': schema,
    ...BUILDERS[schema](subject),
    description: role(subject, 'summary'),
    url: subject.shaped.url,
  };
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined && value !== null));
}
