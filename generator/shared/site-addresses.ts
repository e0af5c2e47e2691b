/**
 * The site's public addresses outside the API (`/v1/`, shared/policy.ts) and the data the handler reads
 * (data-paths.ts), each said once: the pages, the `_headers` rules, the sitemap, the content manager's
 * configuration, the feeds and the tests all take them from here, so renaming one is one line.
 *
 * Folders are site-relative without slashes (`docs`, written to `docs/index.html` and linked as `/docs/`);
 * files are site-relative paths (`site.css`). The contract names most of them (docs/api.md, "Outside the
 * API"); the stylesheet and the reference's own files are the site's to name.
 */

/** The folder of the resource feed and its entry schema, which other sites fetch (CORS). */
const FEED_FOLDER = 'api';

export const SITE_ADDRESSES = {
  /** The API reference, rendered from the OpenAPI document, with its assets and a copy of the document. */
  reference: 'docs',
  /** The content manager (the browser editor) and its configuration. */
  admin: 'admin',
  /** The resources hub, which is also the folder of every resource's page. */
  hub: 'resources',
  /** The one stylesheet every content page (and the editor's preview) loads. */
  stylesheet: 'site.css',
  feedFolder: FEED_FOLDER,
  /** The static resource feed and the JSON Schema of one of its entries. */
  resourceFeed: `${FEED_FOLDER}/resources.json`,
  entrySchema: `${FEED_FOLDER}/resources-entry.schema.json`,
  /** The feeds of the latest articles, one per format; every page links them. */
  articleFeeds: { rss: 'feed.xml', atom: 'atom.xml', json: 'feed.json' },
  sitemap: 'sitemap.xml',
  robots: 'robots.txt',
  llmsTxt: 'llms.txt',
  /** The images copied from the content folder, where content refers to them (`/images/...`). */
  images: 'images',
} as const;

/** `docs` -> `/docs/`: the site-absolute address of a folder's page (before the site's base path). */
export const folderAddress = (folder: string) => `/${folder}/`;
