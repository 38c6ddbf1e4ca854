import { configDefaults, defineConfig } from 'vitest/config'
import { common } from './vitest.config.js'
import { ALL_TIERS, CONTAINER_TIER, PROCESS_TIER } from './test/tiers.js'

/**
 * `npm run test:unit`: the fast tier, for the edit-test loop. Every test of
 * `npm test` but the process tier (test/tiers.ts), with no build first; a
 * test that tries to start a process fails (test/support/no-processes.ts).
 */
export default defineConfig({
  test: {
    ...common,
    include: [...ALL_TIERS],
    exclude: [...configDefaults.exclude, 'test/browser/**', ...PROCESS_TIER, ...CONTAINER_TIER],
    setupFiles: ['test/support/no-processes.ts'],
  },
})
