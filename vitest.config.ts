import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The pages' browser scripts are build output (web/generated/): made, or found fresh, before any test.
    globalSetup: ['test/support/generated-scripts.ts'],
    include: ['src/**/*.test.ts', 'web/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts'],
    // Browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    // Time limits only stop a hang: no test asserts how long anything takes, and on a busy machine
    // (load average 10 and more on 2 cores) a test that takes 2 s alone can take 30 (docs/testing.md).
    // A build of the package, which a hook may wait for, takes minutes there.
    testTimeout: 120_000,
    hookTimeout: 900_000,
    // msw patches globals per process: one file per worker keeps them apart.
    pool: 'forks',
  },
})
