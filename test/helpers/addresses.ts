/**
 * The site's public addresses as tests ask for them, from the generator's one table
 * (generator/shared/site-addresses.ts): site-absolute paths, and where each is in the build output. Only
 * test/pages/site-addresses.test.ts spells them, to hold the table to the contract.
 */
import { folderAddress, SITE_ADDRESSES } from '../../generator/shared/site-addresses.ts';

const file = (path: string) => `/${path}`;

export const ADDRESS = {
  hub: folderAddress(SITE_ADDRESSES.hub),
  reference: folderAddress(SITE_ADDRESSES.reference),
  admin: folderAddress(SITE_ADDRESSES.admin),
  stylesheet: file(SITE_ADDRESSES.stylesheet),
  resourceFeed: file(SITE_ADDRESSES.resourceFeed),
  entrySchema: file(SITE_ADDRESSES.entrySchema),
  rss: file(SITE_ADDRESSES.articleFeeds.rss),
  atom: file(SITE_ADDRESSES.articleFeeds.atom),
  jsonFeed: file(SITE_ADDRESSES.articleFeeds.json),
  sitemap: file(SITE_ADDRESSES.sitemap),
  robots: file(SITE_ADDRESSES.robots),
  llmsTxt: file(SITE_ADDRESSES.llmsTxt),
};

/** Where a site address is in the build output: `/docs/` -> `docs/index.html`, `/feed.xml` -> `feed.xml`. */
export const outputPath = (address: string) => `${address.slice(1)}${address.endsWith('/') ? 'index.html' : ''}`;
