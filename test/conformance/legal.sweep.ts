/**
 * The kit never flags a legal server: every spec-legal server of the tests
 * (as a deployment with every key, writes and generation) and the emulator
 * (in-process, spec and emulator checks) pass at seeds 1 to 10
 * (`npm run test:walks`).
 */
import { describe, expect, it } from 'vitest'
import { runConformance, type Report } from '../../conformance/index.js'
import { runAsDeployment, SPEC_LEGAL_SERVERS } from './variants.js'

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
const failures = (report: Report) =>
  report.scenarios
    .filter((s) => s.outcome === 'fail')
    .map((s) => `${s.id}: ${s.failures.map((f) => `${f.clause}: ${f.message} (${f.expected} / ${f.actual})`).join('; ')}`)

describe('the emulator (in-process)', () => {
  it.each(SEEDS)('seed %i: every scenario passes', async (seed) => {
    const report = await runConformance({ seed })
    expect(failures(report)).toEqual([])
    expect(report.summary.skipped).toBe(0)
  })
})

describe.each(SPEC_LEGAL_SERVERS.map((server) => [server.name, server] as const))('%s, as a deployment', (_, legal) => {
  it.each(SEEDS)('seed %i: nothing fails', async (seed) => {
    const report = await runAsDeployment(legal.make(), { seed }, legal.keys)
    expect(failures(report)).toEqual([])
    expect(report.summary.passed).toBeGreaterThanOrEqual(30)
  })
})
