/**
 * CONTRACT "Ordering and determinism". Comparisons are by code unit, never locale, so every machine
 * sorts the same way.
 */
import { compareText } from '../../shared/compare-text.ts';

/** Services, expertise, categories, topics, industries: `order`, then title or name. */
export const byOrderThen =
  <T extends { order: number }>(label: (item: T) => string) =>
  (a: T, b: T) =>
    a.order - b.order || compareText(label(a), label(b)) || compareText(String((a as { id?: string }).id ?? ''), String((b as { id?: string }).id ?? ''));

/** Articles: newest `date` first, then id. */
export const byNewest = (a: { date: string; id: string }, b: { date: string; id: string }) =>
  compareText(b.date, a.date) || compareText(a.id, b.id);

/** Feed entries: newest `updated` first, then id. */
export const byNewestUpdate = (a: { updated: string; id: string }, b: { updated: string; id: string }) =>
  compareText(b.updated, a.updated) || compareText(a.id, b.id);
