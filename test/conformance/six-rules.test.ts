/**
 * The six rules the kit once let through (issue 36), each held against a
 * server with that one defect: the kit now names it (a MUST where the spec
 * or, against the emulator, the contract requires it), and the same
 * emulator without the defect, reached the same way, passes. Against a
 * deployment the contract's rules are at most SHOULDs, and a rule the kit
 * could not run says so in the coverage.
 */
import { describe, expect, it } from 'vitest'
import { main, runConformance } from '../../conformance/index.js'
import type { Report } from '../../conformance/types.js'
import { runAgainstHealthy } from '../support/healthy-kit.js'
import { brokenEmulator, DEFECTS, type Defect, defectFetch, manualClockOf, runAgainstDefect } from './variants.js'

/** Each defect, and the words of the check that must name it (so it is caught by its rule, not by the way). */
const RULES: Record<string, RegExp> = {
  'theme deep-merged instead of replaced whole': /theme is replaced as a whole|theme replaced as a whole/,
  'a published site still served after unpublishing (a cache in front of it)': /^the published site is 404 once unpublished$/,
  'the editing indicator on an unknown slide answered 200': /^POST answers 404$/,
  'a revoked key counted against its owner’s rate limit': /the refused requests do not: Remaining is limit − 2/,
  'another team’s template accepted on generate': /^POST answers 404$/,
  'a reset that keeps the faults': /^(reset clears the faults|a fault added before the reset no longer fires)$/,
}
const SIX = Object.keys(RULES)
const defect = (name: string): Defect => DEFECTS.find((d) => d.name === name)!
const scenario = (report: Report, id: string) => report.scenarios.find((s) => s.id === id)!

function expectCaught(report: Report, d: Defect): void {
  const result = scenario(report, d.scenario)
  expect(result.outcome, JSON.stringify(result, null, 2)).toBe('fail')
  const finding = result.failures.find(
    (f) => (typeof d.clause === 'string' ? f.clause === d.clause : d.clause.test(f.clause)) && RULES[d.name]!.test(f.message),
  )
  expect(finding, result.failures.map((f) => `${f.clause}: ${f.message}`).join(' | ')).toBeDefined()
  expect(finding!.level).toBe('MUST')
}

describe('each rule the kit let through is caught against the emulator (its control plane given)', () => {
  it.each(SIX)('%s', async (name) => {
    expectCaught(await runAgainstDefect(defect(name)), defect(name))
  })

  it('the emulator without a defect, reached the same way, passes those scenarios', async () => {
    const ids = [...new Set(SIX.map((name) => defect(name).scenario))]
    const report = await runAgainstHealthy(ids)
    const outcomes = report.scenarios.map((s) => [s.id, s.outcome, s.failures.map((f) => f.message), s.warnings.map((f) => f.message)])
    expect(outcomes.sort()).toEqual(ids.map((id) => [id, 'pass', [], []]).sort())
  })

  it('--allow-reset without --control-url is a usage error (exit 2), before any request', async () => {
    let err = ''
    const code = await main(
      ['node', 'presentation-conformance', '--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k', '--allow-reset'],
      {
        out: () => undefined,
        err: (t) => void (err += t),
      },
    )
    expect(code).toBe(2)
    expect(err).toBe('presentation-conformance: --allow-reset needs --control-url\n')
  })

  it('a reset runs against a control URL only with --allow-reset, and says which flag', async () => {
    const report = await runAgainstDefect(defect('a reset that keeps the faults'), { allowReset: false })
    expect(scenario(report, 'emulator.reset-and-state')).toMatchObject({ outcome: 'skip', skip: { kind: 'needs', needs: ['reset'] } })
    expect(scenario(report, 'emulator.reset-and-state').reason).toMatch(/--allow-reset/)
  })
})

/** A defect's server as a deployment: Alice's personal key, writes and generation, no control plane. */
async function asDeployment(d: Defect, options: Parameters<typeof runConformance>[0] = {}): Promise<Report> {
  const server = brokenEmulator(d)
  return runConformance({
    fetch: defectFetch(d, server),
    baseUrl: 'http://127.0.0.1:4010/v1',
    apiKey: 'pres_test_alice',
    allowWrites: true,
    allowGeneration: true,
    clock: manualClockOf(server),
    grep: d.grep,
    seed: 11,
    ...options,
  })
}

describe('against a deployment (no control plane)', () => {
  it('a site still served after unpublishing is a SHOULD on the publication clause, not a MUST', async () => {
    const d = defect('a published site still served after unpublishing (a cache in front of it)')
    const result = scenario(await asDeployment(d), d.scenario)
    expect(result.outcome, JSON.stringify(result.notes)).toBe('pass')
    expect(
      result.warnings.map((w) => [w.level, w.clause, w.message]),
      JSON.stringify(result.notes),
    ).toContainEqual(['SHOULD', 'States and transitions › Project publication', 'the published site is no longer served once unpublished'])
    const clean = scenario(await asDeployment({ ...d, hooks: {}, wrap: undefined }), d.scenario)
    expect(clean.warnings).toEqual([])
  })

  it('the editing indicator on an unknown slide answered 200 is a SHOULD (the spec shows no status)', async () => {
    const d = defect('the editing indicator on an unknown slide answered 200')
    const result = scenario(await asDeployment(d), d.scenario)
    expect(result.outcome).toBe('pass')
    expect(result.warnings.some((w) => w.level === 'SHOULD' && /startSlideEditing/.test(w.clause))).toBe(true)
  })

  it('another team’s template comes from --other-team-template, and is caught', async () => {
    const d = defect('another team’s template accepted on generate')
    const server = brokenEmulator(d)
    const state = (await server.control.getState()) as unknown as {
      teams: Array<{ id: string; name: string }>
      templates: Array<{ id: string; teamId: string }>
    }
    const acme = state.teams.find((t) => t.name.startsWith('Acme'))!.id
    const template = state.templates.find((t) => t.teamId === acme)!.id
    const report = await runConformance({
      fetch: server.fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: 'pres_test_alice',
      otherTeamTemplate: template,
      allowWrites: true,
      allowGeneration: true,
      clock: manualClockOf(server),
      grep: d.grep,
      seed: 11,
    })
    expectCaught(report, d)
  })

  it('with a control plane and a given other key whose team has no template, the kit makes one there and catches it', async () => {
    const d = defect('another team’s template accepted on generate')
    expectCaught(await runAgainstDefect(d, { otherTeamKey: 'pres_test_bob' }), d)
  })

  it('without a template of another team the rule does not run, and the coverage says so', async () => {
    const report = await asDeployment(defect('another team’s template accepted on generate'), {
      otherTeamKey: 'pres_test_bob',
      grep: /^(generation\.template-scope|generation\.validation)$/,
    })
    const result = scenario(report, 'generation.template-scope')
    expect(result.outcome).toBe('skip')
    expect(result.reason).toMatch(/--other-team-template/)
    const row = report.coverage.find((r) => r.operationId === 'generateProject' && r.status === 404)!
    const said = row.state === 'exercised' ? (row.notRun ?? []).join('\n') : (row.reason ?? '')
    expect(said).toMatch(/^generation\.template-scope: .*--other-team-template/m)
  })
})
