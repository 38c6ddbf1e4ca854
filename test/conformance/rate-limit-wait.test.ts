/**
 * A scenario whose requests waited for the target's rate limit says so on
 * its line: against a deployment the wait is real time (a minute), which a
 * bare duration does not explain. The target here is an emulator with a low
 * limit and a manual clock, so the wait moves its clock instead of sleeping.
 */
import { describe, expect, it } from 'vitest'
import { runConformance, scenarioLine } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'
import { manualClockOf } from './variants.js'

describe('waiting for the rate limit', () => {
  it('is reported on the scenario line, in the target’s time, and only when it happened', async () => {
    const run = async (rateLimit: number) => {
      const emulator = createEmulator({ clock: 'manual', rateLimit })
      try {
        const report = await runConformance({
          fetch: emulator.fetch,
          baseUrl: 'http://127.0.0.1:4010/v1',
          apiKey: 'pres_test_alice',
          clock: manualClockOf(emulator),
          grep: /^projects\.detail$/,
          seed: 1,
        })
        return { result: report.scenarios[0]!, clockMoved: Date.parse(emulator.control.clock().now) }
      } finally {
        await emulator.close()
      }
    }
    const slow = await run(3)
    expect(slow.result.outcome).toBe('pass')
    expect(slow.result.rateLimitWaitMs).toBeGreaterThan(0)
    expect(scenarioLine(slow.result)).toContain(`; its requests waited ${slow.result.rateLimitWaitMs} ms for the rate limit)`)
    const fast = await run(1000)
    expect(fast.result.outcome).toBe('pass')
    expect(fast.result.rateLimitWaitMs).toBeUndefined()
    expect(scenarioLine(fast.result)).not.toContain('rate limit')
  })
})
