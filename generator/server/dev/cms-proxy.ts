/**
 * The CMS's local backend for `npm run dev`: Decap's own proxy server (`decap-server`, file-system mode),
 * writing into the content folder that the dev server watches. It can read, write and delete content and has
 * no authentication of its own, so it listens on the loopback interface whatever HOST says, and every request
 * is checked before it (cms-guard.mjs): the loopback Host it listens on, the dev server's own Origin, and a
 * per-run token in the path that only the dev server's admin page is given. A dev-only tool: when it is not
 * installed the dev server says so and runs without it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The proxy listens here only. */
export const CMS_PROXY_HOST = '127.0.0.1';
const GUARD = fileURLToPath(new URL('./cms-guard.mjs', import.meta.url));

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

/** The origins a browser may call the proxy from: the dev server's own, under each loopback name. */
export const devOrigins = (devPort: number) => ['localhost', '127.0.0.1', '[::1]'].map((name) => `http://${name}:${devPort}`);

/**
 * Starts the proxy on `port` (a free one when 0), for pages of the dev server on `devPort`; null when
 * decap-server is not installed.
 */
export async function startCmsProxy(contentDir: string, port: number, devPort: number): Promise<CmsProxy | null> {
  let bin: string;
  try {
    bin = path.join(path.dirname(createRequire(import.meta.url).resolve('decap-server/package.json')), 'dist', 'index.js');
  } catch {
    return null;
  }
  const listenPort = port || (await freePort(CMS_PROXY_HOST));
  const token = randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, ['--import', pathToFileURL(GUARD).href, bin], {
    env: {
      ...process.env,
      PORT: String(listenPort),
      BIND_HOST: CMS_PROXY_HOST,
      MODE: 'fs',
      GIT_REPO_DIRECTORY: path.resolve(contentDir),
      LOG_LEVEL: 'warn',
      CMS_PROXY_TOKEN: token,
      CMS_PROXY_ORIGINS: devOrigins(devPort).join(' '),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://${CMS_PROXY_HOST}:${listenPort}/${token}/api/v1`;
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
