/**
 * Vitest setup file, run in each test file before its modules load: names the generator's bundle
 * (bundle-setup.ts) as the bundle itself does, so that generator/pipeline/typescript-worker.ts starts its
 * threads from it.
 */
import { inject } from 'vitest';

const bundle = inject('generatorBundle');
if (bundle) Object.assign(globalThis, { __GENERATOR_BUNDLE__: bundle });
