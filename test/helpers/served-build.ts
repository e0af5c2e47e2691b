/**
 * One built and served site per test file: a content folder built into a temporary folder before the file's
 * tests and served over real HTTP (with a headless browser when the file opens pages), all closed and removed
 * after them. Read the fields inside tests and hooks: they are set once the file's `beforeAll` has run.
 */
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type BuildResult, buildSite } from '../../generator/pipeline/build-site.ts';
import type { ServerOptions } from '../../generator/server/create-server.ts';
import { removeBuildDirs, tempDir } from './build-output.ts';
import { type SiteServer, startSiteServer } from './site-server.ts';

export interface ServedBuild {
  /** The output folder (`<temp>/dist`). */
  dist: string;
  result: BuildResult;
  server: SiteServer;
  /** Launched only when asked for. */
  browser: Browser;
}

export interface ServedBuildOptions {
  /** `content` unless given. */
  contentDir?: string;
  env: Record<string, string>;
  server?: Omit<ServerOptions, 'dist'>;
  browser?: boolean;
  /** For `beforeAll`, when the build is larger than the default timeout allows. */
  timeout?: number;
}

export function servedBuild(options: ServedBuildOptions): ServedBuild {
  const site = {} as ServedBuild;
  beforeAll(async () => {
    site.dist = path.join(tempDir('served'), 'dist');
    site.result = await buildSite({ contentDir: options.contentDir ?? 'content', outDir: site.dist, env: options.env });
    site.server = await startSiteServer(site.dist, options.server);
    // Loaded here so that files without pages do not load the browser driver.
    if (options.browser) site.browser = await (await import('./browser.ts')).launchBrowser();
  }, options.timeout);
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
    removeBuildDirs();
  });
  return site;
}
