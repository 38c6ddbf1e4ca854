/** The human reporter: a line per scenario as it ends, then every failure in full, coverage and a summary. */
import { KEY_ROLE_NAMES, KEY_VARIABLES, variablesOf } from '../curl.js'
import type { Finding, Problem, Report, ScenarioResult } from '../types.js'
import { whereText } from './problems.js'

const MARK: Record<ScenarioResult['outcome'], string> = { pass: '✓', fail: '✗', skip: '-', 'expected-fail': '○', stale: '!' }

const STEP_MARK = { pass: '✓', fail: '✗', skip: '-' } as const

/** One line for a scenario that just ended; a scenario in steps that did not pass lists each step under it. */
export function scenarioLine(result: ScenarioResult): string {
  const line = scenarioHeadline(result)
  if (result.steps === undefined || result.outcome === 'pass' || result.outcome === 'skip') return line
  const steps = result.steps.map(
    (step) => `    ${STEP_MARK[step.outcome]} ${step.name}${step.reason === undefined ? '' : `  (${step.reason})`}`,
  )
  return [line, ...steps].join('\n')
}

/** Why a scenario took long: the time its requests waited for the rate limit, when they did. */
function waitText(result: ScenarioResult): string {
  const waited = result.rateLimitWaitMs
  return waited === undefined ? '' : `; its requests waited ${waited} ms for the rate limit`
}

function scenarioHeadline(result: ScenarioResult): string {
  const kind = result.kind === 'emulator' ? ' [emulator]' : ''
  const tail =
    result.outcome === 'skip'
      ? `  not applicable: ${result.reason}`
      : result.outcome === 'expected-fail'
        ? `  expected failure (baseline), ${result.failures.length} finding(s)`
        : result.outcome === 'stale'
          ? `  STALE: ${result.reason}`
          : `  (${result.checks} checks${result.warnings.length > 0 ? `, ${result.warnings.length} warning(s)` : ''}, ${result.durationMs} ms${waitText(result)})`
  return `${MARK[result.outcome]} ${result.id}${kind}  ${result.title}${tail}`
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n')
}

/** A finding in full: clause, level, expected vs actual, the exchange and a curl reproduction. */
export function findingText(finding: Finding): string {
  const lines = [`${finding.level}  ${finding.clause}`, `  ${finding.message}`, `  see:      ${finding.ref}`]
  if (finding.expected !== undefined) lines.push(`  expected: ${finding.expected}`)
  if (finding.actual !== undefined) lines.push(`  actual:   ${finding.actual}`)
  if (finding.exchange !== undefined) {
    const { request, response } = finding.exchange
    lines.push(
      `  request:  ${request.method} ${request.url}${request.body === undefined ? '' : `  ${request.body.length > 300 ? `${request.body.slice(0, 300)}…` : request.body}`}`,
    )
    if (request.key !== undefined) lines.push(`  key:      ${request.key}`)
    const headers = Object.entries(response.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('  ')
    lines.push(`  response: ${response.status}${headers === '' ? '' : `  ${headers}`}`)
    if (response.body !== '')
      lines.push(indent(response.body.length > 400 ? `${response.body.slice(0, 400)}…` : response.body, '            '))
  }
  if (finding.curl !== undefined) lines.push(`  reproduce: ${finding.curl}`)
  return lines.join('\n')
}

/** The coverage table: operation × documented status, exercised, skipped (why) or not covered. */
export function coverageText(report: Report): string {
  const byOperation = new Map<string, string[]>()
  const reasons = new Map<string, string>()
  const notRun = new Map<string, string>()
  for (const row of report.coverage) {
    const cells = byOperation.get(row.operationId) ?? []
    const mark = row.state === 'exercised' ? '✓' : row.state === 'skipped' ? 'skip' : '·'
    cells.push(`${row.status} ${mark}`)
    byOperation.set(row.operationId, cells)
    if (row.state === 'skipped' && row.reason !== undefined) reasons.set(row.reason.split(':')[0]!, row.reason)
    for (const reason of row.notRun ?? [])
      notRun.set(reason.split(':')[0]!, `${row.operationId} ${row.status} was met, but ${reason.replace(/^([^:]+):/, '$1 did not run:')}`)
  }
  const width = Math.max(...[...byOperation.keys()].map((k) => k.length))
  const lines = ['Coverage (operation × documented status: ✓ exercised, skip = its scenario was skipped, · not covered)']
  for (const [operationId, cells] of byOperation) lines.push(`  ${operationId.padEnd(width)}  ${cells.join('  ')}`)
  if (reasons.size > 0) {
    lines.push('  skipped because:')
    for (const reason of reasons.values()) lines.push(`    ${reason}`)
  }
  if (notRun.size > 0) {
    lines.push('  met by other scenarios, but a check of it did not run:')
    for (const line of notRun.values()) lines.push(`    ${line}`)
  }
  return lines.join('\n')
}

/** Which environment variables the reproductions of `findings` read, and which key each holds. */
function reproductionNote(findings: readonly Finding[]): string {
  const used = new Set(findings.flatMap((f) => (f.curl === undefined ? [] : variablesOf(f.curl))))
  const roles = (Object.keys(KEY_VARIABLES) as Array<keyof typeof KEY_VARIABLES>).filter((role) => used.has(KEY_VARIABLES[role]))
  if (roles.length === 0) return 'Reproductions send no key of yours.'
  return `Reproductions read the keys from the environment: ${roles.map((role) => `$${KEY_VARIABLES[role]}, the ${KEY_ROLE_NAMES[role].replace(/^a /, '').replace(/ \(--[a-z-]+\)$/, '')}`).join('; ')}.`
}

/** How a human report is written: `verbose` lists every finding of every scenario, as found. */
export interface HumanOptions {
  verbose?: boolean
}

const MARK_LEVEL = { MUST: '✗', SHOULD: '!' } as const

/** One distinct problem in two lines: what, how often; then the clause, the operations and where. */
export function problemLines(problem: Problem, index: number): string[] {
  const number = `${index + 1}.`.padStart(4)
  const expected = problem.expected ? '  (expected: in the baseline)' : ''
  const ops =
    problem.operations.length === 0
      ? ''
      : ` · ${problem.operations.slice(0, 4).join(', ')}${problem.operations.length > 4 ? ` and ${problem.operations.length - 4} more` : ''}`
  return [
    `${number} ${MARK_LEVEL[problem.level]} ${problem.level.padEnd(6)} ${`${problem.count}×`.padStart(4)}  ${problem.statement}${expected}`,
    `${' '.repeat(number.length)}   ${problem.clause}${ops} · in ${whereText(problem)}`,
  ]
}

/** The opening of every human report: the distinct problems, one each, with counts. */
export function problemsText(report: Pick<Report, 'problems'>): string {
  const problems = report.problems
  if (problems.length === 0) return 'No problems: every check that ran held.'
  const findings = problems.reduce((n, p) => n + p.count, 0)
  const must = problems.filter((p) => p.level === 'MUST').length
  const head = `${problems.length} distinct problem${problems.length === 1 ? '' : 's'} (${must} MUST, ${problems.length - must} SHOULD) from ${findings} finding${findings === 1 ? '' : 's'}; each in detail below:`
  return [head, ...problems.flatMap(problemLines)].join('\n')
}

/** Each distinct problem in full: its first occurrence, with the exchange and a curl. */
export function problemDetailsText(report: Pick<Report, 'problems'>): string {
  const out: string[] = ['Problems in detail (one example each; --verbose lists every finding)']
  report.problems.forEach((problem, i) => {
    out.push('', `${i + 1}. [${problem.rule}] ${problem.count}× in ${whereText(problem, 8)}`)
    out.push(indent(findingText(problem.example), '   '))
  })
  out.push('', reproductionNote(report.problems.map((p) => p.example)))
  return out.join('\n')
}

/** What a run cut short by its budget says, first: what it stopped, what it never started, what it left on the target. */
export function cutShortText(report: Pick<Report, 'cutShort'>): string | undefined {
  const cut = report.cutShort
  if (cut === undefined) return undefined
  const lines = [
    `!!! Cut short: the time budget (${Math.round(cut.budgetMs / 100) / 10} s) ran out; ${cut.stopped.length} scenario(s) stopped midway, ${cut.notRun.length} never started.`,
  ]
  if (cut.stopped.length > 0) lines.push(`    stopped: ${cut.stopped.join(', ')}`)
  if (cut.notRun.length > 0) lines.push(`    not run: ${cut.notRun.join(', ')}`)
  const { projects, jobs } = cut.leftBehind
  if (projects.length + jobs.length > 0)
    lines.push(
      `    left behind on the target: ${projects.length} project(s)${projects.length > 0 ? ` (${projects.slice(0, 5).join(', ')}${projects.length > 5 ? ', …' : ''})` : ''}, ${jobs.length} job(s) still processing${jobs.length > 0 ? ` (${jobs.join(', ')})` : ''}`,
    )
  return lines.join('\n')
}

/** The whole human report after the run: the problems first, then each scenario's line, then the details and the summary. */
export function humanReport(report: Report, options: HumanOptions = {}): string {
  const cut = cutShortText(report)
  const lines: string[] = [...(cut === undefined ? [] : [cut, '']), problemsText(report), '']
  let emulatorOnly = 0
  for (const result of report.scenarios) {
    if (result.kind === 'emulator' && result.outcome === 'skip' && result.skip?.kind === 'emulator-only') {
      emulatorOnly += 1
      continue
    }
    lines.push(scenarioLine(result))
  }
  if (emulatorOnly > 0)
    lines.push(`- ${emulatorOnly} emulator checks not applicable: the target is not the emulator (they check its own choices)`)
  return `${lines.join('\n')}\n${summaryText(report, options)}\n`
}

/** Everything after the scenario lines: the problems in detail (every finding with `verbose`), coverage, what the run created, the summary. */
export function summaryText(report: Report, options: HumanOptions = {}): string {
  const out: string[] = []
  const problems = report.problems ?? []
  if (!options.verbose && problems.length > 0) out.push('', problemDetailsText({ problems }))
  const failing = report.scenarios.filter((r) => r.failures.length > 0 && r.outcome !== 'skip')
  if (options.verbose && failing.length > 0) {
    out.push('', 'Failures (every finding)')
    for (const result of failing) {
      out.push(
        '',
        `${MARK[result.outcome]} ${result.id}  ${result.title}${result.outcome === 'expected-fail' ? '  (expected, in the baseline)' : ''}`,
      )
      for (const finding of result.failures) out.push(indent(findingText(finding), '  '))
      for (const note of result.notes) out.push(`  note: ${note}`)
    }
    out.push('', reproductionNote(failing.flatMap((r) => r.failures)))
  } else if (failing.some((r) => r.notes.length > 0)) {
    out.push('', 'Notes')
    for (const result of failing) for (const note of result.notes) out.push(`  ${result.id}: ${note}`)
  }
  const warned = report.scenarios.filter((r) => r.warnings.length > 0)
  if (options.verbose && warned.length > 0) {
    out.push('', 'Warnings (SHOULD)')
    for (const result of warned) {
      out.push('', `  ${result.id}`)
      for (const finding of result.warnings) out.push(indent(findingText(finding), '    '))
    }
  }
  out.push('', coverageText(report))
  if (report.createdProjects.length > 0) {
    // The list shows slugs, which the server chooses: only the names are sure to carry the run's prefix.
    const shown = options.verbose ? report.createdProjects : report.createdProjects.slice(0, 5)
    const more = report.createdProjects.length - shown.length
    out.push(
      '',
      `Projects this run created, by slug (the API has no delete; their names start with "conformance-${report.runId}", their slugs are the server's choice):${more > 0 ? ` ${report.createdProjects.length} in all, the first ${shown.length} below (--verbose or the JSON report lists every one)` : ''}`,
    )
    out.push(indent(shown.join('\n'), '  '))
  }
  const s = report.summary
  out.push(
    '',
    `${s.passed} passed, ${s.failed} failed, ${s.skipped} not applicable, ${s.warnings} warning(s)` +
      `${s.expectedFailures > 0 ? `, ${s.expectedFailures} expected failure(s)` : ''}${s.stale > 0 ? `, ${s.stale} stale baseline entr${s.stale === 1 ? 'y' : 'ies'}` : ''}` +
      ` · ${Math.round(report.durationMs / 100) / 10} s · seed ${report.seed} (replay with --seed ${report.seed})`,
  )
  if (report.mostlySkipped) {
    const onlyHere =
      s.emulatorOnly > 0
        ? ` (not counting ${s.emulatorOnly} emulator check${s.emulatorOnly === 1 ? '' : 's'}, which run only against the emulator)`
        : ''
    out.push(
      '',
      `!!! ${s.skipped - s.emulatorOnly} of ${s.total - s.emulatorOnly} scenarios were not applicable${onlyHere}: this run proves little. Give --allow-writes, --allow-generation and the optional keys (--other-team-key, --revoked-key, --no-credits-key) to run more.`,
    )
  }
  return out.join('\n')
}
