/**
 * The test tiers (docs/maintainers/development.md, "Test tiers"). `npm test`
 * runs every tier but the browser's, which is what CI runs. For the
 * edit-test loop, `npm run test:unit` runs the fast tier: everything in one
 * process per file, spawning nothing and reading no build. The files below
 * are the process tier (`npm run test:process`): they spawn a process (the
 * CLIs, npx, npm pack, tsc, git, a nested vitest) or read the built package
 * (`dist/`). The browser tier (`npm run test:browser`) and the sweeps
 * (`npm run test:walks`) have configs of their own.
 *
 * The fast tier refuses to spawn (`test/support/no-processes.ts`), so a
 * file that starts spawning fails there until it is listed here.
 */
export const PROCESS_TIER: readonly string[] = [
  'bench/lib/args.test.ts',
  'test/check/**/*.test.ts',
  'test/cli/**/*.test.ts',
  'test/client/package.test.ts',
  'test/conformance/bin.test.ts',
  'test/conformance/curl.test.ts',
  'test/conformance/reference.test.ts',
  'test/docs/front-door.test.ts',
  'test/install/**/*.test.ts',
  'test/openapi/redocly.test.ts',
  'test/package/**/*.test.ts',
  'test/proxy/cli.test.ts',
  'test/security/depth.test.ts',
  'test/security/node-checker.test.ts',
  'test/security/origin.test.ts',
  'test/security/state-file-failure.test.ts',
  'test/security/timeouts.test.ts',
  'test/slide-checks/ways-in.test.ts',
  'test/slide-checks/large-deck.test.ts',
  'test/support/hooked-emulator.test.ts',
  'test/vitest/matchers.test.ts',
  'test/walk/walk.test.ts',
]

/**
 * The container tier (`npm run test:container`, vitest.container.config.ts): builds the image from
 * the Dockerfile and runs it with podman. Not part of `npm test`, which needs nothing but Node; CI
 * runs it after the browser tier.
 */
export const CONTAINER_TIER: readonly string[] = ['test/container/**/*.test.ts']

/** Every test file of `npm test` (the browser tests, the container tests and the sweeps have their own configs). */
export const ALL_TIERS: readonly string[] = ['src/**/*.test.ts', 'web/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts']
