import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Child-process, worker and CLI tests run the compiled code: build it once, first.
    globalSetup: ['test/setup/build.ts'],
    // Each test file's temporary directories (`tempDir`) are removed when it ends.
    setupFiles: ['test/setup/temp-dirs.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
