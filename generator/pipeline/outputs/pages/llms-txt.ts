/**
 * `llms.txt` at the site root (the llmstxt.org convention): what the site is and where an agent finds the API's
 * reference, its OpenAPI document, each collection, the feed and the main pages, written from the content.
 */
import { apiCollections } from '../../../schemas/collections.ts';
import { folderAddress, SITE_ADDRESSES } from '../../../shared/site-addresses.ts';
import { joinWords } from '../../../shared/operations.ts';
import { API_BASE_PATH, MCP_PATH, RATE_LIMIT } from '../../../shared/policy.ts';
import type { Catalogue } from '../../catalogue/catalogue.ts';
import { humanize } from '../labels.ts';
import type { OutputFile } from '../output-file.ts';

/**
 * Content as one line of Markdown text. `site.yaml` is content, and llms.txt is Markdown that agents follow:
 * a description with a line break and "## API" added a section with a link to another OpenAPI document.
 * Line breaks become spaces, every character that makes markup or a link is escaped, and so is the `:` of
 * an address and the `.` after `www`, so that nothing in it becomes a heading, a link or an autolink.
 */
export const markdownText = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_{}[\]()#<>!|~:]/g, '\\$&')
    .replace(/www\./gi, (www) => `${www.slice(0, 3)}\\.`);

export function buildLlmsTxt(catalogue: Catalogue): OutputFile {
  const { siteUrl } = catalogue;
  const site = {
    name: markdownText(catalogue.site.name),
    hub: { name: markdownText(catalogue.site.hub.name), description: markdownText(catalogue.site.hub.description) },
  };
  const base = `${siteUrl}${API_BASE_PATH}`;
  const served = apiCollections(catalogue.collections);
  const searchable = served.filter(([, collection]) => collection.api.search).map(([, collection]) => collection.api.label);
  const collections = served.map(([key, { api }]) => {
    const count = catalogue.records[key]?.length ?? 0;
    return `- [${humanize(api.label)}](${base}/${api.path}/list): ${count} published; ${api.about} Get one with ${API_BASE_PATH}/${api.path}/get?id=`;
  });
  const lines = [
    `# ${site.name}`,
    '',
    `> A read-only, public JSON API over the ${site.name} catalogue: ${joinWords(served.map(([, { api }]) => api.label))}, with natural-language search. No key is needed; send GET requests, at most ${RATE_LIMIT.requests} per ${RATE_LIMIT.windowSeconds} seconds.`,
    '',
    'Every answer is `{ success, data, meta }`; lists take `limit` and `offset`; errors are `{ success: false, error: { code, message } }`.',
    '',
    '## API',
    '',
    `- [API reference](${siteUrl}${folderAddress(SITE_ADDRESSES.reference)}): every operation, parameter and response, with examples`,
    `- [OpenAPI 3.1 document](${base}/openapi.json): the machine-readable description, for code generators and agents`,
    `- [Index of operations](${base}/): the API root, as JSON`,
    `- [Search](${base}/search?q=agentic%20commerce): natural-language search over ${joinWords(searchable)}; \`type\` narrows it`,
    `- [MCP endpoint](${siteUrl}${MCP_PATH}): Model Context Protocol (Streamable HTTP, stateless): tools search, get_record, list_records and latest_articles over the same data`,
    '',
    '## Collections',
    '',
    ...collections,
    '',
    '## Resources',
    '',
    `- [${site.hub.name}](${siteUrl}${folderAddress(SITE_ADDRESSES.hub)}): ${site.hub.description}`,
    `- [Resource feed](${siteUrl}/${SITE_ADDRESSES.resourceFeed}): the same entries as JSON`,
    '',
    '## Optional',
    '',
    `- [Health](${base}/health): version and record counts`,
    `- [Home](${siteUrl}/): a short page that links everything above`,
    '',
  ];
  return { path: SITE_ADDRESSES.llmsTxt, body: lines.join('\n') };
}
