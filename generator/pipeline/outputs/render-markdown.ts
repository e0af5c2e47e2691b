/** Markdown to HTML for `content_html`: raw HTML is escaped so clients can embed the result as it is. */
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.ts';
import { plainTextRun } from './plain-text-run.ts';
import { maybeSetextHeading, maybeTable } from './possible-blocks.ts';

/** Links and images may only point to the web or the site itself: no `javascript:` or `data:`. */
function isSafeHref(href: string): boolean {
  // Browsers drop control characters and spaces inside a scheme (`java\tscript:`), so they are dropped here too.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim().replace(/[\u0000-\u0020]/g, ''));
  return !scheme || ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

const marked = new Marked({
  gfm: true,
  async: false,
  tokenizer: {
    // undefined is marked's own answer for no such block (possible-blocks.ts); false hands the question to its pattern.
    lheading: (src: string) => (maybeSetextHeading(src) ? false : undefined),
    table: (src: string) => (maybeTable(src) ? false : undefined),
    // The same token as marked's own, found faster where plainTextRun is sure of it; false hands it to marked.
    inlineText(src: string) {
      const raw = plainTextRun(src);
      return raw === undefined ? false : { type: 'text', raw, text: raw, escaped: this.lexer.state.inRawBlock };
    },
  },
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag) {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      if (!isSafeHref(href)) return inner;
      return `<a href="${escapeHtml(href)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${inner}</a>`;
    },
    image({ href, title, text }: Tokens.Image) {
      if (!isSafeHref(href)) return escapeHtml(text);
      return `<img src="${escapeHtml(href)}" alt="${escapeHtml(text)}"${title ? ` title="${escapeHtml(title)}"` : ''}>`;
    },
  },
});

export function renderMarkdown(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

/**
 * A record's body as HTML. A body the renderer cannot handle (nesting deep enough to exhaust the stack) fails
 * the build with the file it came from, not with the renderer's own words alone.
 */
export function renderBody(record: { body: string; file: string }): string {
  try {
    return renderMarkdown(record.body);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`${record.file}: the body could not be rendered as Markdown (${reason}); simplify its nesting`);
  }
}
