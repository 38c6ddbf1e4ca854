import { defineConfig } from 'vitest/config'

/**
 * `npm run test:browser`: the pages in real headless Chromium (Debian's
 * `chromium`, driven by playwright-core; see test/browser/support/browser.ts).
 * Not part of `npm test`, which needs nothing but Node.
 */
export default defineConfig({
  test: {
    // The pages' browser scripts are build output (web/generated/): made, or found fresh, before any test.
    globalSetup: ['test/support/generated-scripts.ts'],
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One browser at a time: the machines have two cores.
    fileParallelism: false,
  },
})
