/** The Markdown bodies a build renders: those of the published records, and how each body's HTML is had. */
import { type CollectionTable, markdownCollections } from '../schemas/collections.ts';
import { type Content, entriesOf } from '../schemas/content.ts';
import type { BuildCache } from './build-cache.ts';
import { renderBody } from './outputs/render-markdown.ts';
import { bodyLineOf, letTextGo } from './validate/check-record.ts';

/** The bodies of every published record. */
export function* markdownBodies(published: Content, collections: CollectionTable): Generator<string> {
  for (const [key] of markdownCollections(collections)) {
    for (const record of entriesOf(published, key)) yield record.body;
  }
}

/**
 * Outputs that print each published body's HTML in a cold build: its envelope's `content_html`, and its
 * page, which prints the shaped record's and the body's own (the same call twice).
 */
const USES = 2;

/**
 * Each body's HTML, from the rendering the build started (`rendered`) or made here, let go once the outputs
 * that print it have had it, and the record's text with it (`letTextGo`): kept to the end, every body's HTML
 * was 2.6 KB an article of the build's heap (2.6 GB at a million), its file's text 2.85 KB. A later use (an
 * article in the feeds, a body two records share) reads and renders it again, to the same bytes.
 */
function renderLettingGo(rendered: Map<string, string> | undefined, render: Render, letTextGo: (record: object) => void): Render {
  const made = rendered ?? new Map<string, string>();
  const uses = new Map<string, number>();
  return (record) => {
    let html = made.get(record.body);
    if (html === undefined) {
      html = render(record);
      made.set(record.body, html);
    }
    const used = (uses.get(record.body) ?? 0) + 1;
    if (used < USES) uses.set(record.body, used);
    else {
      made.delete(record.body);
      uses.delete(record.body);
      letTextGo(record);
    }
    return html;
  };
}

type Render = (record: { body: string; file: string }) => string;

/** A published record's body as HTML; a body the renderer refuses is reported with the line of its file (renderBody). */
export const renderRecordBody: Render = (record) => renderBody(record, bodyLineOf);

/**
 * A body's HTML for the build's outputs: kept across builds in `cache` when the caller keeps one (npm run dev),
 * else let go once used, with the record's text (renderLettingGo). `rendered`: what the build's rendering already made.
 */
export function bodyRenderer(cache: BuildCache | undefined, rendered: Map<string, string> | undefined, render: Render): Render {
  if (!cache) return renderLettingGo(rendered, render, letTextGo);
  return (record) => cache.memo('html', record.body, () => rendered?.get(record.body) ?? render(record));
}
