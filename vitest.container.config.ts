import { defineConfig } from 'vitest/config'
import { CONTAINER_TIER } from './test/tiers.js'

/**
 * `npm run test:container`: the container tier (test/tiers.ts), the image built from the Dockerfile
 * and run with podman (test/container/image.test.ts says what it needs). Not part of `npm test`. It
 * builds the package inside the image, so it needs no build here; time limits only stop a hang (a
 * build of the image takes minutes on a busy machine).
 */
export default defineConfig({
  test: {
    include: [...CONTAINER_TIER],
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
    pool: 'forks',
    // One file, and its containers one after the other: port 4010 is the README's.
    fileParallelism: false,
  },
})
