import { configDefaults, defineConfig } from 'vitest/config'
import { common } from './vitest.config.js'
import { ALL_TIERS, CONTAINER_TIER, DEEP_TIER, FAST_TIER_WAYS, PROCESS_TIER } from './test/tiers.js'

/**
 * `npm run test:unit`: the fast tier, for the edit-test loop. Every test of
 * `npm test` but the process and deep tiers (test/tiers.ts), with no build
 * first, the API and control-plane tests through the in-process fetch alone;
 * a test that tries to start a process fails (test/support/no-processes.ts).
 *
 * Its files share a process per worker (`isolate: false`): starting a
 * process and loading the emulator for each file was half the tier's time.
 * So a file leaves nothing behind (timers, an msw server, globals, the
 * environment); `npm test` isolates every file, so a leak shows as a failure
 * in this tier only, which `npx vitest run <file>` alone does not repeat.
 */
export default defineConfig({
  test: {
    ...common,
    include: [...ALL_TIERS],
    exclude: [...configDefaults.exclude, 'test/browser/**', ...PROCESS_TIER, ...DEEP_TIER, ...CONTAINER_TIER],
    setupFiles: ['test/support/no-processes.ts'],
    env: { TEST_WAYS: FAST_TIER_WAYS },
    isolate: false,
  },
})
