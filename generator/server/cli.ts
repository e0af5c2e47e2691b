/**
 * Serves a build: `tsx generator/server/cli.ts [--dist DIR]`, on PORT (default 8080).
 * TRUST_PROXY=1 takes the client address from X-Forwarded-For.
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createServer } from './create-server.ts';

const { values } = parseArgs({ options: { dist: { type: 'string', default: 'dist' } } });
const dist = values.dist;
if (!existsSync(`${dist}/_api/manifest.json`)) {
  console.error(`${dist} holds no build; run "npm run build" first (or pass --dist DIR).`);
  process.exit(1);
}

const port = Number(process.env.PORT ?? 8080);
const server = createServer({ dist, trustProxy: process.env.TRUST_PROXY === '1', log: (line) => console.log(line) });
server.listen(port, () => {
  const { port: actual } = server.address() as AddressInfo;
  console.log(`Serving ${dist} at http://localhost:${actual}/ (API at /v1/)`);
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  console.log(`${signal}: closing`);
  server.close(() => process.exit(0));
  server.closeIdleConnections();
  // Keep-alive clients get a moment, then the process ends regardless.
  setTimeout(() => process.exit(0), 3000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
