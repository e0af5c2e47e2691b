import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Unpacks the bundled browser once, and makes the content's vectors once, before the workers start.
    globalSetup: ['test/helpers/browser-setup.ts', 'test/helpers/semantic-setup.ts'],
    // Integration suites build dist/ folders and start servers; two workers suit a 2-core machine.
    maxWorkers: 2,
    // Builds the suites start through a command (npm run dev, the CLI) leave semantic search out, as BUILD_ENV
    // does for the builds they make in-process: the suites about meaning turn it on (test/helpers/build-output.ts).
    env: { SEMANTIC_SEARCH: 'off' },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
