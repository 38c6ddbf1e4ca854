import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Browser tests need Chromium: `npm run test:browser` (vitest.browser.config.ts).
    exclude: [...configDefaults.exclude, 'test/browser/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // msw patches globals per process: one file per worker keeps them apart.
    pool: 'forks',
  },
})
