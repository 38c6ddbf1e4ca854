/**
 * The test tiers (docs/maintainers/development.md, "Test tiers"). `npm test`
 * runs every file of every tier but the browser's, which is what CI runs.
 * Each file of `npm test` is in exactly one of three tiers
 * (`test/house/tiers.test.ts` checks it):
 *
 * - the fast tier (`npm run test:unit`), for the edit-test loop: every file
 *   listed in neither list below, each in one process, spawning nothing and
 *   reading no build; the API and control-plane files run through the
 *   in-process `fetch` alone there (`FAST_TIER_WAYS`), where `npm test`
 *   runs them through all three ways in;
 * - the process tier (`npm run test:process`, `PROCESS_TIER`): files that
 *   spawn a process (the CLIs, npx, npm pack, tsc, git, a nested vitest) or
 *   read the built package (`dist/`);
 * - the deep tier (`npm run test:deep`, `DEEP_TIER`): in-process files too
 *   long for the edit-test loop: properties over many runs, the kit run in
 *   full again and again (against every seeded defect, through the proxy,
 *   under a prefix, over HTTP), every bad state document, every write failing.
 *
 * The browser tier (`npm run test:browser`) and the sweeps
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
  'test/mcp/stdio.test.ts',
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

/**
 * In-process files that take long: kept out of the fast tier, run by
 * `npm test` (and `npm run test:deep`). A file goes here when measuring the
 * fast tier shows it among the longest and the fast tier keeps a shorter
 * test of the same behaviour (`kit.test.ts` for the kit, `record.test.ts`
 * for the proxy, the API tests for state, `transpile.test.ts` for the
 * transpiler, the fuzz files' behaviour in the API tests).
 */
export const DEEP_TIER: readonly string[] = [
  'test/api/atomic-writes.test.ts',
  'test/conformance/client-report-kit.test.ts',
  'test/conformance/discrimination.test.ts',
  'test/conformance/kit-http.test.ts',
  'test/conformance/prefix.test.ts',
  'test/control/state.test.ts',
  'test/fuzz/**/*.fuzz.test.ts',
  'test/openapi/emulator-choices.test.ts',
  'test/openapi/job-status.test.ts',
  'test/proxy/proxy.test.ts',
  'test/proxy/replay.test.ts',
  'web/render/transpile.property.test.ts',
]

/** The ways in (test/support/harness.ts, `TEST_WAYS`) of the fast tier: the in-process fetch. */
export const FAST_TIER_WAYS = 'fetch'

/** Every test file of `npm test` (the browser tests, the container tests and the sweeps have their own configs). */
export const ALL_TIERS: readonly string[] = ['src/**/*.test.ts', 'web/**/*.test.ts', 'test/**/*.test.ts', 'bench/**/*.test.ts']
