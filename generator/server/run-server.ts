/** Running a server from a command: where it listens (HOST, PORT), the line that says it is ready, and a clean stop. */
import { readFileSync } from 'node:fs';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import { MANIFEST_PATH, staticPath } from '../shared/data-paths.ts';

export interface Listen {
  host: string;
  port: number;
}

/** HOST (default 127.0.0.1) and PORT (default 8080; 0 picks a free one); a one-line error for a bad PORT. */
export function readListen(env: Record<string, string | undefined>): Listen | string {
  const host = env.HOST || '127.0.0.1';
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return `PORT must be a whole number from 0 to 65535, not "${env.PORT}"`;
  return { host, port };
}

/** The address a browser reaches a server listening on `host`:`port` at, with a trailing slash. */
export function displayUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

/** TRUST_PROXY: how many proxies in front append to X-Forwarded-For (0 to 16); a one-line error otherwise. */
export function readTrustedProxies(env: Record<string, string | undefined>): number | string {
  const trustedProxies = Number(env.TRUST_PROXY || 0);
  if (!Number.isInteger(trustedProxies) || trustedProxies < 0 || trustedProxies > 16)
    return `TRUST_PROXY must be the number of proxies in front of this server (0 to 16), not "${env.TRUST_PROXY}"`;
  return trustedProxies;
}

/**
 * Listens; resolves with the server's address (the port it got), or ends the process with one line when it
 * cannot listen (a port in use), before anything else is done.
 */
export function listen(server: http.Server, { host, port }: Listen): Promise<{ url: string; port: number }> {
  return new Promise((resolve) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      console.error(`cannot listen on ${host}:${port}: ${error.code === 'EADDRINUSE' ? 'the port is in use (set PORT)' : error.message}`);
      process.exit(1);
    });
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({ url: displayUrl(host, actual), port: actual });
    });
  });
}

/** Emitted on a server asked to stop, before its connections end: what it holds is let go at once. */
export const STOPPING = 'stopping';

/** SIGINT and SIGTERM close the server (and whatever `also` stops), then end the process. */
export function stopOnSignals(server: http.Server, also: () => Promise<unknown> = async () => {}): void {
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    console.log(`${signal}: closing`);
    let ended = false;
    const stopped = Promise.resolve()
      .then(also)
      .catch(() => {})
      .then(() => {
        ended = true;
      });
    server.emit(STOPPING);
    const closed = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    // Once the server is closed and what `also` stops has ended (dev's builder thread), the process exits with 0.
    void Promise.all([closed, stopped]).then(() => process.exit(0));
    // Responses under way get a moment, then the process ends regardless. Exiting waits for every thread to
    // end (dev at 100,000 articles, its builder thread at gigabytes of heap, did not end within 10 s): a thread
    // still running then is not waited for, and the process ends by the signal it was sent, as it would have
    // without a handler.
    setTimeout(() => (ended ? process.exit(0) : endBySignal(signal)), STOP_MS).unref();
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

/** How long responses under way, and threads stopping, are given after a signal. */
const STOP_MS = 1000;

/** Ends the process at once by `signal`'s default action: no thread is waited for. */
function endBySignal(signal: NodeJS.Signals): void {
  process.removeAllListeners(signal);
  process.kill(process.pid, signal);
}

/** "built 2026-11-18T11:06:40Z: 10 services, 12 expertise, ..." from the build's own files; null when there is none. */
export function describeBuild(dist: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(path.join(dist, MANIFEST_PATH), 'utf8')) as { built_at: string };
    const health = JSON.parse(readFileSync(path.join(dist, staticPath('health')), 'utf8')) as { data: { records: Record<string, number> } };
    const records = Object.entries(health.data.records).map(([group, count]) => `${count} ${group}`);
    return `built ${manifest.built_at}: ${records.join(', ')}`;
  } catch {
    return null;
  }
}

/** A free port on `host`, when PORT=0 asks for one and a build must know it before the server listens. */
export async function freePort(host: string): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Where a local command (npm start, npm run dev) serves, with the port decided, and the address its build is
 * made for; a message instead when the site's address has a path, which a local server cannot serve.
 */
export async function localSite(env: Record<string, string | undefined>): Promise<{ where: Listen; servedAt: string } | string> {
  const where = readListen(env);
  if (typeof where === 'string') return where;
  const port = where.port === 0 ? await freePort(where.host) : where.port;
  const servedAt = displayUrl(where.host, port).slice(0, -1);
  const named = env.SITE_URL;
  if (named && /^https?:\/\/[^/]+\/./.test(named.replace(/\/+$/, ''))) {
    return (
      `SITE_URL "${named}" has a path: its pages would link to ${new URL(named).pathname.replace(/\/?$/, '/')}..., which this local ` +
      `server does not serve (it serves the site at the root of ${servedAt}/). Unset SITE_URL to build for ${servedAt}, or give an ` +
      'address without a path; to preview a build for a sub-path, serve it behind a proxy that maps that path to npm run serve.'
    );
  }
  return { where: { host: where.host, port }, servedAt };
}
