/**
 * The MCP endpoint with the official SDK's client over real HTTP: the tools, each call against what `/v1/`
 * answers, bad arguments, the shared rate limit, and the same calls through the Netlify adapter under Deno.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { buildInto, removeBuildDirs, SEMANTIC_ON } from '../helpers/build-output.ts';
import { startSiteServer, type SiteServer } from '../helpers/site-server.ts';

type Result = { content: { type: string; text: string }[]; structuredContent?: { data: unknown; pagination?: unknown }; isError?: boolean };

let dist: string;
let server: SiteServer;
let client: Client;

async function connect(url: string): Promise<Client> {
  const connected = new Client({ name: 'test', version: '1.0.0' });
  await connected.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  return connected;
}

const call = (name: string, args: Record<string, unknown>) => client.callTool({ name, arguments: args }) as Promise<Result>;
const api = async (path: string) =>
  (await (await fetch(`${server.url}/v1/${path}`)).json()) as { data: unknown; meta: { pagination?: unknown } };

/** The calls both runtimes make, and the `/v1/` address each must agree with. */
const CALLS: { name: string; arguments: Record<string, unknown>; api: string }[] = [
  { name: 'search', arguments: { q: 'how can AI agents pay', limit: 3 }, api: 'search?q=how+can+AI+agents+pay&limit=3' },
  { name: 'search', arguments: { q: 'checkout', type: 'services' }, api: 'search?q=checkout&type=services' },
  { name: 'search', arguments: { q: 'blind people', limit: 2 }, api: 'search?q=blind+people&limit=2' },
  {
    name: 'get_record',
    arguments: { collection: 'technology', id: 'agent-payments-protocol' },
    api: 'technology/get?id=agent-payments-protocol',
  },
  {
    name: 'list_records',
    arguments: { collection: 'expertise', industry: 'healthcare', limit: 2 },
    api: 'expertise/list?industry=healthcare&limit=2',
  },
  { name: 'list_records', arguments: { collection: 'intelligence', offset: 3, limit: 4 }, api: 'intelligence/list?offset=3&limit=4' },
  { name: 'latest_articles', arguments: {}, api: 'intelligence/latest' },
];

beforeAll(async () => {
  dist = await buildInto('content', SEMANTIC_ON);
  server = await startSiteServer(dist, { handler: { limiter: createMemoryLimiter({ limit: 1_000_000 }) } });
  client = await connect(server.url);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.close();
  removeBuildDirs();
});

describe('the MCP endpoint', () => {
  it('lists the four tools, each with an input schema that says what it needs', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['search', 'get_record', 'list_records', 'latest_articles']);
    const schema = (name: string) =>
      tools.find((tool) => tool.name === name)!.inputSchema as { required?: string[]; properties: Record<string, { enum?: string[] }> };
    expect(schema('search').required).toEqual(['q']);
    expect(schema('search').properties.type!.enum).toEqual(['all', 'services', 'expertise', 'intelligence']);
    expect(schema('get_record').required).toEqual(['collection', 'id']);
    expect(schema('list_records').properties.collection!.enum).toEqual(['services', 'expertise', 'technology', 'intelligence']);
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(20);
  });

  it.each(CALLS)('answers $name $arguments with what /v1/$api answers', async ({ name, arguments: args, api: path }) => {
    const result = await call(name, args);
    const expected = await api(path);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent!.data).toEqual(expected.data);
    expect(result.structuredContent!.pagination).toEqual(expected.meta.pagination);
    expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
  });

  it('says what is wrong with bad arguments', async () => {
    const text = async (name: string, args: Record<string, unknown>) => {
      const result = await call(name, args);
      expect(result.isError).toBe(true);
      return result.content[0]!.text;
    };
    expect(await text('search', { q: '' })).toMatch(/q/);
    expect(await text('search', { q: 'x', limit: 0 })).toMatch(/limit/);
    expect(await text('get_record', { collection: 'planets', id: 'x' })).toMatch(/collection/);
    expect(await text('get_record', { collection: 'services', id: 'no-such-service' })).toBe(
      'NOT_FOUND: No service has the id or slug "no-such-service".',
    );
    expect(await text('list_records', { collection: 'services', topic: 'agentic-commerce' })).toBe(
      'services has no topic filter; its filters: category',
    );
    expect(await text('list_records', { collection: 'services', category: 'nope' })).toMatch(/^Argument "category" must be one of /);
    // A technology category: in the schema's list, but not one of the services' own.
    expect(await text('list_records', { collection: 'services', category: 'protocols' })).toMatch(
      /^INVALID_PARAMETER: Parameter "category"/,
    );
  });

  it('is stateless: GET gets 405, and a body over the limit 413', async () => {
    const get = await fetch(`${server.url}/mcp`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const big = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'x'.repeat(100_000),
    });
    expect(big.status).toBe(413);
  });

  it('counts the requests an agent makes in the same rate limit as /v1/: the handshake one, each list or call one', async () => {
    const LIMIT = 12;
    const limited = await startSiteServer(dist, { handler: { limiter: createMemoryLimiter({ limit: LIMIT }) } });
    try {
      // Every HTTP request the SDK's client makes (initialize, its notification, a stream probe, list, call).
      let httpRequests = 0;
      const agent = new Client({ name: 'test', version: '1.0.0' });
      const counting: typeof fetch = (url, init) => {
        httpRequests++;
        return fetch(url, init);
      };
      await agent.connect(new StreamableHTTPClientTransport(new URL(`${limited.url}/mcp`), { fetch: counting }));
      await agent.listTools();
      await agent.callTool({ name: 'latest_articles', arguments: {} });
      let allowed = 0;
      while ((await fetch(`${limited.url}/v1/health`)).status === 200) allowed++;
      expect(httpRequests).toBeGreaterThanOrEqual(5);
      expect(allowed).toBe(LIMIT - 3);
      const refused = await fetch(`${limited.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      await agent.close().catch(() => {});
    } finally {
      await limited.close();
    }
  });
});

describe('the MCP endpoint under Deno, through the Netlify adapter', () => {
  it('lists the same tools and answers the same calls as the local server', async () => {
    const deno = createRequire(import.meta.url)
      .resolve('deno/package.json')
      .replace(/package\.json$/, 'bin.cjs');
    const run = promisify(execFile);
    const child = run(
      process.execPath,
      [deno, 'run', '--allow-net=127.0.0.1', '--allow-read', '--allow-env', '--no-prompt', 'test/deno/run-mcp.ts', server.url],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    child.child.stdin!.end(JSON.stringify(CALLS.map(({ name, arguments: args }) => ({ name, arguments: args }))));
    type Answer = { status: number; requestId: string | null; nosniff: string | null; rateLimit: string | null; cors: string | null };
    const underDeno = JSON.parse((await child).stdout) as { tools: string[]; results: Result[]; hostile: Record<string, Answer> };
    expect(underDeno.tools).toEqual(['search', 'get_record', 'list_records', 'latest_articles']);
    for (const [index, { name, arguments: args }] of CALLS.entries()) {
      expect(underDeno.results[index]!.structuredContent, name).toEqual((await call(name, args)).structuredContent);
    }
    // The same gate on Netlify: a batch refused, the 64 KiB cap on a body of unannounced length, the preflight.
    expect(Object.fromEntries(Object.entries(underDeno.hostile).map(([name, answer]) => [name, answer.status]))).toEqual({
      batch: 400,
      unannounced: 413,
      preflight: 204,
    });
    for (const answer of Object.values(underDeno.hostile)) {
      expect(answer).toMatchObject({ nosniff: 'nosniff', cors: '*', rateLimit: expect.stringMatching(/^"default";r=\d+;t=\d+$/) });
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  }, 120_000);
});
