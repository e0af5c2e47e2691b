/**
 * Feeds of the latest articles for people's readers: RSS 2.0 and Atom (written by the `feed` library, which
 * gets XML escaping and each format's details right) and JSON Feed 1.1 (plain JSON, written here: the library
 * writes version 1). The latest FEED_ITEMS articles, with their full content, addressed on the site URL.
 */
import { Feed } from 'feed';
import { type AnyEntry, feedSource } from '../../../schemas/collections.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import type { OutputFile } from '../output-file.ts';
import { escapeHtml } from '../html.ts';
import { SITE_ADDRESSES } from '../../../shared/site-addresses.ts';

/** How many of the newest articles a feed carries. */
export const FEED_ITEMS = 20;

/** Where the feeds live (every page links them, html.ts). */
const FEEDS = SITE_ADDRESSES.articleFeeds;

const dayTime = (day: string) => `${day}T00:00:00Z`;

interface FeedItem {
  url: string;
  title: string;
  summary: string;
  html: string;
  author: string;
  published: string;
  updated: string;
  tags: string[];
}

/** The items of the collection the table flags as the articles' (in its order, newest first); `author` and `topics` as an article has them. */
function toItems(catalogue: Catalogue, key: string): FeedItem[] {
  const { fields } = catalogue.collection(key);
  return (catalogue.records[key] ?? []).slice(0, FEED_ITEMS).map((article: AnyEntry) => ({
    url: catalogue.recordUrl(key, article),
    title: String(article[fields.title]),
    summary: String(article[fields.summary]),
    html: catalogue.render(article),
    author: String(article.author),
    published: dayTime(String(article[fields.date ?? 'updated'])),
    updated: dayTime(article.updated),
    tags: (article.topics as string[] | undefined) ?? [],
  }));
}

function jsonFeed(catalogue: Catalogue, items: FeedItem[], title: string, home: string): string {
  return `${JSON.stringify(
    {
      version: 'https://jsonfeed.org/version/1.1',
      title,
      home_page_url: home,
      feed_url: `${catalogue.siteUrl}/${FEEDS.json}`,
      description: `The latest articles from ${catalogue.site.name}.`,
      language: catalogue.site.language,
      items: items.map((item) => ({
        id: item.url,
        url: item.url,
        title: item.title,
        summary: item.summary,
        content_html: item.html,
        date_published: item.published,
        date_modified: item.updated,
        authors: [{ name: item.author }],
        tags: item.tags,
      })),
    },
    null,
    2,
  )}\n`;
}

/**
 * Atom with the item text as the feed library writes it (`type="html"`): titles and summaries are text, so
 * they are escaped first and a reader shows "Using <details>" as written rather than as markup. RSS keeps
 * its title as plain text (RSS 2.0 says so; readers that treat it as HTML get the escaped form from Atom)
 * and its description, which RSS defines as HTML, escaped. Each Atom category has its `term` (RFC 4287
 * requires it), the topic id, labelled with the topic's name.
 */
function addItems(feed: Feed, items: FeedItem[], topicName: (id: string) => string, atom: boolean): void {
  for (const item of items) {
    feed.addItem({
      id: item.url,
      link: item.url,
      title: atom ? escapeHtml(item.title) : item.title,
      description: escapeHtml(item.summary),
      content: item.html,
      author: [{ name: item.author }],
      date: new Date(item.updated),
      published: new Date(item.published),
      category: item.tags.map((id) => ({ term: id, name: topicName(id) })),
    });
  }
}

export function buildArticleFeeds(catalogue: Catalogue): OutputFile[] {
  const { site, siteUrl } = catalogue;
  const key = feedSource(catalogue.collections, 'articles');
  const items = toItems(catalogue, key);
  const title = `${site.name}: articles`;
  const home = `${siteUrl}/${catalogue.collection(key).page.path}/`;
  const newest = items.reduce(
    (latest, item) => (item.updated > latest ? item.updated : latest),
    items[0]?.updated ?? catalogue.contentTime,
  );
  const options = {
    id: home,
    link: home,
    title,
    description: `The latest articles from ${site.name}.`,
    language: site.language,
    updated: new Date(newest),
    generator: site.name,
    copyright: site.license?.name ?? `© ${site.name}`,
    feedLinks: { rss: `${siteUrl}/${FEEDS.rss}`, atom: `${siteUrl}/${FEEDS.atom}` },
  };
  // The terms the articles' `topics` field references, as the table says.
  const topics = catalogue.collection(key).references?.topics;
  const names = catalogue.names(Array.isArray(topics) ? topics : []);
  const topicName = (id: string) => names.get(id) ?? id;
  const rss = new Feed(options);
  addItems(rss, items, topicName, false);
  const atom = new Feed(options);
  addItems(atom, items, topicName, true);
  return [
    { path: FEEDS.rss, body: rss.rss2() },
    { path: FEEDS.atom, body: atom.atom1() },
    { path: FEEDS.json, body: jsonFeed(catalogue, items, title, home) },
  ];
}
