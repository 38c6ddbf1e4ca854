import { configDefaults, defineConfig } from 'vitest/config'
import { common } from './vitest.config.js'
import { PROCESS_TIER } from './test/tiers.js'

/**
 * `npm run test:process`: the process tier (test/tiers.ts), the tests that
 * spawn the CLIs, npx, npm, tsc or git, or read the built package; the
 * script builds first, as `npm test` does.
 */
export default defineConfig({
  test: { ...common, include: [...PROCESS_TIER], exclude: [...configDefaults.exclude] },
})
