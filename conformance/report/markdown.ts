/**
 * The markdown summary (`--reporter markdown[=FILE]`): what a CI job summary
 * (`$GITHUB_STEP_SUMMARY`) or a merge request comment shows. It opens like
 * every report, with the distinct problems (one row each, with its count),
 * says first when the run was cut short, and folds each problem's example
 * (expected, actual, the curl) into a `<details>` block, so the page stays
 * one screen until a person opens what they act on. Built from the report,
 * which holds no key (`scrubSecrets`), so it holds none either.
 */
import type { Problem, Report } from '../types.js'
import { whereText } from './problems.js'

/** A table cell's text: one line, its pipes escaped, HTML's angle brackets as entities. */
export function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').trim()
}

/** Inline code that survives the backticks inside `text`. */
export function code(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${longest > 0 ? ' ' : ''}${text.replace(/\s+/g, ' ')}${longest > 0 ? ' ' : ''}${ticks}`
}

/** A fenced block that no run of backticks inside `text` closes early. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`{3,}/g)].map((m) => m[0].length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

function problemRow(problem: Problem, index: number): string {
  const more = problem.operations.length > 4 ? ` and ${problem.operations.length - 4} more` : ''
  const ops = problem.operations.length === 0 ? '—' : `${problem.operations.slice(0, 4).map(code).join(', ')}${more}`
  const expected = problem.expected ? ' (expected: in the baseline)' : ''
  return `| ${index + 1} | ${problem.level} | ${problem.count}× | ${cell(problem.statement)}${expected} | ${cell(problem.clause)} | ${ops} | ${cell(whereText(problem, 4))} |`
}

function problemDetails(problem: Problem, index: number): string {
  const example = problem.example
  const lines = [
    `<details><summary>${index + 1}. ${cell(problem.statement)} — ${code(problem.rule)}</summary>`,
    '',
    `- Rule ${code(problem.rule)}, ${problem.level} under “${cell(problem.clause)}” (${code(problem.ref)})`,
  ]
  if (example.operationId !== undefined) lines.push(`- Operation ${code(example.operationId)}`)
  if (example.expected !== undefined) lines.push(`- Expected: ${code(example.expected)}`)
  if (example.actual !== undefined) lines.push(`- Actual: ${code(example.actual)}`)
  if (example.exchange !== undefined) {
    const { request, response } = example.exchange
    lines.push(`- Request: ${code(`${request.method} ${request.url}`)}${request.key === undefined ? '' : ` with ${cell(request.key)}`}`)
    lines.push(`- Response: ${response.status}${response.body === '' ? '' : ` ${code(response.body.slice(0, 300))}`}`)
  }
  if (example.curl !== undefined) lines.push('', fenced(example.curl, 'sh'))
  lines.push('', '</details>')
  return lines.join('\n')
}

/** The markdown summary of a run. */
export function markdownReport(report: Report): string {
  const s = report.summary
  const verdict = s.failed > 0 || s.stale > 0 || report.cutShort !== undefined ? '❌' : '✅'
  const counts = [
    `${s.passed} passed`,
    `${s.failed} failed`,
    `${s.skipped} not applicable`,
    ...(s.expectedFailures > 0 ? [`${s.expectedFailures} expected ${s.expectedFailures === 1 ? 'failure' : 'failures'}`] : []),
    ...(s.stale > 0 ? [`${s.stale} stale baseline ${s.stale === 1 ? 'entry' : 'entries'}`] : []),
    plural(s.warnings, 'warning'),
  ].join(', ')
  const target =
    report.target.kind === 'deployment'
      ? `deployment ${report.target.baseUrl}${report.target.controlPlane ? ' (with control plane)' : ''}`
      : `${report.target.kind} emulator`
  const out: string[] = [
    `## ${verdict} Presentation Service conformance: ${counts}`,
    '',
    `${target} · run ${code(report.runId)} · seed ${report.seed} · ${Math.round(report.durationMs / 100) / 10} s`,
  ]
  const cut = report.cutShort
  if (cut !== undefined) {
    const { projects, jobs } = cut.leftBehind
    out.push(
      '',
      '> [!WARNING]',
      `> **Cut short**: the time budget (${Math.round(cut.budgetMs / 100) / 10} s) ran out; ${plural(cut.stopped.length, 'scenario')} stopped midway, ${cut.notRun.length} never started.`,
    )
    if (cut.stopped.length > 0) out.push(`> Stopped: ${cut.stopped.map(code).join(', ')}.`)
    if (cut.notRun.length > 0) out.push(`> Not run: ${cut.notRun.map(code).join(', ')}.`)
    if (projects.length + jobs.length > 0)
      out.push(`> Left behind on the target: ${plural(projects.length, 'project')}, ${plural(jobs.length, 'job')} still processing.`)
  }
  const problems = report.problems
  out.push('')
  if (problems.length === 0) out.push('No problems: every check that ran held.')
  else {
    const findings = problems.reduce((n, p) => n + p.count, 0)
    const must = problems.filter((p) => p.level === 'MUST').length
    out.push(
      `### ${plural(problems.length, 'distinct problem')} (${must} MUST, ${problems.length - must} SHOULD) from ${plural(findings, 'finding')}`,
      '',
      '| # | Level | Count | Problem | Clause | Operations | Scenarios |',
      '|--:|---|--:|---|---|---|---|',
      ...problems.map(problemRow),
      '',
      ...problems.map((p, i) => `${problemDetails(p, i)}\n`),
    )
  }
  if (report.mostlySkipped)
    out.push(
      '',
      `> [!NOTE]\n> ${s.skipped - s.emulatorOnly} of ${s.total - s.emulatorOnly} scenarios were not applicable: this run proves little. Give --allow-writes, --allow-generation and the optional keys to run more.`,
    )
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n')}\n`
}
