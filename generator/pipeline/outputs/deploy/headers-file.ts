/**
 * The static side's response headers, stated once: written to `_headers` in the build, which Netlify applies
 * to the deployed files and the local server reads and applies the same way (shared/header-rules.ts,
 * server/create-server.ts).
 * CORS on what other sites fetch (the feed, its schema, images), a cache policy per kind of file, and the
 * hardening every page needs: nosniff, a Content-Security-Policy that allows only what each page loads,
 * no framing, and `noindex` on the precomputed API data. A function of the collections (which have pages)
 * and the site's addresses alone, so a new collection or a renamed address changes it without an edit here.
 */
import { createHash } from 'node:crypto';
import { type CollectionTable, markdownCollections } from '../../../schemas/collections.ts';
import { DATA_DIR } from '../../../shared/data-paths.ts';
import { formatHeaderRules, HEADERS_FILE, type HeaderRule } from '../../../shared/header-rules.ts';
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { HOME_STYLE, NOSCRIPT_STYLE } from '../inline-styles.ts';
import type { OutputFile } from '../output-file.ts';

/** The CSP source of one inline block: its SHA-256, as browsers compute it over the exact text. */
const inlineHash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Pages change with every deploy and are small: revalidate each time (the ETag makes that cheap). */
const PAGE_CACHE = 'public, max-age=0, must-revalidate';
const FEED_HEADERS = { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300, must-revalidate' };
const NO_FRAMING = "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
/**
 * Pages without script may still let the browser fetch from their own site: nothing on them can use it, and
 * audit tools (Lighthouse) read robots.txt from within the page, which `default-src 'none'` would refuse.
 */
const SAME_SITE_FETCH = "connect-src 'self'";

/** Record and list pages: no script at all (their JSON-LD is data, which script-src does not govern). */
function recordPageRules(collections: CollectionTable): HeaderRule[] {
  return markdownCollections(collections)
    .filter(([, collection]) => collection.page.schema)
    .map(([, collection]) => ({
      path: `/${collection.page.path}/*`,
      headers: {
        'Cache-Control': PAGE_CACHE,
        'Content-Security-Policy': `default-src 'none'; style-src 'self'; img-src 'self' data:; ${SAME_SITE_FETCH}; ${NO_FRAMING}`,
      },
    }));
}

/** The rules, from the broadest to the most specific; no two rules that match one path set the same header. */
export function createHeaderRules(collections: CollectionTable): HeaderRule[] {
  const { hub, reference, admin, stylesheet, feedFolder, articleFeeds, images } = SITE_ADDRESSES;
  return [
    {
      // On every path however it is spelt: a host that matches rules on the undecoded path (`/%61dmin/`) still
      // refuses to let any page be framed, where the page's own CSP with frame-ancestors would be missed.
      path: '/*',
      headers: { 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'strict-origin-when-cross-origin', 'X-Frame-Options': 'DENY' },
    },
    {
      path: '/',
      headers: {
        'Cache-Control': PAGE_CACHE,
        'Content-Security-Policy': `default-src 'none'; style-src ${inlineHash(HOME_STYLE)}; img-src data:; ${SAME_SITE_FETCH}; ${NO_FRAMING}`,
      },
    },
    {
      path: `/${hub}/*`,
      headers: {
        'Cache-Control': PAGE_CACHE,
        'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self' ${inlineHash(NOSCRIPT_STYLE)}; img-src 'self' data:; connect-src 'self'; ${NO_FRAMING}`,
      },
    },
    {
      // The reference: its own stylesheet and "try it" script, which calls the API on the same origin.
      path: `/${reference}/*`,
      headers: {
        'Cache-Control': PAGE_CACHE,
        'Content-Security-Policy': `default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src 'self'; ${NO_FRAMING}`,
      },
    },
    ...recordPageRules(collections),
    // The pages' stylesheet changes with a deploy like they do.
    { path: `/${stylesheet}`, headers: { 'Cache-Control': PAGE_CACHE } },
    {
      // The content manager: a large single-page app that styles inline, compiles WebAssembly and talks to its
      // Git backend (or, in dev, the local proxy). Never indexed, never framed.
      path: `/${admin}/*`,
      headers: {
        'Cache-Control': PAGE_CACHE,
        'X-Robots-Tag': 'noindex',
        'Content-Security-Policy': `default-src 'self'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self' https: http://localhost:* http://127.0.0.1:*; frame-src 'self' https:; ${NO_FRAMING}`,
      },
    },
    // The feeds exist for other sites' clients and readers: readable from any origin, cached briefly so a new entry shows soon.
    { path: `/${feedFolder}/*`, headers: FEED_HEADERS },
    ...Object.values(articleFeeds).map((feed) => ({ path: `/${feed}`, headers: FEED_HEADERS })),
    {
      // An image opened on its own (an SVG can hold script) runs nothing and loads nothing.
      path: `/${images}/*`,
      headers: {
        'Access-Control-Allow-Origin': '*',
        'Cache-Control': 'public, max-age=86400',
        'Content-Security-Policy': "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'none'; sandbox",
      },
    },
    // The handler's data: public, but not pages to index; the API under /v1/ is what clients call.
    { path: `/${DATA_DIR}/*`, headers: { 'X-Robots-Tag': 'noindex' } },
  ];
}

export function buildHeadersFile(catalogue: Pick<Catalogue, 'collections'>): OutputFile {
  return { path: HEADERS_FILE, body: formatHeaderRules(createHeaderRules(catalogue.collections)) };
}
