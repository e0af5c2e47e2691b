/**
 * Runs the Netlify Edge adapter under Deno against a running site (the local server stands in for the
 * CDN): the adapter fetches its data files over HTTP from the request's own origin, as on Netlify.
 * Usage: deno run --allow-net=127.0.0.1 test/deno/run-adapter.ts BASE_URL < paths.json
 */
import api from '../../netlify/edge-functions/api.ts';

declare const Deno: { args: string[]; stdin: { readable: ReadableStream<Uint8Array> } };

const [base] = Deno.args;
const paths: string[] = JSON.parse(await new Response(Deno.stdin.readable).text());
const results = [];
for (const path of paths) {
  const response = await api(new Request(`${base}${path}`), { ip: '192.0.2.44' });
  results.push({ status: response.status, ratelimit: response.headers.get('RateLimit'), body: JSON.parse(await response.text()) });
}
console.log(JSON.stringify(results));
