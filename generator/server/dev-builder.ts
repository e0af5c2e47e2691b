/**
 * `npm run dev`'s builds, in a worker thread, so that a rebuild never takes the server's event loop: the
 * server keeps answering while the next build is made. The worker keeps the build cache between rebuilds.
 * Each message asks for one build; the answer is what the dev server prints.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { buildSite } from '../pipeline/build-site.ts';
import { createBuildCache } from '../pipeline/build-cache.ts';
import type { Preview } from '../pipeline/catalogue/publish.ts';
import type { CmsBackend } from '../pipeline/outputs/cms/cms-config.ts';
import { ContentError, formatReport } from '../pipeline/problems.ts';
import { formatPublication } from '../pipeline/publication-report.ts';

export interface BuildRequest {
  id: number;
}

export type BuildAnswer =
  | { id: number; built: true; written: number; files: number; lines: string[] }
  | { id: number; built: false; report: string }
  | { id: number; built: false; failure: string };

const { contentDir, outDir, preview, cmsBackend } = workerData as {
  contentDir: string;
  outDir: string;
  preview: Preview;
  cmsBackend?: CmsBackend;
};
const cache = createBuildCache();

parentPort!.on('message', async ({ id }: BuildRequest) => {
  let answer: BuildAnswer;
  try {
    const result = await buildSite({ contentDir, outDir, preview, cache, cmsBackend });
    answer = { id, built: true, written: result.written, files: result.files, lines: formatPublication(result.publication, preview) };
  } catch (error) {
    answer =
      error instanceof ContentError
        ? { id, built: false, report: formatReport(error.problems, contentDir) }
        : { id, built: false, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(answer);
});
