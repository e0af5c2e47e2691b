/** llms.txt (the llmstxt.org convention): what the site is, and links an agent can follow, every one answering. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createHandler } from '../../generator/edge/handler.ts';
import { MCP_PATH } from '../../generator/shared/policy.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';
import { buildInto, readEnvelope, removeBuildDirs, SITE_URL } from '../helpers/build-output.ts';
import { VALID_FIXTURE } from '../helpers/fixture.ts';
import { ADDRESS, outputPath } from '../helpers/addresses.ts';

let dist: string;
let text: string;
beforeAll(async () => {
  dist = await buildInto(VALID_FIXTURE);
  text = readFileSync(path.join(dist, outputPath(ADDRESS.llmsTxt)), 'utf8');
});
afterAll(removeBuildDirs);

describe('llms.txt', () => {
  it('names the site, says what it is in a blockquote, then lists links in sections', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('# Fixture Digital');
    expect(lines[2]).toMatch(
      /^> A read-only, public JSON API over the Fixture Digital catalogue: services, expertise, technologies and articles/,
    );
    expect(lines.filter((line) => line.startsWith('## '))).toEqual(['## API', '## Collections', '## Resources', '## Optional']);
  });

  it('lists every collection the API serves with its published count', () => {
    const { records } = readEnvelope<{ records: Record<string, number> }>(dist, 'health.json').data;
    for (const [group, count] of Object.entries(records)) {
      expect(text).toContain(`(${SITE_URL}/v1/${group}/list): ${count} published;`);
    }
  });

  it('links only to what the site answers', async () => {
    const handler = createHandler({ assets: createMemoryAssets(readDistFiles(dist)), limiter: createMemoryLimiter({ limit: 1000 }) });
    const links = [...text.matchAll(/\]\((https?:[^)]+)\)/g)].map((match) => match[1]!);
    expect(links.length).toBeGreaterThan(10);
    for (const link of links) {
      expect(link.startsWith(`${SITE_URL}/`), link).toBe(true);
      const { pathname, search } = new URL(link);
      if (pathname.startsWith('/v1')) {
        const response = await handler(new Request(`http://api.test${pathname}${search}`), { ip: '192.0.2.5' });
        expect(response.status, link).toBe(200);
      } else if (pathname === MCP_PATH) {
        // The MCP endpoint answers POSTed JSON-RPC; test/mcp speaks to it with the SDK's client.
        const { createMcpHandler } = await import('../../generator/mcp/mcp-handler.ts');
        const mcp = createMcpHandler({ assets: createMemoryAssets(readDistFiles(dist)), limiter: createMemoryLimiter({ limit: 1000 }) });
        const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
        const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        const response = await mcp(new Request(`http://api.test${pathname}`, { method: 'POST', headers, body: JSON.stringify(ping) }), {
          ip: '192.0.2.5',
        });
        expect(await response.json(), link).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
      } else {
        expect(existsSync(path.join(dist, pathname.endsWith('/') ? `${pathname}index.html` : pathname)), link).toBe(true);
      }
    }
  });
});
