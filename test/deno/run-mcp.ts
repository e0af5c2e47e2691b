/**
 * The MCP endpoint under Deno, as on Netlify Edge: the SDK's own client talks to the Netlify adapter (its
 * fetch is the adapter), which reads its data over HTTP from the running local site at BASE_URL.
 * Prints the tool names, each call's result and what the adapter answers to hostile requests (a batch, a
 * body over the cap sent without its length, a preflight), as JSON.
 * Usage: deno run --allow-net=127.0.0.1 --allow-read --allow-env test/deno/run-mcp.ts BASE_URL < calls.json
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import api from '../../netlify/edge-functions/api.ts';

declare const Deno: { args: string[]; stdin: { readable: ReadableStream<Uint8Array> } };

const [base] = Deno.args;
const calls: { name: string; arguments: Record<string, unknown> }[] = JSON.parse(await new Response(Deno.stdin.readable).text());
const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
  fetch: (url, init) => api(new Request(url, init), { ip: '192.0.2.77' }),
});
const client = new Client({ name: 'deno-test', version: '1.0.0' });
await client.connect(transport);
const tools = (await client.listTools()).tools.map((tool) => tool.name);
const results = [];
for (const call of calls) results.push(await client.callTool(call));
await client.close();

const post = (body: BodyInit) =>
  api(
    new Request(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body,
    }),
    { ip: '192.0.2.78' },
  );
const chunks = 80; // 80 chunks of 1 KiB, streamed: no Content-Length for the cap to read
let sent = 0;
const unannounced = new ReadableStream<Uint8Array>({
  pull(controller) {
    if (sent++ === chunks) controller.close();
    else controller.enqueue(new Uint8Array(1024).fill(32));
  },
});
const statusAndHeaders = (response: Response) => ({
  status: response.status,
  requestId: response.headers.get('x-request-id'),
  nosniff: response.headers.get('x-content-type-options'),
  rateLimit: response.headers.get('ratelimit'),
  cors: response.headers.get('access-control-allow-origin'),
});
const hostile = {
  batch: statusAndHeaders(await post(JSON.stringify([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }]))),
  unannounced: statusAndHeaders(await post(unannounced)),
  preflight: statusAndHeaders(
    await api(
      new Request(`${base}/mcp`, { method: 'OPTIONS', headers: { Origin: 'https://a.example', 'Access-Control-Request-Method': 'POST' } }),
      {
        ip: '192.0.2.78',
      },
    ),
  ),
};
console.log(JSON.stringify({ tools, results, hostile }));
