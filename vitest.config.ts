import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config'
import { ALL_TIERS, CONTAINER_TIER } from './test/tiers.js'

/** What every tier of `npm test` shares (test/tiers.ts: the tiers; vitest.unit.config.ts, vitest.process.config.ts). */
export const common: NonNullable<ViteUserConfig['test']> = {
  // The pages' browser scripts are build output (web/generated/): made, or found fresh, before any test.
  globalSetup: ['test/support/generated-scripts.ts'],
  // Time limits only stop a hang: no test asserts how long anything takes, and on a busy machine
  // (load average 10 and more on 2 cores) a test that takes 2 s alone can take 30 (docs/testing.md).
  // A build of the package, which a hook may wait for, takes minutes there.
  testTimeout: 120_000,
  hookTimeout: 900_000,
  // msw patches globals per process: one file per worker keeps them apart.
  pool: 'forks',
}

/** `npm test`: every tier but the browser's (`npm run test:browser`, vitest.browser.config.ts, needs Chromium). */
export default defineConfig({
  test: {
    ...common,
    include: [...ALL_TIERS],
    exclude: [...configDefaults.exclude, 'test/browser/**', ...CONTAINER_TIER],
  },
})
