/** Markdown to HTML for `content_html`: raw HTML is escaped so clients can embed the result as it is. */
import { Lexer, Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.ts';
import { plainTextRun } from './plain-text-run.ts';
import { maybeSetextHeading, maybeTable } from './possible-blocks.ts';
import {
  charge,
  chargeLinkText,
  emailLookaheadWork,
  endWork,
  LIST_REREAD,
  meteredInlineRules,
  quoteWork,
  startWork,
  TooMuchWork,
  tagWork,
  urlWork,
  WORK_PER_CHARACTER,
} from './render-work.ts';
import { lineAt } from '../../shared/text-lines.ts';

/** Links and images may only point to the web or the site itself: no `javascript:` or `data:`. */
function isSafeHref(href: string): boolean {
  // Browsers drop control characters and spaces inside a scheme (`java\tscript:`), so they are dropped here too.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.trim().replace(/[\u0000-\u0020]/g, ''));
  return !scheme || ['http', 'https', 'mailto'].includes(scheme[1]!.toLowerCase());
}

/**
 * The closer patterns of emphasis and strikethrough counted (render-work.ts), in marked's GFM inline rules
 * themselves, which every lexer of marked's takes: a hook that hands marked a lexer of our own would do, but any
 * hook makes marked mask every inline run for its emphasis step, 11% more time on the synthetic bodies. Outside
 * renderMarkdown nothing is counted, so another user of marked in the process sees the same patterns at work.
 */
const GFM_INLINE = (Lexer.rules.inline as unknown as { gfm: Parameters<typeof meteredInlineRules>[0] }).gfm;
Object.assign(GFM_INLINE, meteredInlineRules(GFM_INLINE));

/** Where marked's link steps look for a link: at a `[` or `![`. */
const isLinkStart = (src: string) => src.charCodeAt(0) === 0x5b || (src.charCodeAt(0) === 0x21 && src.charCodeAt(1) === 0x5b);

const marked = new Marked({
  gfm: true,
  async: false,
  tokenizer: {
    // Counted before marked's step runs, which is where the time goes (render-work.ts); false leaves it to that step.
    blockquote(src: string) {
      if (/^ {0,3}>/.test(src)) charge(quoteWork(src), src);
      return false;
    },
    // A list inside a list item is read again by every list around it: counted before marked's step reads it, by
    // the rest of the item's text, which it may run to (render-work.ts); false leaves it to that step.
    list(src: string) {
      if (!this.lexer.state.top && this.rules.block.list.test(src)) charge(src.length * LIST_REREAD, src);
      return false;
    },
    // undefined is marked's own answer for no such block (possible-blocks.ts); false hands the question to its pattern.
    lheading: (src: string) => (maybeSetextHeading(src) ? false : undefined),
    table: (src: string) => (maybeTable(src) ? false : undefined),
    // Raw HTML and autolinks, counted before marked's steps read them (render-work.ts); false leaves them to those steps.
    tag(src: string) {
      charge(tagWork(src), src);
      return false;
    },
    url(src: string) {
      charge(urlWork(src), src);
      return false;
    },
    link(src: string) {
      if (this.lexer.state.linkParenPossible && isLinkStart(src)) chargeLinkText(src, true);
      return false;
    },
    reflink(src: string) {
      if (isLinkStart(src)) chargeLinkText(src, false);
      return false;
    },
    // The same token as marked's own, found faster where plainTextRun is sure of it; false hands it to marked.
    inlineText(src: string) {
      const raw = plainTextRun(src);
      if (raw !== undefined) return { type: 'text', raw, text: raw, escaped: this.lexer.state.inRawBlock };
      charge(emailLookaheadWork(src), src);
      return false;
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

/** A body as HTML; throws TooMuchWork where it would cost the renderer more than its length allows (render-work.ts). */
export function renderMarkdown(markdown: string): string {
  startWork(markdown.length);
  try {
    return marked.parse(markdown, { async: false });
  } finally {
    endWork();
  }
}

/** The 1-based line of `body` where `at` (text the renderer was working on) begins, or 1 where it cannot be found. */
function lineOf(body: string, at: string): number {
  const newline = at.indexOf('\n');
  const firstLine = at.slice(0, Math.min(80, newline < 0 ? at.length : newline));
  return lineAt(body, firstLine ? body.indexOf(firstLine) : -1);
}

/**
 * A record's body as HTML. A body the renderer cannot handle (nesting deep enough to exhaust the stack, or a shape
 * that would hold it for minutes: render-work.ts) fails the build with the file it came from, not with the
 * renderer's own words alone. `bodyLine`: the line of its file a record's body starts on.
 */
export function renderBody(record: { body: string; file: string }, bodyLine: (record: object) => number): string {
  try {
    return renderMarkdown(record.body);
  } catch (error) {
    if (error instanceof TooMuchWork) {
      const line = bodyLine(record) + lineOf(record.body, error.at) - 1;
      throw new Error(
        `${record.file}:${line}: body: from about this line, the text would keep the Markdown renderer busy far longer than its ` +
          `length warrants (over ${WORK_PER_CHARACTER} steps a character, where prose takes about one at most): runs of *, _ or ~ ` +
          'that never close, emphasis or lists nested many levels deep, words thousands of characters long, or quoted (>) lines ' +
          'alternating with unquoted ones, by the hundred in one paragraph. Any prose is allowed; split such a stretch with blank ' +
          'lines or write it in a code block',
      );
    }
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new Error(`${record.file}: the body could not be rendered as Markdown (${reason}); simplify its nesting`);
  }
}
