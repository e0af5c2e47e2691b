/**
 * `npm run dev [-- --content DIR --out DIR]`, the editors' loop: builds, serves on HOST and PORT, watches the
 * content folder (and the pages' own scripts and styles), rebuilds on every change and prints one line per
 * rebuild, or the problems. A bad edit keeps the last good build served; the next good edit recovers. Open
 * pages reload by themselves after a rebuild (live-reload.ts; nothing of it is in a build).
 */
import { statSync, watch } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Preview } from '../pipeline/catalogue/publish.ts';
import { parseCommandLine, quietOnClosedOutput } from '../pipeline/command-line.ts';
import type { CmsBackend } from '../pipeline/outputs/cms/cms-config.ts';
import { startTypeScriptWorker } from '../pipeline/typescript-worker.ts';
import { type CmsProxy, startCmsProxy } from './cms-proxy.ts';
import type { BuildAnswer, BuildRequest } from './dev-builder.ts';
import type { SnapshotFeed } from './served-builds.ts';
import { createServer } from './create-server.ts';
import { createLiveReload } from './live-reload.ts';
import { resolveBuildSettings } from '../pipeline/build-settings.ts';
import { describeBuild, listen, localSite, readListen, stopOnSignals } from './run-server.ts';

const USAGE = `Usage:
  npm run dev [-- --content DIR --out DIR]    build, serve, and rebuild on every change to the content

Options:
  --content DIR   the content folder to watch (default: content)
  --out DIR       where the builds go (default: dist)
  -D, --drafts    include drafts (a preview)
  -F, --future    include records dated after today (a preview)
  -h, --help      show this help

The content manager (Decap CMS) is at /admin/, saving into the content folder through Decap's local proxy on
CMS_PORT (default: PORT + 1; a free port when PORT is 0).

Environment: HOST (default 127.0.0.1), PORT (default 8080), CMS_PORT, and the build's settings (npm run build -- --help).`;

const OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: 'dist' },
  drafts: { type: 'boolean', short: 'D', default: false },
  future: { type: 'boolean', short: 'F', default: false },
} as const;

/** The pages' hand-written scripts and styles, which a build copies: a change to them is a change to the site. */
const PAGE_ASSETS = fileURLToPath(new URL('../pipeline/outputs/pages/assets/', import.meta.url));
/** Changes that land within this long of each other are one rebuild. */
const SETTLE_MS = 80;
const FIRST = 'first build';

interface Rebuilder {
  /** Notes a changed file; the rebuild starts once changes settle, and one at a time. */
  changed(file: string): void;
  /** The first build. True when it succeeded. */
  start(): Promise<boolean>;
  /** The builds' snapshots, written by the build thread, for the server. */
  snapshots: SnapshotFeed;
}

function describeChange(files: ReadonlySet<string>): string {
  const [first] = files;
  return files.size === 1 ? `${first} changed` : `${files.size} files changed`;
}

/**
 * Builds in a worker thread (dev-builder.ts), one at a time; `build` asks for one build and answers with its
 * outcome. Each build is written into a snapshot folder that the server reads it from (`snapshots`); the
 * worker also removes the snapshots the server retires.
 */
function createBuildWorker(data: { contentDir: string; outDir: string; preview: Preview; cmsBackend?: CmsBackend; servedAt: string }): {
  build(): Promise<BuildAnswer>;
  snapshots: SnapshotFeed;
} {
  const worker = startTypeScriptWorker(new URL('./dev-builder.ts', import.meta.url), data);
  const waiting = new Map<number, (answer: BuildAnswer) => void>();
  let next = 0;
  /** The newest build's snapshot, and whether the server has been given it. */
  let offered: { dir: string; given: boolean } | undefined;
  const remove = (dir: string) => worker.postMessage({ remove: dir } satisfies BuildRequest);
  worker.on('message', (answer: BuildAnswer) => {
    if (answer.built) {
      // A build the server never read (the next one came first) is nobody's to retire.
      if (offered && !offered.given) remove(offered.dir);
      offered = { dir: answer.snapshot, given: false };
    }
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  worker.on('error', (error) => {
    for (const [id, resolve] of waiting) resolve({ id, built: false, failure: error.stack ?? error.message });
    waiting.clear();
  });
  return {
    build: () =>
      new Promise((resolve) => {
        const id = next++;
        waiting.set(id, resolve);
        worker.postMessage({ id } satisfies BuildRequest);
      }),
    snapshots: {
      latest() {
        if (!offered) return undefined;
        offered.given = true;
        return offered.dir;
      },
      remove,
    },
  };
}

function createRebuilder(
  contentDir: string,
  outDir: string,
  preview: Preview,
  cmsBackend: CmsBackend | undefined,
  servedAt: string,
  built: () => void,
): Rebuilder {
  const { build, snapshots } = createBuildWorker({ contentDir, outDir, preview, cmsBackend, servedAt });
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const rebuild = async (reason: string): Promise<boolean> => {
    const started = performance.now();
    const answer = await build();
    if (answer.built) {
      const ms = Math.round(performance.now() - started);
      console.log(`${reason}: ${reason === FIRST ? 'built' : 'rebuilt'} in ${ms} ms, ${answer.written} of ${answer.files} files written`);
      for (const line of answer.lines) console.log(line);
      built();
      return true;
    }
    if ('failure' in answer) throw new Error(answer.failure);
    console.error(`${reason}: not rebuilt; still serving the last good build\n${answer.report}`);
    return false;
  };

  const flush = () => {
    const files = pending;
    pending = new Set();
    running = running
      .then(() => rebuild(describeChange(files)))
      .catch((error: unknown) => console.error(`rebuild failed: ${String(error)}`));
  };

  return {
    changed(file) {
      pending.add(file);
      clearTimeout(timer);
      timer = setTimeout(flush, SETTLE_MS);
    },
    start: () => rebuild(FIRST),
    snapshots,
  };
}

/** Decap's local proxy on CMS_PORT, for /admin/; null when it is not installed or did not start (said why), an exit code for a bad CMS_PORT. */
async function startContentManager(content: string, where: { host: string; port: number }): Promise<CmsProxy | null | number> {
  const port = Number(process.env.CMS_PORT ?? (where.port ? where.port + 1 : 0));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`CMS_PORT must be a whole number from 0 to 65535, not "${process.env.CMS_PORT}"`);
    return 2;
  }
  return startCmsProxy(content, where.host, port).catch((error: unknown) => {
    console.error(`content manager not started: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
}

async function main(): Promise<number | undefined> {
  const parsed = parseCommandLine({ usage: USAGE, options: OPTIONS }, process.argv.slice(2));
  if (!parsed.ok) return parsed.exitCode;
  const { content, out } = parsed.values;
  const preview = { drafts: parsed.values.drafts, future: parsed.values.future };
  if (!statSync(content, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`dev failed: content folder not found: ${content} (pass --content DIR)`);
    return 2;
  }
  const where = readListen(process.env);
  // Built for the address it serves on (unless SITE_URL says otherwise), so links and "View Live" stay local.
  const site = await localSite(process.env);
  if (typeof where === 'string' || typeof site === 'string') {
    console.error(typeof where === 'string' ? where : `dev failed: ${site}`);
    return 2;
  }
  try {
    resolveBuildSettings(process.env, { preview, servedAt: site.servedAt });
  } catch (error) {
    console.error(`dev failed: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const proxy = await startContentManager(content, where);
  if (typeof proxy === 'number') return proxy;
  const liveReload = createLiveReload();
  let server: ReturnType<typeof createServer> | undefined;
  /** Starts serving once there is a build to serve; later builds are picked up by the server itself. */
  const serve = () => {
    if (server || describeBuild(out) === null) return;
    server = createServer({ dist: out, liveReload, snapshots: rebuilder.snapshots });
    listen(
      server,
      site.where,
      (url) =>
        `Serving ${out} at ${url} (API at /v1/), rebuilding on every change to ${content}; press Ctrl+C to stop` +
        (proxy ? `\nContent manager at ${url}admin/, saving into ${content} through ${proxy.url}` : ''),
    );
    stopOnSignals(server, () => {
      liveReload.close();
      proxy?.stop();
    });
  };
  const rebuilder = createRebuilder(content, out, preview, proxy ? { name: 'local', url: proxy.url } : undefined, site.servedAt, () => {
    liveReload.announce();
    serve();
  });
  await rebuilder.start();
  serve();
  if (!server) console.log('waiting for a good edit to make the first build');
  // A watcher that fails (the folder removed, too many files to watch) says so; the last build stays served.
  const onError = (error: Error) => console.error(`watching stopped: ${error.message}; restart npm run dev`);
  watch(content, { recursive: true }, (_event, file) => rebuilder.changed(file ?? content)).on('error', onError);
  watch(PAGE_ASSETS, (_event, file) => rebuilder.changed(`page assets: ${file ?? ''}`)).on('error', onError);
  return undefined;
}

quietOnClosedOutput();
const exitCode = await main();
if (exitCode !== undefined) process.exitCode = exitCode;
