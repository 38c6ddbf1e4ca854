import { configDefaults, defineConfig } from 'vitest/config'
import { common } from './vitest.config.js'
import { DEEP_TIER } from './test/tiers.js'

/**
 * `npm run test:deep`: the deep tier (test/tiers.ts), the in-process files
 * too long for the edit-test loop (properties, the kit run in full again and
 * again, every bad state document). No build first; nothing spawned.
 */
export default defineConfig({
  test: {
    ...common,
    include: [...DEEP_TIER],
    exclude: [...configDefaults.exclude],
    setupFiles: ['test/support/no-processes.ts'],
  },
})
