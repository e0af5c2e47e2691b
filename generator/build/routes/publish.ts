/** What is published: no drafts anywhere, and no article dated after the build. */
import type { Content } from '../../schemas/registry.ts';

export type Published = Content;

/** `buildDate` is the build's calendar day (YYYY-MM-DD, UTC); an article dated after it is scheduled. */
export function selectPublished(content: Content, buildDate: string): Published {
  const live = <T extends { draft: boolean }>(records: T[]) => records.filter((record) => !record.draft);
  return {
    ...content,
    services: live(content.services),
    expertise: live(content.expertise),
    technology: live(content.technology),
    intelligence: live(content.intelligence).filter((article) => article.date <= buildDate),
    resources: live(content.resources),
  };
}
