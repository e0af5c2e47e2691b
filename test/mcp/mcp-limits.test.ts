/**
 * The MCP endpoint against hostile clients: batches, cancellations, slow and large bodies, hanging calls,
 * what each message costs against the rate limit, the API's headers on every answer, plain-word errors and
 * the schemas' allowed values. Mostly at the handler (Web `Request` in, `Response` out), where a test can
 * hold a body open or slow a call down; the slow upload also over a real socket to the Node server.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryAssets } from '../../generator/edge/assets.ts';
import { createMemoryLimiter } from '../../generator/edge/limiter.ts';
import { createMcpHandler, type McpHandlerOptions } from '../../generator/mcp/mcp-handler.ts';
import type { Manifest } from '../../generator/shared/manifest.ts';
import { MCP_POLICY } from '../../generator/shared/policy.ts';
import { readDistFiles } from '../helpers/api-runtimes.ts';
import { buildInto, removeBuildDirs } from '../helpers/build-output.ts';
import { startSiteServer } from '../helpers/site-server.ts';

const IP = '192.0.2.9';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};
type Rpc = { jsonrpc: '2.0'; id?: number | string | null; result?: Record<string, unknown>; error?: { code: number; message: string } };

let dist: string;
let files: Map<string, string | Uint8Array>;
let manifest: Manifest;

beforeAll(async () => {
  dist = await buildInto('content');
  files = readDistFiles(dist);
  manifest = JSON.parse(files.get('_api/manifest.json') as string) as Manifest;
}, 60_000);
afterAll(() => removeBuildDirs());

function endpoint(options: Partial<McpHandlerOptions> = {}, limit = 100) {
  const limiter = createMemoryLimiter({ limit });
  const handler = createMcpHandler({ assets: createMemoryAssets(files), limiter, logError: () => {}, ...options });
  const send = (body: BodyInit | null, init: RequestInit = {}) =>
    handler(new Request('http://site.test/mcp', { method: 'POST', headers: HEADERS, body, duplex: 'half', ...init } as RequestInit), {
      ip: IP,
    });
  const post = (message: unknown) => send(JSON.stringify(message));
  /** Requests counted so far for the test's client. */
  const counted = () => limit - limiter.peek(IP, Date.now()).remaining;
  return { handler, limiter, send, post, counted };
}

const call = (id: number, name: string, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};

/** A body that sends `head` and then nothing more, ever; `pulled` says how many bytes the reader asked for. */
function stalledBody(head: Uint8Array) {
  const state = { pulled: 0 };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (sent) return new Promise<void>(() => {});
        sent = true;
        state.pulled += head.byteLength;
        controller.enqueue(head);
        return undefined;
      },
    },
    // Nothing is pulled until someone reads.
    { highWaterMark: 0 },
  );
  return { stream, state };
}

describe('one HTTP request buys one message of work', () => {
  it('refuses a batch of 100 tool calls whole, counts it once, and answers in fewer bytes than it was sent', async () => {
    const { post, counted } = endpoint();
    const batch = Array.from({ length: 100 }, (_, i) => call(i + 1, 'list_records', { collection: 'intelligence', limit: 100 }));
    const response = await post(batch);
    const text = await response.text();
    expect(response.status).toBe(400);
    expect((JSON.parse(text) as Rpc).error).toMatchObject({ code: -32600, message: expect.stringMatching(/^Batches are not accepted/) });
    expect(counted()).toBe(1);
    expect(text.length).toBeLessThan(JSON.stringify(batch).length);
  });

  it('answers a batch of a call and its own cancellation at once, instead of holding the connection', async () => {
    const { post } = endpoint();
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    const answered = await Promise.race([
      post([call(1, 'latest_articles', {}), cancel]).then((response) => response.status),
      new Promise((resolve) => setTimeout(() => resolve('no answer'), 2000)),
    ]);
    expect(answered).toBe(400);
  });

  it('counts each request message (initialize, tools/list, tools/call) and nothing for notifications, GET or a preflight', async () => {
    const { post, handler, counted } = endpoint();
    expect((await post(initialize)).status).toBe(200);
    expect(counted()).toBe(1);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await handler(new Request('http://site.test/mcp'), { ip: IP })).status).toBe(405);
    const preflight = new Request('http://site.test/mcp', {
      method: 'OPTIONS',
      headers: { Origin: 'https://agent.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect((await handler(preflight, { ip: IP })).status).toBe(204);
    expect(counted()).toBe(1);
    expect((await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
    expect((await post(call(3, 'latest_articles', {}))).status).toBe(200);
    expect(counted()).toBe(3);
    expect((await post({ not: 'a message' })).status).toBe(400);
    expect(counted()).toBe(4);
  });

  it('refuses the request past the limit with 429, and runs no tool for it', async () => {
    let calls = 0;
    const callApi = async () => {
      calls++;
      return new Response('{"success":true,"data":[]}');
    };
    const { post } = endpoint({ callApi }, 2);
    expect((await post(call(1, 'latest_articles', {}))).status).toBe(200);
    expect((await post(call(2, 'latest_articles', {}))).status).toBe(200);
    const refused = await post(call(3, 'latest_articles', {}));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Refused before its body was read, so the answer cannot name the request.
    expect(((await refused.json()) as Rpc).id).toBeNull();
    expect(calls).toBe(2);
  });
});

describe('deadlines and bodies', () => {
  it('answers a tool call that never finishes with a timeout error within the deadline', async () => {
    const { post } = endpoint({ deadlineMs: 300, callApi: () => new Promise<Response>(() => {}) });
    const started = performance.now();
    const response = await post(call(7, 'latest_articles', {}));
    expect(performance.now() - started).toBeLessThan(3000);
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32001, message: expect.stringMatching(/No answer within/) } });
  });

  it('asks the limit before it reads the body: a client with nothing left is refused without a byte read', async () => {
    const { send, limiter } = endpoint({}, 1);
    limiter.hit(IP, Date.now());
    const { stream, state } = stalledBody(new Uint8Array(10));
    const response = await send(stream);
    expect(response.status).toBe(429);
    expect(state.pulled).toBe(0);
  });

  it('gives a body that stops arriving 408 at the deadline, and counts it', async () => {
    const { send, counted } = endpoint({ deadlineMs: 300 });
    const response = await send(stalledBody(new TextEncoder().encode('{"jsonrpc":')).stream);
    expect(response.status).toBe(408);
    expect(counted()).toBe(1);
  });

  it(`caps a body at ${MCP_POLICY.maxBodyBytes} bytes whether or not its length is announced`, async () => {
    const { send } = endpoint();
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 4096;
        controller.enqueue(new Uint8Array(4096).fill(32));
      },
    });
    expect((await send(endless)).status).toBe(413);
    expect(pulled).toBeLessThan(MCP_POLICY.maxBodyBytes + 5 * 4096);
    expect((await send(' '.repeat(MCP_POLICY.maxBodyBytes + 1))).status).toBe(413);
  });

  /** Sends a POST whose body never arrives in full to the Node server; what it answers and how long it took. */
  async function slowUpload(url: string): Promise<{ received: string; ms: number }> {
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    const started = performance.now();
    let received = '';
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write(`POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"jsonrpc":`);
    await closed;
    return { received, ms: performance.now() - started };
  }

  it('answers a slow upload to the Node server at the deadline and closes the connection', async () => {
    const server = await startSiteServer(dist, { mcpDeadlineMs: 500 });
    try {
      const { received, ms } = await slowUpload(server.url);
      expect(ms).toBeLessThan(5000);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(received).toMatch(/x-request-id: /i);
    } finally {
      await server.close();
    }
  });

  it('refuses a slow upload from a client with no requests left before its body arrives', async () => {
    const limiter = createMemoryLimiter({ limit: 1 });
    const server = await startSiteServer(dist, { mcpDeadlineMs: 60_000, handler: { limiter } });
    try {
      expect((await fetch(`${server.url}/v1/health`)).status).toBe(200);
      const { received, ms } = await slowUpload(server.url);
      expect(received).toMatch(/^HTTP\/1\.1 429/);
      expect(ms).toBeLessThan(5000);
    } finally {
      await server.close();
    }
  });
});

describe('answers as the API answers', () => {
  it('carries the request id, nosniff, RateLimit and CORS headers on every kind of answer', async () => {
    const { post, send, handler } = endpoint({}, 3);
    const answers = [
      await post(initialize),
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      await post([initialize]),
      await send(' '.repeat(MCP_POLICY.maxBodyBytes + 1)),
      await handler(new Request('http://site.test/mcp', { method: 'DELETE' }), { ip: IP }),
      await post(initialize),
      await post(initialize),
    ];
    expect(answers.map((response) => response.status)).toEqual([200, 202, 400, 413, 405, 429, 429]);
    for (const response of answers) {
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=3;w=60');
      expect(response.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
    }
  });

  it('answers a browser preflight with 204 and the method and headers an MCP client sends', async () => {
    const { handler } = endpoint();
    const response = await handler(
      new Request('http://site.test/mcp', {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://agent.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, mcp-protocol-version',
        },
      }),
      { ip: IP },
    );
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('content-type, mcp-protocol-version');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('names the bad argument in plain words, never a validator dump', async () => {
    const { post } = endpoint();
    const message = async (body: unknown) => {
      const answer = (await (await post(body)).json()) as Rpc & { result?: { content: { text: string }[]; isError?: boolean } };
      return answer.error?.message ?? answer.result!.content[0]!.text;
    };
    const texts = [
      await message(call(1, 'search', ['payments'])),
      await message(call(2, 'search', { q: 'x', limit: '5' })),
      await message(call(3, 'search', { q: 'x', colour: 'red' })),
      await message(call(4, 'get_record', { collection: 'services' })),
      await message({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 42 } }),
    ];
    expect(texts).toEqual([
      'The arguments must be an object of named values, such as {"q": "payments"}, not an array.',
      'Argument "limit" must be a whole number from 1 to 100.',
      'Unknown argument "colour"; search takes q, type, limit and offset.',
      'Missing argument "id": The record id or slug.',
      'tools/call needs the tool\'s "name" as text.',
    ]);
  });

  it('says listChanged: false, and lists every allowed filter value in the tool schemas', async () => {
    const { post } = endpoint();
    const init = (await (await post(initialize)).json()) as Rpc;
    expect(init.result!.capabilities).toEqual({ tools: { listChanged: false } });
    const list = (await (await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).json()) as Rpc;
    const tools = list.result!.tools as { name: string; inputSchema: { properties: Record<string, { enum?: string[] }> } }[];
    const listRecords = tools.find((tool) => tool.name === 'list_records')!.inputSchema.properties;
    const union = (...sources: string[]) => [...new Set(sources.flatMap((source) => manifest.filters[source] ?? []))].sort();
    expect(listRecords.industry!.enum).toEqual(union('industries'));
    expect(listRecords.topic!.enum).toEqual(union('articleTopics'));
    expect(listRecords.category!.enum).toEqual(union('categories', 'technologyCategories'));
    expect(listRecords.topic!.enum!.length).toBeGreaterThan(3);
  });
});
