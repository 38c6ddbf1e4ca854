/**
 * Proof that the kit discriminates: it catches each realistic single defect
 * with the right clause and a curl reproduction, and it passes a server that
 * follows the spec but chose differently wherever the spec says "not shown".
 */
import { describe, expect, it } from 'vitest'
import type { Report } from '../../conformance/index.js'
import { runAgainstHealthy } from '../support/healthy-kit.js'
import { DEFECTS, runAgainstDefect, runAsDeployment, specLegalEmulator } from './variants.js'

describe('the kit catches every seeded defect, naming the clause', () => {
  it.each(DEFECTS.map((defect) => [defect.name, defect] as const))('%s', async (_, defect) => {
    const report = await runAgainstDefect(defect)
    const result = report.scenarios.find((s) => s.id === defect.scenario)!
    expect(result.outcome, JSON.stringify(result, null, 2)).toBe('fail')
    const finding = result.failures.find((f) =>
      typeof defect.clause === 'string' ? f.clause === defect.clause : defect.clause.test(f.clause),
    )
    expect(finding, `no MUST finding names ${defect.clause}: ${result.failures.map((f) => f.clause).join(' | ')}`).toBeDefined()
    expect(finding!.level).toBe('MUST')
    // Every finding with a request shows it and a curl that reproduces it, with the key redacted.
    for (const f of result.failures.filter((x) => x.exchange !== undefined)) {
      expect(f.curl).toMatch(/^curl -i -X [A-Z]+ 'http:\/\/127\.0\.0\.1:4010\/v1\//)
      expect(f.curl).not.toMatch(/pres_[a-z0-9]/)
      expect(f.exchange!.request.headers.authorization ?? 'Bearer <redacted>').toMatch(/<redacted>|^Basic /)
    }
  })
})

describe('the defects are the servers’ own', () => {
  it('an emulator without a defect, reached the same way, passes every scenario that catches one (spec and emulator checks)', async () => {
    const report = await runAgainstHealthy(DEFECTS.map((d) => d.scenario))
    expect(report.scenarios.filter((s) => s.outcome !== 'pass').map((s) => `${s.id}: ${s.outcome}`)).toEqual([])
  })
})

describe('a spec-legal server that chose differently', () => {
  let report: Report

  it('passes every scenario it can run, as a deployment without a control plane', async () => {
    // Its clock is manual: the kit's waits move it instead of passing real time.
    report = await runAsDeployment(specLegalEmulator(), { seed: 5 })
    const failures = report.scenarios
      .filter((s) => s.outcome === 'fail')
      .map((s) => ({ id: s.id, failures: s.failures.map((f) => `${f.clause}: ${f.message} (${f.expected} / ${f.actual})`) }))
    expect(failures).toEqual([])
    // Only what needs a control plane or is an emulator check is left out.
    const skipped = report.scenarios.filter((s) => s.outcome === 'skip')
    for (const s of skipped)
      expect(
        s.kind === 'emulator' ||
          s.id === 'rate-limit.per-user' ||
          s.id === 'rate-limit.every-operation' ||
          s.id === 'generation.template-scope',
        `${s.id}: ${s.reason}`,
      ).toBe(true)
    expect(report.summary.passed).toBeGreaterThanOrEqual(30)
    expect(report.target).toMatchObject({ kind: 'deployment', emulator: false, controlPlane: false })
  })

  it('paced itself below the limit: the only 429s were in the rate-limit scenario', () => {
    const noted = report.scenarios.flatMap((s) => s.notes.filter((n) => n.includes('unexpected 429')).map((n) => `${s.id}: ${n}`))
    expect(noted).toEqual([])
    expect(report.scenarios.find((s) => s.id === 'rate-limit.429')?.outcome).toBe('pass')
  })
})
