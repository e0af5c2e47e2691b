/**
 * The MCP endpoint under Deno, as on Netlify Edge: the SDK's own client talks to the Netlify adapter (its
 * fetch is the adapter), which reads its data over HTTP from the running local site at BASE_URL.
 * Prints the tool names and each call's result as JSON.
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
console.log(JSON.stringify({ tools, results }));
