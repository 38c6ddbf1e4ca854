/**
 * The SARIF report (issue 36): valid SARIF 2.1.0 (checked against the schema
 * kept in `test/conformance/sarif/`, see its SOURCE.md), one result per
 * distinct problem, rule ids stable across runs, each result located in
 * `reference/openapi.json` at its operation's line with the operation as a
 * logical location, the rule's help as text and as a URI only with
 * `--reference-url`.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import AjvDraft04 from 'ajv-draft-04'
import addFormats from 'ajv-formats'
import { beforeAll, describe, expect, it } from 'vitest'
import { main, type Report } from '../../conformance/index.js'
import { operationLines, sarifReport, shippedOpenApiText } from '../../conformance/report/sarif.js'
import { FIVE_DEFECT_KEYS, FIVE_DEFECTS, fiveDefectServer } from './five-defects.js'
import { runAsDeployment } from './variants.js'

const schema = JSON.parse(readFileSync(new URL('./sarif/sarif-2.1.0-rtm.5.json', import.meta.url), 'utf8'))
// The schema is draft-04; one of its patterns is not a valid regular expression under the u flag, which ajv uses by default.
const ajv = new AjvDraft04.default({ allErrors: true, strict: false, unicodeRegExp: false })
addFormats.default(ajv)
const validate = ajv.compile(schema)

/** The schema's errors for `log`, as lines (none: valid). */
function schemaErrors(log: unknown): string[] {
  return validate(log)
    ? []
    : (validate.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message}`)
}

interface SarifResult {
  ruleId: string
  ruleIndex: number
  level: string
  message: { text: string }
  locations: Array<{
    physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number } }
    logicalLocations?: Array<{ name: string; fullyQualifiedName: string; kind: string }>
  }>
}

const openApi = readFileSync(new URL('../../reference/openapi.json', import.meta.url), 'utf8')

describe('the SARIF report of a server with five defects', () => {
  let first: Report
  let second: Report

  beforeAll(async () => {
    first = await runAsDeployment(fiveDefectServer(), { seed: 42 }, FIVE_DEFECT_KEYS)
    second = await runAsDeployment(fiveDefectServer(), { seed: 7 }, FIVE_DEFECT_KEYS)
  }, 120_000)

  it('validates against the SARIF 2.1.0 schema, with and without --reference-url, and cut short', async () => {
    expect(schemaErrors(JSON.parse(await sarifReport(first)))).toEqual([])
    expect(schemaErrors(JSON.parse(await sarifReport(first, { referenceUrl: 'https://example.com/pe/reference' })))).toEqual([])
    const cut: Report = {
      ...first,
      cutShort: {
        budgetMs: 60_000,
        stopped: ['projects.detail'],
        notRun: ['projects.rename'],
        leftBehind: { projects: ['p'], jobs: ['job_1'] },
      },
    }
    const log = JSON.parse(await sarifReport(cut))
    expect(schemaErrors(log)).toEqual([])
    expect(log.runs[0].invocations[0].executionSuccessful).toBe(false)
    expect(log.runs[0].invocations[0].toolExecutionNotifications[0].message.text).toMatch(/^Cut short: /)
    // The schema catches what is not SARIF: the test would see a broken log.
    expect(schemaErrors({ ...log, version: '2.0.0' })).not.toEqual([])
    expect(schemaErrors({ version: '2.1.0', runs: [{ tool: {}, results: [] }] })).not.toEqual([])
  })

  it('has one result per distinct problem, its ruleId the problem’s rule, the same ids in another run', async () => {
    const log = JSON.parse(await sarifReport(first))
    const run = log.runs[0]
    const results = run.results as SarifResult[]
    expect(results.map((r) => r.ruleId)).toEqual(first.problems.map((p) => p.rule))
    for (const r of results) expect(run.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId)
    for (const defect of FIVE_DEFECTS)
      expect(
        results.some((r) =>
          defect.problem.test([r.message.text, ...r.locations.flatMap((l) => (l.logicalLocations ?? []).map((ll) => ll.name))].join(' ')),
        ),
        defect.name,
      ).toBe(true)
    expect(results.find((r) => r.ruleId === 'list.within-limit')!.message.text).toMatch(
      new RegExp(`^${first.problems.find((p) => p.rule === 'list.within-limit')!.count}× `),
    )
    const again = (JSON.parse(await sarifReport(second)).runs[0].results as SarifResult[]).map((r) => r.ruleId)
    expect(new Set(again)).toEqual(new Set(results.map((r) => r.ruleId)))
  })

  it('locates each result in reference/openapi.json at its operation’s line, the operation a logical location', async () => {
    const log = JSON.parse(await sarifReport(first))
    const run = log.runs[0]
    expect(run.artifacts[0].location).toEqual({ uri: 'openapi.json', uriBaseId: 'REFERENCE' })
    expect(run.originalUriBaseIds.REFERENCE.uri).toBeUndefined()
    const fileLines = openApi.split('\n')
    let located = 0
    for (const r of run.results as SarifResult[]) {
      const problem = first.problems.find((p) => p.rule === r.ruleId)!
      for (const location of r.locations) {
        expect(location.physicalLocation.artifactLocation).toMatchObject({ uri: 'openapi.json', uriBaseId: 'REFERENCE' })
        const logical = location.logicalLocations?.[0]
        if (logical === undefined) continue
        located += 1
        expect(problem.operations).toContain(logical.name)
        expect(logical.kind).toBe('function')
        expect(logical.fullyQualifiedName).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/\S+$/)
        // The region is the line of the operation's operationId in the file the package ships.
        expect(fileLines[location.physicalLocation.region!.startLine - 1]).toContain(`"operationId": "${logical.name}"`)
      }
    }
    expect(located).toBeGreaterThan(5)
    // The document the kit reads is the shipped file, byte for byte.
    expect(await shippedOpenApiText()).toBe(openApi)
    expect(operationLines(openApi).get('listProjects')).toBe(fileLines.findIndex((l) => l.includes('"operationId": "listProjects"')) + 1)
  })

  it('gives each rule its help as text, and as a URI only with --reference-url', async () => {
    const plain = JSON.parse(await sarifReport(first)).runs[0]
    for (const rule of plain.tool.driver.rules) {
      expect(rule.help.text).toContain('reference/api.md#')
      expect(rule.helpUri).toBeUndefined()
    }
    expect(JSON.stringify(plain)).not.toMatch(/https?:\/\/example/)
    const linked = JSON.parse(await sarifReport(first, { referenceUrl: 'https://example.com/pe/reference' })).runs[0]
    for (const rule of linked.tool.driver.rules) {
      expect(rule.helpUri).toBe(`https://example.com/pe/reference/${rule.properties.ref.replace(/^reference\//, '')}`)
      expect(rule.help.text).toBe(plain.tool.driver.rules.find((r: { id: string }) => r.id === rule.id).help.text)
    }
    expect(linked.originalUriBaseIds.REFERENCE.uri).toBe('https://example.com/pe/reference/')
  })
})

describe('--reporter sarif', () => {
  it('writes the SARIF file beside the other reports, with --reference-url', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-sarif-'))
    let out = ''
    const code = await main(
      [
        'node',
        'pc',
        '--grep',
        '^teams\\.',
        '--reporter',
        `sarif=${join(dir, 'r.sarif')}`,
        '--reporter',
        `junit=${join(dir, 'r.xml')}`,
        '--reference-url',
        'https://example.com/ref/',
      ],
      { out: (t) => void (out += t), err: () => undefined },
    )
    expect(code).toBe(0)
    const log = JSON.parse(readFileSync(join(dir, 'r.sarif'), 'utf8'))
    expect(schemaErrors(log)).toEqual([])
    expect(log.runs[0].results).toEqual([])
    expect(log.runs[0].tool.driver.informationUri).toBe('https://example.com/ref/')
    expect(out).toMatch(/^pc|^presentation-conformance/)
  })
})
