/** The lines a build (and a check) prints about what it publishes and what it leaves out. */
import type { Preview, PublicationCount } from './catalogue/publish.ts';

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** `published: 10 services, ...`, then what is left out (or, in a preview, included) and when the next record goes live. */
export function formatPublication(counts: readonly PublicationCount[], preview: Preview): string[] {
  const lines = [`  published: ${counts.map((count) => `${count.published} ${count.name}`).join(', ')}`];
  const drafts = counts.filter((count) => count.drafts > 0).map((count) => `${count.drafts} in ${count.name}`);
  const scheduled = counts.filter((count) => count.scheduled > 0).map((count) => `${count.scheduled} in ${count.name}`);
  const next = counts
    .map((count) => count.nextDate)
    .filter((date): date is string => date !== undefined)
    .sort()[0];
  const draftTotal = counts.reduce((sum, count) => sum + count.drafts, 0);
  const scheduledTotal = counts.reduce((sum, count) => sum + count.scheduled, 0);
  if (drafts.length) {
    lines.push(
      preview.drafts
        ? `  PREVIEW: includes ${plural(draftTotal, 'draft')} (${drafts.join(', ')}); not for deploying`
        : `  left out: ${plural(draftTotal, 'draft')} (${drafts.join(', ')}); --drafts includes them in a preview`,
    );
  }
  if (scheduled.length) {
    lines.push(
      preview.future
        ? `  PREVIEW: includes ${plural(scheduledTotal, 'scheduled record')} (${scheduled.join(', ')}); not for deploying`
        : `  left out: ${plural(scheduledTotal, 'scheduled record')} (${scheduled.join(', ')}), the next going live on ${next}; --future includes them in a preview`,
    );
  }
  return lines;
}
