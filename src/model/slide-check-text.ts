/**
 * A slide check's result in words, the same wherever it is shown: the
 * CLI's reports (`presentation-emulator check`) and the vitest matcher's
 * failure message (`toRenderSlides`).
 */
import type { SlideCheckError } from './slide-checker.js'
import type { SlideCheckReport } from './slide-checks.js'

/** `slide.tsx:3:14`, `slide.tsx:3` or `slide.tsx`: where an error is, as the editor shows it. */
export function errorPlace(error: SlideCheckError): string {
  if (error.line === undefined) return error.file
  return `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`
}

/** `slide.tsx:3:14: message`. */
export function errorLine(error: SlideCheckError): string {
  return `${errorPlace(error)}: ${error.message}`
}

/** One line for a slide that did not render: `2. sld_x: error (runtime) at slide.tsx:3:9: message`. */
export function failureLine(report: SlideCheckReport): string {
  const error = report.error
  const what = error === undefined ? report.status : `${report.status} (${error.kind}) at ${errorLine(error)}`
  return `${report.position}. ${report.slideId}: ${what}`
}
