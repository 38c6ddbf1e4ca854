/**
 * `exec --client-report`: the client report of the command's calls, as
 * lines for the terminal, and what it does to the exit code
 * (docs/guides/client-report.md, docs/guides/cli.md).
 */
import type { ClientReport } from '../model/client-report/index.js'
import { EXIT } from './exit-codes.js'

/** `--client-report` (print it) or `--client-report=strict` (an error fails the run). */
export type ClientReportMode = 'print' | 'strict'

/** The option's value as commander gives it: `true` for the bare flag, else the text after `=`. */
export function parseClientReportMode(value: string | true | undefined): ClientReportMode | undefined {
  if (value === undefined) return undefined
  if (value === true || value === 'print' || value === '') return 'print'
  if (value === 'strict') return 'strict'
  throw new Error(`--client-report takes no value or "strict", not "${value}"`)
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** The report as lines: a summary, then one line per finding (severity, rule, key, message, calls, ref). */
export function clientReportLines(report: ClientReport): string[] {
  const { window } = report
  const span = window.first === null ? '' : ` (${window.first.id} to ${window.last!.id}${window.complete ? '' : ', older calls dropped'})`
  const lines = [
    `client report: ${plural(window.entries, 'call')} of ${plural(report.keys.length, 'key')}${span}: ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`,
  ]
  for (const finding of report.findings) {
    const ids = `${finding.requestIds.join(', ')}${finding.count > finding.requestIds.length ? ', …' : ''}`
    lines.push(
      `  ${finding.severity} ${finding.rule} [${finding.keyId ?? finding.keyFingerprint ?? 'no key'}]: ${finding.message} (${ids}; ${finding.ref})`,
    )
  }
  return lines
}

/**
 * The run's exit code with the report: a command that failed keeps its
 * code; under `strict`, a report with an error turns a success into
 * `EXIT.findings` (1), as the conformance kit's findings do.
 */
export function exitWithReport(code: number, report: ClientReport, mode: ClientReportMode): number {
  if (code !== 0) return code
  return mode === 'strict' && report.errors > 0 ? EXIT.findings : code
}
