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

/** Start-up's limit: the proxy listens within a second when the machine is quiet. */
const START_LIMIT_MS = 30_000;

/** The port the proxy listens on, once it says so; rejects when it cannot listen or ends first. */
function listening(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`the CMS proxy did not listen within ${START_LIMIT_MS / 1000} seconds`)), START_LIMIT_MS);
    const onMessage = (message: { listening?: number; failed?: string }) => {
      if (typeof message?.listening === 'number') done(null, message.listening);
      else if (typeof message?.failed === 'string') done(new Error(`the CMS proxy could not listen: ${message.failed}`));
    };
    const onExit = (code: number | null) => done(new Error(`the CMS proxy ended (exit code ${code})`));
    const done = (error: Error | null, port = 0) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve(port);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
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
  const token = randomBytes(24).toString('base64url');
  const child = spawn(process.execPath, ['--import', pathToFileURL(GUARD).href, bin], {
    env: {
      ...process.env,
      PORT: String(port),
      BIND_HOST: CMS_PROXY_HOST,
      MODE: 'fs',
      GIT_REPO_DIRECTORY: path.resolve(contentDir),
      LOG_LEVEL: 'warn',
      CMS_PROXY_TOKEN: token,
      CMS_PROXY_ORIGINS: devOrigins(devPort).join(' '),
    },
    // The channel carries one message: the port it listens on, or why it could not.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const stop = () => {
    if (child.exitCode === null) child.kill();
  };
  process.on('exit', stop);
  let listenPort: number;
  try {
    listenPort = await listening(child);
  } catch (error) {
    stop();
    throw error;
  } finally {
    if (child.connected) child.disconnect();
  }
  return { url: `http://${CMS_PROXY_HOST}:${listenPort}/${token}/api/v1`, stop };
}
