/**
 * Budgets are bounds (issue 36): the walk's and the kit's `--time-budget`
 * read an injectable clock; here a fake one (the emulator's manual clock,
 * which moves only when the kit waits), against a target whose jobs never
 * finish. A run cut short says so in every format and lists what it left
 * behind; a budget that ends before the first run finishes is reported the
 * same way, never a crash.
 */
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { main, runConformance, runWalk } from '../../conformance/index.js'
import { humanReport } from '../../conformance/report/human.js'
import { junitXml } from '../../conformance/report/junit.js'
import { walkText } from '../../conformance/walk/report.js'
import type { PresentationEmulator } from '../../src/index.js'
import { FIVE_DEFECT_KEYS } from './five-defects.js'
import { brokenEmulator, DEFECTS, LIVE_KEYS, manualClockOf, runAsDeployment } from './variants.js'

const BASE = 'http://127.0.0.1:4010/v1'
const neverFinish = () => brokenEmulator(DEFECTS.find((d) => d.name === 'jobs never complete')!)
const fakeNow = (server: PresentationEmulator) => () => Date.parse(server.control.clock().now)

describe('the kit’s --time-budget', () => {
  it('cuts a run short at its budget against a target whose jobs never finish, and every format says so, with what it left behind', async () => {
    const server = neverFinish()
    const now = fakeNow(server)
    const start = now()
    const report = await runConformance({
      fetch: server.fetch,
      baseUrl: BASE,
      apiKey: 'pres_test_alice_acme',
      allowWrites: true,
      allowGeneration: true,
      grep: '^(generation\\.lifecycle|projects\\.create|teams\\.list)$',
      concurrency: 1,
      jobTimeoutMs: 3_600_000,
      clock: manualClockOf(server),
      timeBudgetMs: 90_000,
      budgetClock: now,
      seed: 2,
    })
    // Bounded: the fake clock moved no further than the budget (the job timeout is an hour).
    expect(now() - start).toBeLessThanOrEqual(90_000)
    expect(report.cutShort).toBeDefined()
    expect(report.cutShort!.budgetMs).toBe(90_000)
    expect(report.cutShort!.stopped).toEqual(['generation.lifecycle'])
    expect(report.cutShort!.leftBehind.jobs.length).toBe(1)
    expect(report.cutShort!.leftBehind.projects).toEqual(report.createdProjects)
    expect(report.scenarios.find((s) => s.id === 'generation.lifecycle')).toMatchObject({ outcome: 'skip', skip: { kind: 'cut-short' } })
    expect(humanReport(report)).toMatch(/^!!! Cut short: the time budget \(90 s\) ran out/)
    expect(humanReport(report)).toContain(`${report.cutShort!.leftBehind.jobs[0]}`)
    expect(JSON.parse(JSON.stringify(report)).cutShort.stopped).toEqual(['generation.lifecycle'])
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junitXml(report))
    const suite = [xml.testsuites.testsuite].flat().find((s: { name: string }) => s.name === 'spec checks')
    expect([suite.properties.property].flat().find((p: { name: string }) => p.name === 'cutShort').value).toMatch(/^!!! Cut short/)
    const cut = [suite.testcase].flat().find((c: { name: string }) => c.name.startsWith('generation.lifecycle'))
    expect(cut.skipped.message).toMatch(/^cut short: the time budget \(90 s\) ran out while it ran/)
  })

  it('a budget that ends before the first scenario finishes starts nothing more and reports the same way', async () => {
    const server = neverFinish()
    const report = await runAsDeployment(
      server,
      {
        grep: '^(generation\\.lifecycle|teams\\.list|projects\\.list)$',
        concurrency: 1,
        timeBudgetMs: 5_000,
        budgetClock: fakeNow(server),
        seed: 2,
      },
      FIVE_DEFECT_KEYS,
    )
    expect(report.cutShort).toBeDefined()
    expect(report.cutShort!.stopped.length + report.cutShort!.notRun.length).toBeGreaterThan(0)
    expect(report.scenarios.filter((s) => s.skip?.kind === 'cut-short').map((s) => s.id)).toEqual(
      [...report.cutShort!.stopped, ...report.cutShort!.notRun].sort(
        (a, b) => report.scenarios.findIndex((s) => s.id === a) - report.scenarios.findIndex((s) => s.id === b),
      ),
    )
  })
})

describe('the walk’s --time-budget', () => {
  const walkAgainst = (server: PresentationEmulator, timeBudgetMs: number) =>
    runWalk({
      fetch: server.fetch,
      baseUrl: BASE,
      apiKey: LIVE_KEYS.main.replace('live_', 'pres_'),
      otherTeamKey: 'pres_test_bob',
      allowWrites: true,
      allowGeneration: true,
      clock: manualClockOf(server),
      budgetClock: fakeNow(server),
      timeBudgetMs,
      runs: 50,
      seed: 4,
    })

  it('is a bound against a target whose jobs never finish: the walk ends at it, interrupted, with no counterexample', async () => {
    const server = neverFinish()
    const now = fakeNow(server)
    const start = now()
    const result = await walkAgainst(server, 120_000)
    expect(now() - start).toBeLessThanOrEqual(120_000)
    expect(result.interrupted).toBe(true)
    expect(result.counterexample).toBeUndefined()
    expect(result.runs).toBeLessThan(50)
    expect(walkText(result, {})).toContain('the time budget ran out')
  })

  it('a budget that ends before the first run finishes is reported, not a crash ("failed without a counterexample")', async () => {
    const server = neverFinish()
    const result = await walkAgainst(server, 1)
    expect(result.interrupted).toBe(true)
    expect(result.counterexample).toBeUndefined()
    expect(result.runs).toBeLessThanOrEqual(1)
  })
})

describe('a real-time smoke run', () => {
  it('the CLI with --time-budget 3s against a target whose jobs never finish says "cut short" and ends within the budget plus 30 s', async () => {
    const server = await neverFinish().listen({ port: 0 })
    try {
      let out = ''
      const started = performance.now()
      const code = await main(
        [
          'node',
          'presentation-conformance',
          '--base-url',
          `${server.origin}/v1`,
          '--api-key',
          'pres_test_alice_acme',
          '--allow-writes',
          '--allow-generation',
          '--grep',
          '^generation\\.lifecycle$',
          '--time-budget',
          '3s',
        ],
        { out: (t) => void (out += t), err: () => undefined },
      )
      const elapsed = performance.now() - started
      expect(out).toMatch(/^!!! Cut short: the time budget \(3 s\) ran out/m)
      expect(out).toMatch(/left behind on the target: \d+ project\(s\).*1 job\(s\) still processing \(job_\w+\)/)
      expect(elapsed).toBeLessThan(3_000 + 30_000)
      // Cut short is not a pass.
      expect(code).toBe(1)
    } finally {
      await server.close()
    }
  }, 60_000)
})
