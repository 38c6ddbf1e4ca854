import { defineConfig } from 'vitest/config'

/**
 * `npm run test:walks`: the sweeps over seeds 1 to 10 (the kit and the walk against every spec-legal server and
 * the emulator, and every sequence defect), too long for `npm test`, which runs one seed of each.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.sweep.ts'],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
})
