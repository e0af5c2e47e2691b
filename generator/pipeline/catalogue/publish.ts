/** What is published: no drafts anywhere, and no article dated after the build. */
import type { Content } from '../../schemas/collections.ts';

export type Published = Content;

/** `buildDate` is the build's calendar day (YYYY-MM-DD, UTC); an article dated after it is scheduled. */
export function selectPublished(content: Content, buildDate: string): Published {
  const live = <T extends { draft: boolean }>(records: T[]) => records.filter((record) => !record.draft);
  const technology = live(content.technology);
  // A reference to a draft technology would name a record the API answers 404 for: it goes too.
  const usable = new Set([...technology.map((record) => record.id), ...content.platforms.map((platform) => platform.id)]);
  const withPublishedTechnologies = <T extends { technologies: string[] }>(record: T): T => ({
    ...record,
    technologies: record.technologies.filter((id) => usable.has(id)),
  });
  return {
    ...content,
    services: live(content.services).map(withPublishedTechnologies),
    expertise: live(content.expertise).map(withPublishedTechnologies),
    technology,
    intelligence: live(content.intelligence).filter((article) => article.date <= buildDate),
    resources: live(content.resources),
  };
}
