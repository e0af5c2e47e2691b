/**
 * Serves a build: `npm run serve [-- --dist DIR]`, on HOST and PORT. `--help` says the same.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseCommandLine } from '../pipeline/command-line.ts';
import { MANIFEST_PATH, staticPath } from '../shared/data-paths.ts';
import { createServer } from './create-server.ts';

const USAGE = `Usage:
  npm run serve [-- --dist DIR]    serve a build: /v1/ through the API handler, everything else as static files

Options:
  --dist DIR    the build to serve (default: dist; make one with npm run build)
  -h, --help    show this help

Environment: HOST (default 127.0.0.1; 0.0.0.0 to listen on every interface, as in a container),
PORT (default 8080; 0 picks a free one), TRUST_PROXY=N (N proxies in front append to X-Forwarded-For: the
client is the Nth entry from the right; default 0, the socket's address).`;

/** "built 2026-11-18T11:06:40Z: 10 services, 12 expertise, ..." from the build's own files; null when there is none. */
function describeBuild(dist: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dist, MANIFEST_PATH), 'utf8')) as { built_at: string };
    const health = JSON.parse(readFileSync(path.join(dist, staticPath('health')), 'utf8')) as { data: { records: Record<string, number> } };
    const records = Object.entries(health.data.records).map(([group, count]) => `${count} ${group}`);
    return `built ${manifest.built_at}: ${records.join(', ')}`;
  } catch {
    return null;
  }
}

function main(): number | undefined {
  const parsed = parseCommandLine({ usage: USAGE, options: { dist: { type: 'string', default: 'dist' } } }, process.argv.slice(2));
  if (!parsed.ok) return parsed.exitCode;
  const { dist } = parsed.values;
  const build = describeBuild(dist);
  if (build === null) {
    console.error(`${dist} holds no build; run "npm run build" first (or pass --dist DIR).`);
    return 1;
  }
  const host = process.env.HOST || '127.0.0.1';
  const port = Number(process.env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be a whole number from 0 to 65535, not "${process.env.PORT}"`);
    return 2;
  }
  const trustedProxies = Number(process.env.TRUST_PROXY || 0);
  if (!Number.isInteger(trustedProxies) || trustedProxies < 0 || trustedProxies > 16) {
    console.error(`TRUST_PROXY must be the number of proxies in front of this server (0 to 16), not "${process.env.TRUST_PROXY}"`);
    return 2;
  }
  const server = createServer({ dist, trustedProxies, log: (line) => console.log(line) });
  server.on('error', (error: NodeJS.ErrnoException) => {
    console.error(`cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use (set PORT)' : error.message}`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const { port: actual } = server.address() as AddressInfo;
    const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    console.log(`Serving ${dist} (${build}) at http://${shown}:${actual}/ (API at /v1/); press Ctrl+C to stop`);
  });
  stopOnSignals(server);
  return undefined;
}

function stopOnSignals(server: ReturnType<typeof createServer>): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing`);
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    // Keep-alive clients get a moment, then the process ends regardless.
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

const exitCode = main();
if (exitCode !== undefined) process.exitCode = exitCode;
