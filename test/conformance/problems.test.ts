/**
 * Reports a person acts on in a minute (issue 36): every report opens with
 * the distinct problems, one per rule, each with its count; identical
 * findings inside a scenario collapse; the full list stays in the JSON and
 * behind `--verbose`.
 */
import { XMLParser } from 'fast-xml-parser'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Finding, Report, ScenarioResult } from '../../conformance/index.js'
import { humanReport } from '../../conformance/report/human.js'
import { junitXml } from '../../conformance/report/junit.js'
import { markdownReport } from '../../conformance/report/markdown.js'
import { collapse, derivedRule, problemsOf } from '../../conformance/report/problems.js'
import { FIVE_DEFECTS, FIVE_DEFECT_KEYS, fiveDefectServer } from './five-defects.js'
import { runAsDeployment } from './variants.js'

const finding = (over: Partial<Finding> = {}): Finding => ({
  rule: 'list.within-limit',
  level: 'MUST',
  clause: 'Limits',
  ref: 'reference/api.md#limits',
  message: 'a page holds at most `limit` items',
  expected: '≤ 1',
  actual: '2',
  operationId: 'listProjects',
  ...over,
})

const result = (id: string, failures: Finding[], over: Partial<ScenarioResult> = {}): ScenarioResult => ({
  id,
  title: id,
  kind: 'spec',
  outcome: failures.length > 0 ? 'fail' : 'pass',
  durationMs: 1,
  checks: failures.length,
  failures,
  warnings: [],
  notes: [],
  ...over,
})

describe('distinct problems', () => {
  it('collapses identical findings of a scenario into one with a count, keeping different ones apart', () => {
    const collapsed = collapse([finding(), finding(), finding({ actual: '3' }), finding()])
    expect(collapsed.map((c) => [c.finding.actual, c.count])).toEqual([
      ['2', 3],
      ['3', 1],
    ])
  })

  it('makes one problem per rule, clause and level, counting every finding and naming each scenario and operation', () => {
    const problems = problemsOf([
      result('a', [finding(), finding(), finding({ operationId: 'listTemplates' })]),
      result('b', [finding({ rule: 'error.code', clause: 'Errors', message: 'an error carries X-Service-Error-Code' }), finding()]),
      result('skipped', [finding()], { outcome: 'skip' }),
      result('c', [], { warnings: [finding({ level: 'SHOULD', rule: 'x', message: 'should' })] }),
    ])
    expect(problems.map((p) => [p.rule, p.level, p.count])).toEqual([
      ['list.within-limit', 'MUST', 4],
      ['error.code', 'MUST', 1],
      ['x', 'SHOULD', 1],
    ])
    expect(problems[0]!.scenarios).toEqual([
      { id: 'a', count: 3 },
      { id: 'b', count: 1 },
    ])
    expect(problems[0]!.operations).toEqual(['listProjects', 'listTemplates'])
  })

  it('marks a problem the baseline expects, and lists it after those it does not', () => {
    const problems = problemsOf([
      result('a', [finding(), finding(), finding()], { outcome: 'expected-fail' }),
      result('b', [finding({ rule: 'other', message: 'other' })]),
    ])
    expect(problems.map((p) => [p.rule, p.expected])).toEqual([
      ['other', false],
      ['list.within-limit', true],
    ])
  })

  it('derives the same rule id in every run: the run’s names and generated ids are taken out', () => {
    const a = derivedRule('Limits', 'project conformance-abc123-x-q1w2e3 has job_123abc', 'abc123')
    const b = derivedRule('Limits', 'project conformance-zzz999-x-r4t5y6 has job_999zzz', 'zzz999')
    expect(a).toBe(b)
    expect(a).toMatch(/^check\.[0-9a-f]{8}$/)
    expect(derivedRule('Limits', 'another wording')).not.toBe(a)
  })
})

describe('a server with five defects (issue 36): the reports name each once, with its count', () => {
  let report: Report

  beforeAll(async () => {
    report = await runAsDeployment(fiveDefectServer(), { seed: 42 }, FIVE_DEFECT_KEYS)
  }, 120_000)

  it('the limit check is one rule in one wording, however many requests met it', () => {
    const all = report.scenarios.flatMap((s) => s.failures).filter((f) => /at most (`limit`|limit=)/.test(f.message))
    expect(all.length).toBeGreaterThan(5)
    expect(new Set(all.map((f) => f.rule))).toEqual(new Set(['list.within-limit']))
    expect(new Set(all.map((f) => f.message)).size).toBe(1)
    const problem = report.problems.find((p) => p.rule === 'list.within-limit')!
    expect(problem.count).toBe(all.length)
  })

  it('the human report’s first screen (40 lines, after the start line and a blank) names each defect, each problem once with its count', () => {
    const screen = humanReport(report).split('\n').slice(0, 38)
    for (const defect of FIVE_DEFECTS)
      expect(
        screen.some((line) => defect.problem.test(line)),
        `${defect.name} is not on the first screen:\n${screen.join('\n')}`,
      ).toBe(true)
    // Each problem is one numbered line with its count, and no rule's statement is listed twice.
    const numbered = screen.filter((line) => /^\s+\d+\. [✗!] (MUST|SHOULD)\s+\d+× /.test(line))
    expect(numbered.length).toBe(report.problems.length)
    const statements = numbered.map((line) => line.replace(/^\s+\d+\. [✗!] \w+\s+\d+×\s+/, ''))
    expect(new Set(statements).size).toBe(statements.length)
    const limit = numbered.find((line) => line.includes('at most `limit` items'))!
    expect(limit).toContain(`${report.problems.find((p) => p.rule === 'list.within-limit')!.count}×`)
    // The whole report is a fraction of the ~820 lines the issue counted.
    expect(humanReport(report).split('\n').length).toBeLessThan(400)
  })

  it('the JSON keeps every finding and adds the same problems; the JUnit file opens with them', () => {
    const json = JSON.parse(JSON.stringify(report)) as Report
    expect(json.problems.map((p) => p.rule)).toEqual(report.problems.map((p) => p.rule))
    const findings = json.scenarios.reduce((n, s) => n + s.failures.length + s.warnings.length, 0)
    expect(json.problems.reduce((n, p) => n + p.count, 0)).toBe(findings)
    for (const p of json.problems) expect(p.example.curl ?? '', p.rule).not.toMatch(/pres_test/)

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(junitXml(report))
    const suites = [xml.testsuites.testsuite].flat()
    expect(suites[0].name).toBe('distinct problems')
    const cases = [suites[0].testcase].flat()
    expect(cases.map((c: { name: string }) => /\[([^\]]+)\]$/.exec(c.name)![1])).toEqual(report.problems.map((p) => p.rule))
    const limitCase = cases.find((c: { name: string }) => c.name.includes('[list.within-limit]'))
    expect(limitCase.failure.message).toMatch(/^\d+× Limits: /)
    // A scenario's failure collapses identical findings: the rate-limit burst's pages are one entry with a count.
    const burst = [suites.find((s: { name: string }) => s.name === 'spec checks').testcase]
      .flat()
      .find((c: { name: string }) => c.name.startsWith('rate-limit.429'))
    expect(burst.failure['#text']).toMatch(/^\d+× \(identical findings in this scenario\)/)
    // Skipped only when a scenario did not run.
    for (const c of [suites.find((s: { name: string }) => s.name === 'spec checks').testcase].flat())
      if (c.skipped !== undefined) expect(report.scenarios.find((s) => c.name.startsWith(`${s.id} —`))!.outcome).toBe('skip')
  })

  it('the markdown summary renders the same problems: one table row each with its count, one folded example each', () => {
    const md = markdownReport(report)
    expect(md).toMatch(/^## ❌ Presentation Service conformance: \d+ passed, \d+ failed, /)
    const rows = md.split('\n').filter((line) => /^\| \d+ \| (MUST|SHOULD) \|/.test(line))
    expect(rows).toHaveLength(report.problems.length)
    rows.forEach((row, i) => {
      // Seven cells: pipes inside a cell are escaped, so a row never splits into more.
      expect(row.split(/(?<!\\)\|/).slice(1, -1), row).toHaveLength(7)
      expect(row, row).toContain(`| ${report.problems[i]!.count}× |`)
    })
    for (const defect of FIVE_DEFECTS)
      expect(
        rows.some((row) => defect.problem.test(row)),
        defect.name,
      ).toBe(true)
    expect(md.match(/<details><summary>/g)).toHaveLength(report.problems.length)
    expect(md.match(/<\/details>/g)).toHaveLength(report.problems.length)
    for (const p of report.problems) expect(md).toContain(`\`${p.rule}\``)
    // Every fence it opens, it closes.
    expect((md.match(/^```/gm) ?? []).length % 2).toBe(0)
    expect(md).not.toContain('Cut short')
  })

  it('--verbose lists every finding; the default lists each problem’s example once', () => {
    const short = humanReport(report)
    const verbose = humanReport(report, { verbose: true })
    const reproductions = (text: string) => text.split('\n').filter((line) => line.includes('reproduce: curl')).length
    expect(reproductions(short)).toBe(report.problems.filter((p) => p.example.curl !== undefined).length)
    expect(reproductions(verbose)).toBe(report.scenarios.flatMap((s) => [...s.failures, ...s.warnings]).filter((f) => f.curl).length)
  })
})

describe('the markdown summary of a run cut short', () => {
  it('says so first, with what it stopped, never started and left behind', () => {
    const base = {
      format: 'presentation-conformance/report@1',
      runId: 'abc123',
      seed: 1,
      target: { kind: 'deployment', baseUrl: 'https://api.example/v1', emulator: false, controlPlane: false },
      startedAt: '2026-01-01T00:00:00.000Z',
      durationMs: 90_000,
      summary: { passed: 1, failed: 0, skipped: 0, expectedFailures: 0, stale: 0, warnings: 0, total: 3, emulatorOnly: 0 },
      problems: [],
      scenarios: [result('teams.list', [])],
      coverage: [],
      createdProjects: ['conformance-abc123-a'],
      mostlySkipped: false,
    } satisfies Report
    const whole = markdownReport(base)
    expect(whole).toMatch(/^## ✅ /)
    expect(whole).toContain('No problems: every check that ran held.')
    const cut = markdownReport({
      ...base,
      cutShort: {
        budgetMs: 90_000,
        stopped: ['projects.detail'],
        notRun: ['projects.rename'],
        leftBehind: { projects: ['conformance-abc123-a'], jobs: ['job_1'] },
      },
    })
    expect(cut).toMatch(/^## ❌ /)
    const lines = cut.split('\n')
    const at = lines.findIndex((line) => line.includes('**Cut short**'))
    expect(at).toBeGreaterThan(0)
    expect(at).toBeLessThan(lines.findIndex((line) => line.startsWith('No problems')))
    expect(cut).toContain('Stopped: `projects.detail`.')
    expect(cut).toContain('Not run: `projects.rename`.')
    expect(cut).toContain('Left behind on the target: 1 project, 1 job still processing.')
  })
})
