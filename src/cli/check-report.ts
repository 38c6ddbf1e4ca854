/**
 * The reports of `presentation-emulator check`: for people (`human`), the
 * deck's result as it is (`json`, the `DeckCheckResult` every way in
 * shares), and JUnit XML for CI (`junit`: one testsuite, one testcase per
 * slide, a failure whose message is `file:line:column: message`).
 */
import { errorLine, errorPlace } from '../model/slide-check-text.js'
import type { DeckCheckResult, SlideCheckReport } from '../model/slide-checks.js'
import { escapeXml } from './reporter.js'

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

/** A slide's lines in the human report: a mark, its position and id, what happened; then its error and notes. */
export function slideLines(report: SlideCheckReport): string[] {
  const head = `${report.status === 'rendered' ? '✓' : '✗'} ${report.position} ${report.slideId}`
  if (report.status === 'rendered') {
    const text = report.text === '' ? 'no text' : JSON.stringify(shorten(report.text, 60))
    return [`${head}  rendered: ${report.elements} element${report.elements === 1 ? '' : 's'}, ${text}`, ...notes(report)]
  }
  const error = report.error
  const lines = [`${head}  ${report.status}${error === undefined ? '' : ` (${error.kind}) at ${errorPlace(error)}`}`]
  if (error !== undefined) lines.push(...error.message.split('\n').map((line) => `    ${line}`))
  return [...lines, ...notes(report)]
}

const notes = (report: SlideCheckReport) => [
  ...report.notes.map((note) => `    note: ${note}`),
  ...(report.layout ?? []).map((finding) => `    layout: ${finding.code}: ${finding.message}`),
]

/** How many layout findings the deck's slides have (0 when layout was not measured). */
export function layoutFindings(result: DeckCheckResult): number {
  return result.slides.reduce((sum, slide) => sum + (slide.layout?.length ?? 0), 0)
}

/** The summary line: how many rendered and failed, of how many, where (and the layout findings, when measured). */
export function summaryLine(result: DeckCheckResult): string {
  const total = result.slides.length
  const measured = result.slides.some((slide) => slide.layout !== undefined)
  const findings = layoutFindings(result)
  const layout = measured ? `, ${findings} layout finding${findings === 1 ? '' : 's'}` : ''
  return `${result.rendered} rendered, ${result.failed} failed${layout}, of ${total} slide${total === 1 ? '' : 's'} in ${result.project}`
}

/** The human report: a block per slide, then the summary. */
export function humanReport(result: DeckCheckResult): string {
  return `${[...result.slides.flatMap(slideLines), '', summaryLine(result)].join('\n')}\n`
}

/** The JSON report: the deck's result, as `emulator.control.checkSlides` answers it. */
export function jsonReport(result: DeckCheckResult): string {
  return `${JSON.stringify(result, null, 2)}\n`
}

function testcase(report: SlideCheckReport, project: string): string {
  const attrs = `name="${escapeXml(report.slideId)}" classname="${escapeXml(`presentation-emulator.check.${project}`)}"`
  const parts: string[] = []
  if (report.status !== 'rendered') {
    const error = report.error
    const message = error === undefined ? report.status : errorLine(error)
    const body = slideLines(report).join('\n')
    parts.push(`<failure message="${escapeXml(message)}" type="${escapeXml(report.status)}">${escapeXml(body)}</failure>`)
  }
  const out = [
    ...(report.status === 'rendered' ? [`text: ${report.text}`, `elements: ${report.elements}`] : []),
    ...report.notes.map((n) => `note: ${n}`),
    ...(report.layout ?? []).map((finding) => `layout: ${finding.code}: ${finding.message}`),
  ]
  if (out.length > 0) parts.push(`<system-out>${escapeXml(out.join('\n'))}</system-out>`)
  return parts.length === 0 ? `    <testcase ${attrs}/>` : `    <testcase ${attrs}>\n      ${parts.join('\n      ')}\n    </testcase>`
}

/** The JUnit report: one testsuite named after the project or folder, one testcase per slide. */
export function junitReport(result: DeckCheckResult): string {
  const n = result.slides.length
  const counts = `tests="${n}" failures="${result.failed}" errors="0" skipped="0"`
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="presentation-emulator check" ${counts}>`,
    `  <testsuite name="${escapeXml(result.project)}" ${counts}>`,
    ...result.slides.map((report) => testcase(report, result.project)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
