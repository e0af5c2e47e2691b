/** Builds a content folder into a temporary dist/ once per test file, with a fixed build time. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSite } from '../../generator/build/build-site.ts';

/** 2026-11-18T11:06:40Z: after every dated fixture article except the scheduled ones. */
export const BUILD_EPOCH = '1795000000';
export const TEST_SITE_URL = 'https://api.example.test';

const created: string[] = [];

export async function buildDist(contentDir: string, env: Record<string, string> = {}): Promise<string> {
  const outDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'dist-')), 'dist');
  created.push(path.dirname(outDir));
  await buildSite({ contentDir, outDir, env: { SOURCE_DATE_EPOCH: BUILD_EPOCH, SITE_URL: TEST_SITE_URL, ...env } });
  return outDir;
}

export function removeBuiltDists(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}
