/**
 * Vitest global setup: makes the generator's bundle (generator/launch.mjs), once per version of the source, and
 * hands its folder to every test file (bundle-global.ts), again before each rerun of watch mode so that an edit
 * of the source is bundled too. The worker threads the suites' builds start then run from it, as the commands'
 * threads do: through the TypeScript loader each start took about 0.4 s of CPU, and most builds start one
 * (test/pipeline/incremental.test.ts: 34 s of CPU with the loader, 24 s from the bundle).
 */
import type { TestProject } from 'vitest/node';
// @ts-expect-error the launcher is plain JavaScript, run before any TypeScript loader
import { ensureBundle, leaseBundle } from '../../generator/launch.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bundle's folder, or '' where it could not be made (the threads then load the source). */
    generatorBundle: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const provide = async () => {
    const bundle = (await ensureBundle()) as string | undefined;
    // Leased for the run, as a command leases its own: the launcher suite bundles another copy of the source
    // into the same cache, which removes every bundle no running process leases.
    if (bundle) leaseBundle(bundle);
    project.provide('generatorBundle', bundle ?? '');
  };
  await provide();
  project.onTestsRerun(provide);
}
