import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Unpacks the bundled browser once, makes the content's vectors once, and the generator's bundle, before the workers start.
    globalSetup: ['test/helpers/browser-setup.ts', 'test/helpers/semantic-setup.ts', 'test/helpers/bundle-setup.ts'],
    // The generator's worker threads start from its bundle (test/helpers/bundle-setup.ts).
    setupFiles: ['test/helpers/bundle-global.ts'],
    // Integration suites build dist/ folders and start servers; two workers suit a 2-core machine.
    maxWorkers: 2,
    // Builds the suites start through a command (npm run dev, the CLI) leave semantic search out, as BUILD_ENV
    // does for the builds they make in-process: the suites about meaning turn it on (test/helpers/build-output.ts).
    env: { SEMANTIC_SEARCH: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
