/**
 * SARIF 2.1.0 (`--reporter sarif[=FILE]`), for code-scanning views (GitHub
 * code scanning, editors' SARIF viewers): one result per distinct problem,
 * its `ruleId` the problem's stable rule id (the same in every run), located
 * in the OpenAPI document the package ships (`reference/openapi.json`, at the
 * line of each operation it appeared on, the operation as a logical
 * location). Each rule's help is text; it is a URI as well only with
 * `--reference-url` (where the package's `reference/` folder is published),
 * since a path inside `node_modules` is no address a viewer can open.
 * Built from the report, which holds no key (`scrubSecrets`).
 */
import { routes, VERSION } from '../../src/client/index.js'
import type { Problem, Report } from '../types.js'
import { whereText } from './problems.js'

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json'
/** The base every location is relative to: the package's `reference/` folder. */
export const REFERENCE_BASE = 'REFERENCE'
/** The OpenAPI document's path under `REFERENCE_BASE`. */
export const OPENAPI_FILE = 'openapi.json'

export interface SarifOptions {
  /** The URL the package's `reference/` folder is published at: rules gain a `helpUri`, and locations a base a viewer can open. */
  referenceUrl?: string
  /**
   * The text of `reference/openapi.json` (to find each operation's line);
   * default: the document the package ships, as `npm run openapi` writes it.
   */
  openApiText?: string
}

/** The text of the package's `reference/openapi.json`, as `npm run openapi` writes it (two-space JSON and a newline). */
export async function shippedOpenApiText(): Promise<string> {
  const module = await import('../../reference/openapi.json', { with: { type: 'json' } })
  return `${JSON.stringify(module.default, null, 2)}\n`
}

/** Each operation's line (1-based) in the OpenAPI document: the line of its `operationId`. */
export function operationLines(openApiText: string): Map<string, number> {
  const lines = new Map<string, number>()
  openApiText.split('\n').forEach((line, i) => {
    const match = /^\s*"operationId":\s*"([^"]+)"/.exec(line)
    if (match !== null && !lines.has(match[1]!)) lines.set(match[1]!, i + 1)
  })
  return lines
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`)

/** A problem's reference section as a URL under `referenceUrl` (`reference/api.md#limits` → `<url>/api.md#limits`). */
function helpUri(problem: Problem, referenceUrl: string): string {
  return `${withSlash(referenceUrl)}${problem.ref.replace(/^reference\//, '')}`
}

function helpText(problem: Problem): string {
  return `${problem.statement} (${problem.level} under “${problem.clause}”). The reference the package ships states it: ${problem.ref} (node_modules/presentation-emulator/${problem.ref}).`
}

function messageText(problem: Problem): string {
  const example = problem.example
  const values =
    example.expected !== undefined || example.actual !== undefined
      ? `; expected ${example.expected ?? '(see the rule)'}, got ${example.actual ?? '(see the example)'}`
      : ''
  return `${problem.count}× ${problem.statement}${values} (in ${whereText(problem, 4)})`
}

/** The SARIF log of a run, as JSON text. */
export async function sarifReport(report: Report, options: SarifOptions = {}): Promise<string> {
  const lines = operationLines(options.openApiText ?? (await shippedOpenApiText()))
  const rules: Array<Record<string, unknown>> = []
  const ruleIndex = new Map<string, number>()
  for (const problem of report.problems) {
    if (ruleIndex.has(problem.rule)) continue
    ruleIndex.set(problem.rule, rules.length)
    rules.push({
      id: problem.rule,
      shortDescription: { text: problem.statement },
      fullDescription: { text: `${problem.level} under “${problem.clause}”: ${problem.statement}` },
      help: { text: helpText(problem) },
      ...(options.referenceUrl === undefined ? {} : { helpUri: helpUri(problem, options.referenceUrl) }),
      defaultConfiguration: { level: problem.level === 'MUST' ? 'error' : 'warning' },
      properties: { clause: problem.clause, level: problem.level, ref: problem.ref },
    })
  }
  const results = report.problems.map((problem) => {
    const operations = problem.operations.filter((id) => lines.has(id))
    const locations =
      operations.length === 0
        ? [{ physicalLocation: { artifactLocation: { uri: OPENAPI_FILE, uriBaseId: REFERENCE_BASE, index: 0 } } }]
        : operations.map((operationId) => {
            const route = routes[operationId as keyof typeof routes]
            return {
              physicalLocation: {
                artifactLocation: { uri: OPENAPI_FILE, uriBaseId: REFERENCE_BASE, index: 0 },
                region: { startLine: lines.get(operationId)! },
              },
              logicalLocations: [
                {
                  name: operationId,
                  fullyQualifiedName: route === undefined ? operationId : `${route.method} ${route.path}`,
                  kind: 'function',
                },
              ],
            }
          })
    const example = problem.example
    return {
      ruleId: problem.rule,
      ruleIndex: ruleIndex.get(problem.rule)!,
      level: problem.level === 'MUST' ? 'error' : 'warning',
      message: { text: messageText(problem) },
      locations,
      partialFingerprints: { 'presentationConformance/rule/v1': `${problem.rule}|${problem.level}|${problem.clause}` },
      ...(problem.expected
        ? { suppressions: [{ kind: 'external', justification: 'an expected failure: the baseline (--expected-failures) lists it' }] }
        : {}),
      properties: {
        count: problem.count,
        clause: problem.clause,
        scenarios: problem.scenarios,
        operations: problem.operations,
        example: {
          ...(example.operationId === undefined ? {} : { operationId: example.operationId }),
          ...(example.expected === undefined ? {} : { expected: example.expected }),
          ...(example.actual === undefined ? {} : { actual: example.actual }),
          ...(example.exchange === undefined
            ? {}
            : {
                request: `${example.exchange.request.method} ${example.exchange.request.url}`,
                status: example.exchange.response.status,
              }),
          ...(example.curl === undefined ? {} : { curl: example.curl }),
        },
      },
    }
  })
  const cut = report.cutShort
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'presentation-conformance',
            version: VERSION,
            semanticVersion: VERSION,
            ...(options.referenceUrl === undefined ? {} : { informationUri: withSlash(options.referenceUrl) }),
            rules,
          },
        },
        automationDetails: { id: `presentation-conformance/${report.runId}` },
        originalUriBaseIds: {
          [REFERENCE_BASE]:
            options.referenceUrl === undefined
              ? {
                  description: {
                    text: 'the reference/ folder of the presentation-emulator package (node_modules/presentation-emulator/reference/)',
                  },
                }
              : { uri: withSlash(options.referenceUrl) },
        },
        artifacts: [
          {
            location: { uri: OPENAPI_FILE, uriBaseId: REFERENCE_BASE },
            description: { text: 'the OpenAPI document of the Presentation Service API the package ships' },
            mimeType: 'application/json',
          },
        ],
        invocations: [
          {
            executionSuccessful: cut === undefined,
            startTimeUtc: report.startedAt,
            ...(cut === undefined
              ? {}
              : {
                  toolExecutionNotifications: [
                    {
                      level: 'warning',
                      message: {
                        text: `Cut short: the time budget (${Math.round(cut.budgetMs / 100) / 10} s) ran out; ${cut.stopped.length} scenario(s) stopped midway, ${cut.notRun.length} never started; left behind on the target: ${cut.leftBehind.projects.length} project(s), ${cut.leftBehind.jobs.length} job(s) still processing.`,
                      },
                    },
                  ],
                }),
            properties: { seed: report.seed, target: report.target, summary: report.summary },
          },
        ],
        results,
      },
    ],
  }
  return `${JSON.stringify(log, null, 2)}\n`
}
