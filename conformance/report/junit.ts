/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters).
 * It opens with the distinct problems (a <testsuite> "distinct problems",
 * one <testcase> per problem: a MUST fails it, with its count, where it
 * appeared and one example), then one <testsuite> per kind of check, one
 * <testcase> per scenario: a <failure> carrying the scenario's findings with
 * identical ones collapsed (a count each); <skipped> only when the scenario
 * did not run, with the reason. A baseline's expected failure ran: it is a
 * passed test case whose output says so.
 */
import { cutShortText, findingText } from './human.js'
import { collapse, whereText } from './problems.js'
import type { Problem } from '../types.js'
import type { Report, ScenarioResult } from '../types.js'
import { escapeXml } from '../../src/cli/reporter.js'

function testcase(result: ScenarioResult): string {
  const attrs = `name="${escapeXml(`${result.id} — ${result.title}`)}" classname="presentation-conformance.${result.kind}" time="${(result.durationMs / 1000).toFixed(3)}"`
  const parts: string[] = []
  if (result.outcome === 'skip') parts.push(`<skipped message="${escapeXml(result.reason ?? '')}"/>`)
  else if (result.outcome === 'fail' || result.outcome === 'stale') {
    const message =
      result.outcome === 'stale'
        ? (result.reason ?? 'stale')
        : `${result.failures[0]?.clause}: ${result.failures[0]?.message} (${result.failures[0]?.ref})`
    const body =
      result.outcome === 'stale'
        ? (result.reason ?? '')
        : collapse(result.failures)
            .map(({ finding, count }) => `${count > 1 ? `${count}× (identical findings in this scenario)\n` : ''}${findingText(finding)}`)
            .join('\n\n')
    parts.push(
      `<failure message="${escapeXml(message)}" type="${result.outcome === 'stale' ? 'StaleBaseline' : 'MUST'}">${escapeXml(body)}</failure>`,
    )
  }
  const out = [
    ...(result.outcome === 'expected-fail'
      ? [
          `expected failure (the baseline lists it): ${result.failures.length} finding(s)\n\n${result.failures.map(findingText).join('\n\n')}`,
        ]
      : []),
    ...result.warnings.map((w) => `warning: ${findingText(w)}`),
    ...result.notes.map((n) => `note: ${n}`),
  ]
  if (out.length > 0) parts.push(`<system-out>${escapeXml(out.join('\n\n'))}</system-out>`)
  return parts.length === 0 ? `    <testcase ${attrs}/>` : `    <testcase ${attrs}>\n      ${parts.join('\n      ')}\n    </testcase>`
}

/** One distinct problem as a test case: a MUST fails it (unless the baseline expects it), a SHOULD passes with its text as output. */
function problemCase(problem: Problem, index: number): string {
  const name = `${index + 1}. ${problem.statement} [${problem.rule}]`
  const attrs = `name="${escapeXml(name)}" classname="presentation-conformance.problems" time="0.000"`
  const text = `${problem.count}× in ${whereText(problem, 20)}${problem.operations.length > 0 ? `\noperations: ${problem.operations.join(', ')}` : ''}\n\n${findingText(problem.example)}`
  if (problem.level === 'MUST' && !problem.expected)
    return `    <testcase ${attrs}>\n      <failure message="${escapeXml(`${problem.count}× ${problem.clause}: ${problem.statement} (${problem.ref})`)}" type="MUST">${escapeXml(text)}</failure>\n    </testcase>`
  const why = problem.expected ? 'expected failure (the baseline lists it)' : 'warning (SHOULD)'
  return `    <testcase ${attrs}>\n      <system-out>${escapeXml(`${why}: ${text}`)}</system-out>\n    </testcase>`
}

export function junitXml(report: Report): string {
  const problems = report.problems ?? []
  const failingProblems = problems.filter((p) => p.level === 'MUST' && !p.expected).length
  const opening =
    problems.length === 0
      ? []
      : [
          `  <testsuite name="distinct problems" tests="${problems.length}" failures="${failingProblems}" errors="0" skipped="0" time="0.000" timestamp="${report.startedAt.replace(/\.\d+Z$/, '')}">\n${problems.map(problemCase).join('\n')}\n  </testsuite>`,
        ]
  const suites = (['spec', 'emulator'] as const)
    .map((kind) => {
      const results = report.scenarios.filter((r) => r.kind === kind)
      if (results.length === 0) return ''
      const failures = results.filter((r) => r.outcome === 'fail' || r.outcome === 'stale').length
      const skipped = results.filter((r) => r.outcome === 'skip').length
      const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000
      return `  <testsuite name="${kind === 'spec' ? 'spec checks' : 'emulator checks'}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}" timestamp="${report.startedAt.replace(/\.\d+Z$/, '')}">\n    <properties>\n      <property name="seed" value="${report.seed}"/>\n      <property name="runId" value="${escapeXml(report.runId)}"/>\n      <property name="target" value="${escapeXml(report.target.baseUrl)}"/>\n${report.cutShort === undefined ? '' : `      <property name="cutShort" value="${escapeXml(cutShortText(report)!)}"/>\n`}    </properties>\n${results.map(testcase).join('\n')}\n  </testsuite>`
    })
    .filter((suite) => suite !== '')
  const s = report.summary
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="presentation-conformance" tests="${s.total + problems.length}" failures="${s.failed + s.stale + failingProblems}" errors="0" skipped="${s.skipped}" time="${(report.durationMs / 1000).toFixed(3)}">\n${[...opening, ...suites].join('\n')}\n</testsuites>\n`
}
