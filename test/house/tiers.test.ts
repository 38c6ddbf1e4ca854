/**
 * The test tiers (test/tiers.ts): every file `npm test` runs is in exactly
 * one of the fast, process and deep tiers, each tier runs only files of
 * `npm test`, every test file of the repository is run by `npm test` or
 * the browser tier, and no entry of a tier's list has gone stale. The
 * files are found as vitest finds them: each config's `include` globbed
 * with its `exclude` left out.
 */
import { fileURLToPath } from 'node:url'
import { glob } from 'tinyglobby'
import { describe, expect, it } from 'vitest'
import browserConfig from '../../vitest.browser.config.js'
import containerConfig from '../../vitest.container.config.js'
import fullConfig from '../../vitest.config.js'
import deepConfig from '../../vitest.deep.config.js'
import processConfig from '../../vitest.process.config.js'
import unitConfig from '../../vitest.unit.config.js'
import walksConfig from '../../vitest.walks.config.js'
import { CONTAINER_TIER, DEEP_TIER, FAST_TIER_WAYS, PROCESS_TIER } from '../tiers.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

type TestOptions = { include?: string[]; exclude?: string[]; env?: Record<string, string>; isolate?: boolean }
const testOf = (config: unknown): TestOptions => (config as { test: TestOptions }).test

/** The files a config runs, as vitest finds them. */
async function filesOf(config: unknown): Promise<string[]> {
  const { include = [], exclude = [] } = testOf(config)
  return (await glob(include, { cwd: root, ignore: exclude, dot: true, expandDirectories: false })).sort()
}

describe('the test tiers', () => {
  it('put every file of npm test in exactly one of the fast, process and deep tiers, and nothing else in them', async () => {
    const full = await filesOf(fullConfig)
    const tiers = { fast: await filesOf(unitConfig), process: await filesOf(processConfig), deep: await filesOf(deepConfig) }
    expect(full.length).toBeGreaterThan(100)
    const placement = full.map((file) => ({
      file,
      tiers: Object.entries(tiers)
        .filter(([, files]) => files.includes(file))
        .map(([name]) => name),
    }))
    expect(
      placement.filter((p) => p.tiers.length === 0).map((p) => p.file),
      'in no tier',
    ).toEqual([])
    expect(
      placement.filter((p) => p.tiers.length > 1).map((p) => `${p.file}: ${p.tiers.join(', ')}`),
      'in two tiers',
    ).toEqual([])
    for (const [name, files] of Object.entries(tiers)) {
      expect(
        files.filter((file) => !full.includes(file)),
        `${name} tier files npm test does not run`,
      ).toEqual([])
    }
  })

  it('run every test file of the repository: npm test, the browser tier, the container tier or the sweeps', async () => {
    const everyFile = (
      await glob(['**/*.test.{ts,mts,js,mjs}', '**/*.sweep.ts'], {
        cwd: root,
        ignore: ['**/node_modules/**', 'dist/**', '.git/**', 'test-output/**', 'web/generated/**'],
        dot: true,
      })
    ).sort()
    const run = new Set([
      ...(await filesOf(fullConfig)),
      ...(await filesOf(browserConfig)),
      ...(await filesOf(containerConfig)),
      ...(await filesOf(walksConfig)),
    ])
    // npm test runs none of the container tier (it needs podman).
    expect((await filesOf(fullConfig)).filter((file) => file.startsWith('test/container/'))).toEqual([])
    expect(everyFile.filter((file) => !run.has(file))).toEqual([])
  })

  it('list no entry that matches no file', async () => {
    for (const entry of [...PROCESS_TIER, ...DEEP_TIER, ...CONTAINER_TIER]) {
      expect(await glob([entry], { cwd: root, expandDirectories: false }), entry).not.toEqual([])
    }
  })

  it('run the fast tier’s API and control-plane tests through the in-process fetch alone, and npm test through every way', () => {
    expect(testOf(unitConfig).env?.TEST_WAYS).toBe(FAST_TIER_WAYS)
    expect(FAST_TIER_WAYS).toBe('fetch')
    expect(testOf(fullConfig).env?.TEST_WAYS).toBeUndefined()
    expect(testOf(deepConfig).env?.TEST_WAYS).toBeUndefined()
    expect(testOf(processConfig).env?.TEST_WAYS).toBeUndefined()
  })

  it('isolate every file in npm test; only the fast tier shares a process between files', () => {
    expect(testOf(unitConfig).isolate).toBe(false)
    for (const config of [fullConfig, processConfig, deepConfig]) expect(testOf(config).isolate).not.toBe(false)
  })
})
