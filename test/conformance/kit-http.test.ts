/**
 * The whole kit over a real socket, against an emulator it starts on a free
 * port: a second full run beside `kit.test.ts`'s in-process one, so it is in
 * the deep tier (test/tiers.ts).
 */
import { describe, expect, it } from 'vitest'
import { runConformance } from '../../conformance/index.js'

describe('the kit against the emulator over HTTP', () => {
  it('passes every check over HTTP, against an emulator it starts on a free port', async () => {
    const report = await runConformance({ target: 'http', seed: 2 })
    const bad = report.scenarios
      .filter((s) => s.outcome !== 'pass')
      .map((s) => `${s.id} ${s.outcome}: ${s.reason ?? s.failures.map((f) => `${f.clause}: ${f.message}`).join('; ')}`)
    expect(bad).toEqual([])
    expect(report.target.kind).toBe('http')
    expect(report.target.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
  })
})
