/**
 * JUnit XML as CI systems read it (Jenkins, GitLab, GitHub test reporters):
 * one <testsuite> per kind of check, one <testcase> per scenario, a
 * <failure> per failed scenario with every finding, <skipped> with the reason.
 */
import { findingText } from './human.js'
import type { Report, ScenarioResult } from '../types.js'

const escapeXml = (text: string) =>
  text
    // Characters XML 1.0 cannot hold at all.
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')

function testcase(result: ScenarioResult): string {
  const attrs = `name="${escapeXml(`${result.id} — ${result.title}`)}" classname="presentation-conformance.${result.kind}" time="${(result.durationMs / 1000).toFixed(3)}"`
  const parts: string[] = []
  if (result.outcome === 'skip') parts.push(`<skipped message="${escapeXml(result.reason ?? '')}"/>`)
  else if (result.outcome === 'fail' || result.outcome === 'stale') {
    const message =
      result.outcome === 'stale'
        ? (result.reason ?? 'stale')
        : `${result.failures[0]?.clause}: ${result.failures[0]?.message} (${result.failures[0]?.ref})`
    const body = result.outcome === 'stale' ? (result.reason ?? '') : result.failures.map(findingText).join('\n\n')
    parts.push(
      `<failure message="${escapeXml(message)}" type="${result.outcome === 'stale' ? 'StaleBaseline' : 'MUST'}">${escapeXml(body)}</failure>`,
    )
  } else if (result.outcome === 'expected-fail') {
    parts.push(`<skipped message="${escapeXml(`expected failure (baseline): ${result.failures.length} finding(s)`)}"/>`)
  }
  const out = [...result.warnings.map((w) => `warning: ${findingText(w)}`), ...result.notes.map((n) => `note: ${n}`)]
  if (out.length > 0) parts.push(`<system-out>${escapeXml(out.join('\n\n'))}</system-out>`)
  return parts.length === 0 ? `    <testcase ${attrs}/>` : `    <testcase ${attrs}>\n      ${parts.join('\n      ')}\n    </testcase>`
}

export function junitXml(report: Report): string {
  const suites = (['spec', 'emulator'] as const)
    .map((kind) => {
      const results = report.scenarios.filter((r) => r.kind === kind)
      if (results.length === 0) return ''
      const failures = results.filter((r) => r.outcome === 'fail' || r.outcome === 'stale').length
      const skipped = results.filter((r) => r.outcome === 'skip' || r.outcome === 'expected-fail').length
      const time = results.reduce((t, r) => t + r.durationMs, 0) / 1000
      return `  <testsuite name="${kind === 'spec' ? 'spec checks' : 'emulator checks'}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${time.toFixed(3)}" timestamp="${report.startedAt.replace(/\.\d+Z$/, '')}">\n    <properties>\n      <property name="seed" value="${report.seed}"/>\n      <property name="runId" value="${escapeXml(report.runId)}"/>\n      <property name="target" value="${escapeXml(report.target.baseUrl)}"/>\n    </properties>\n${results.map(testcase).join('\n')}\n  </testsuite>`
    })
    .filter((suite) => suite !== '')
  const s = report.summary
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="presentation-conformance" tests="${s.total}" failures="${s.failed + s.stale}" errors="0" skipped="${s.skipped + s.expectedFailures}" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
}
