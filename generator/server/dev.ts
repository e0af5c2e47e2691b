/**
 * `npm run dev [-- --content DIR --out DIR]`, the editors' loop: serves on HOST and PORT, builds, watches the
 * content folder (and the pages' own scripts and styles), rebuilds on every change and prints one line per
 * rebuild, or the problems. A bad edit keeps the last good build served; the next good edit recovers. Open
 * pages reload by themselves after a rebuild (live-reload.ts; nothing of it is in a build).
 *
 * It takes its port before it writes anything, so a dev server that cannot start changes nothing, and it
 * keeps its builds in a folder of its own (`.dev/` by default), never where `npm run build` writes: a
 * preview with drafts cannot reach a deploy or another server.
 */
import { existsSync, mkdirSync, statSync, watch } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCommandLine, quietOnClosedOutput } from '../pipeline/command-line.ts';
import { MANIFEST_PATH } from '../shared/data-paths.ts';
import { SITE_ADDRESSES } from '../shared/site-addresses.ts';
import { type CmsProxy, startCmsProxy } from './dev/cms-proxy.ts';
import { type ContentWatcher, watchContent } from './dev/content-watcher.ts';
import { createServer } from './create-server.ts';
import { createDevAccess } from './dev/dev-access.ts';
import { createRebuilder } from './dev/dev-rebuilder.ts';
import { createLiveReload } from './dev/live-reload.ts';
import { resolveBuildSettings } from '../pipeline/build-settings.ts';
import type { Preview } from '../pipeline/catalogue/publish.ts';
import { type Listen, listen, localSite, readTrustedProxies, stopOnSignals } from './run-server.ts';
import { removeStaleSnapshots } from './snapshot-linker.ts';
import { SNAPSHOT_MARK } from './served-builds.ts';

const USAGE = `Usage:
  npm run dev [-- --content DIR --out DIR]    build, serve, and rebuild on every change to the content

Options:
  --content DIR   the content folder to watch (default: content)
  --out DIR       where dev keeps its builds while it runs (default: .dev; never a folder npm run build wrote)
  -D, --drafts    include drafts (a preview)
  -F, --future    include records dated after today (a preview)
  -h, --help      show this help

The content manager (Decap CMS) is at /${SITE_ADDRESSES.admin}/, saving into the content folder through Decap's local proxy,
which listens on 127.0.0.1:CMS_PORT whatever HOST says (default: PORT + 1; a free port when PORT is 0) and
answers the admin page of this dev server only.

Environment: HOST (default 127.0.0.1: requests must be addressed to localhost), PORT (default 8080),
TRUST_PROXY (as for npm run serve), CMS_PORT, and the build's settings (npm run build -- --help).`;

const OPTIONS = {
  content: { type: 'string', default: 'content' },
  out: { type: 'string', default: '.dev' },
  drafts: { type: 'boolean', short: 'D', default: false },
  future: { type: 'boolean', short: 'F', default: false },
} as const;

/** The pages' hand-written scripts and styles, which a build copies: a change to them is a change to the site. */
const PAGE_ASSETS = fileURLToPath(new URL('../pipeline/outputs/pages/assets/', import.meta.url));

/** Decap's local proxy on CMS_PORT, for /admin/; null when it is not installed or did not start (said why), an exit code for a bad CMS_PORT. */
async function startContentManager(content: string, where: Listen, devPort: number): Promise<CmsProxy | null | number> {
  const port = Number(process.env.CMS_PORT ?? (where.port ? where.port + 1 : 0));
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`CMS_PORT must be a whole number from 0 to 65535, not "${process.env.CMS_PORT}"`);
    return 2;
  }
  return startCmsProxy(content, port, devPort).catch((error: unknown) => {
    console.error(`content manager not started: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  });
}

/** The settings, checked before anything is started or written; an exit code when one is wrong. */
function readSettings(argv: string[]) {
  const parsed = parseCommandLine({ usage: USAGE, options: OPTIONS }, argv);
  if (!parsed.ok) return parsed.exitCode;
  const { content, out } = parsed.values;
  if (!statSync(content, { throwIfNoEntry: false })?.isDirectory()) {
    console.error(`dev failed: content folder not found: ${content} (pass --content DIR)`);
    return 2;
  }
  if (existsSync(path.join(out, MANIFEST_PATH))) {
    console.error(`dev failed: ${out} holds a site build (npm run build); dev keeps its builds apart (pass another --out DIR)`);
    return 2;
  }
  const trustedProxies = readTrustedProxies(process.env);
  if (typeof trustedProxies === 'string') {
    console.error(trustedProxies);
    return 2;
  }
  return { content, out, trustedProxies, preview: { drafts: parsed.values.drafts, future: parsed.values.future } };
}

/**
 * Where dev listens (PORT=0: a free port, decided now), and the address it builds the site for: links and
 * "View Live" stay local unless SITE_URL names another. An exit code when a setting is wrong, said in one line.
 */
async function readSite(preview: Preview): Promise<{ where: Listen; servedAt: string } | number> {
  const site = await localSite(process.env);
  if (typeof site === 'string') {
    console.error(/^(PORT|HOST) /.test(site) ? site : `dev failed: ${site}`);
    return 2;
  }
  try {
    resolveBuildSettings(process.env, { preview, servedAt: site.servedAt });
  } catch (error) {
    console.error(`dev failed: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  return site;
}

async function main(): Promise<number | undefined> {
  const settings = readSettings(process.argv.slice(2));
  if (typeof settings === 'number') return settings;
  const { content, out, preview } = settings;
  const site = await readSite(preview);
  if (typeof site === 'number') return site;
  const { where, servedAt } = site;
  const liveReload = createLiveReload();
  let rebuilder: ReturnType<typeof createRebuilder> | undefined;
  const server = createServer({
    builds: { latest: () => rebuilder?.builds.latest(), remove: (dir) => rebuilder?.builds.remove(dir) },
    liveReload,
    trustedProxies: settings.trustedProxies,
    access: createDevAccess({ host: where.host, preview: preview.drafts || preview.future }),
  });
  // The port first: a dev server that cannot listen ends here, having written nothing.
  const { url, port } = await listen(server, where);
  const proxy = await startContentManager(content, where, port);
  if (typeof proxy === 'number') return proxy;
  mkdirSync(out, { recursive: true });
  const snapshotRoot = path.resolve(out, 'build');
  removeStaleSnapshots(snapshotRoot, SNAPSHOT_MARK);
  rebuilder = createRebuilder({
    contentDir: content,
    snapshotRoot,
    preview,
    // "View Live" in the content manager opens the record's page on this server, even when SITE_URL names another.
    cmsBackend: proxy ? { name: 'local', url: proxy.url, siteUrl: servedAt } : undefined,
    servedAt,
    built: () => liveReload.announce(),
    quiet: () => watcher.idle(),
  });
  const started = rebuilder;
  const watcher: ContentWatcher = watchContent(content, {
    changed: (files) => started.changed(files),
    failed: (error) => console.error(`watching stopped: ${error.message}; restart npm run dev`),
  });
  const assets = watch(PAGE_ASSETS, (_event, file) => started.changed(new Set([`page assets: ${file ?? ''}`])));
  assets.on('error', () => {});
  stopOnSignals(server, () => {
    watcher.close();
    assets.close();
    liveReload.close();
    proxy?.stop();
    return started.stop();
  });
  if (!(await started.start())) console.log('waiting for a good edit to make the first build');
  console.log(
    `Serving ${content} at ${url} (API at /v1/), rebuilding on every change; press Ctrl+C to stop` +
      (proxy ? `\nContent manager at ${url}${SITE_ADDRESSES.admin}/, saving into ${content}` : ''),
  );
  return undefined;
}

quietOnClosedOutput();
const exitCode = await main();
if (exitCode !== undefined) process.exitCode = exitCode;
