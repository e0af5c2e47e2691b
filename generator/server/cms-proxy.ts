/**
 * The CMS's local backend for `npm run dev`: Decap's own proxy server (`decap-server`, file-system mode),
 * writing into the content folder that the dev server watches, bound to the dev server's host. A dev-only
 * tool: when it is not installed the dev server says so and runs without it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';

export interface CmsProxy {
  /** The proxy's API, as the CMS's `local_backend.url` names it. */
  url: string;
  stop(): void;
}

/** A port nobody listens on now, on `host`. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilAnswering(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`the CMS proxy ended (exit code ${child.exitCode})`);
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"action":"info"}' });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the CMS proxy did not answer within 10 seconds');
}

/** Starts the proxy on `port` (a free one when 0); null when decap-server is not installed. */
export async function startCmsProxy(contentDir: string, host: string, port: number): Promise<CmsProxy | null> {
  let bin: string;
  try {
    bin = path.join(path.dirname(createRequire(import.meta.url).resolve('decap-server/package.json')), 'dist', 'index.js');
  } catch {
    return null;
  }
  const listenPort = port || (await freePort(host));
  const child = spawn(process.execPath, [bin], {
    env: {
      ...process.env,
      PORT: String(listenPort),
      BIND_HOST: host,
      MODE: 'fs',
      GIT_REPO_DIRECTORY: path.resolve(contentDir),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const shown = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown === '0.0.0.0' ? 'localhost' : shown}:${listenPort}/api/v1`;
  const stop = () => {
    if (child.exitCode === null) child.kill();
  };
  process.on('exit', stop);
  try {
    await waitUntilAnswering(url, child);
  } catch (error) {
    stop();
    throw error;
  }
  return { url, stop };
}
