/**
 * A slide's check badge (issue 33): the last stored check result of the
 * slide, as the editor's thumbnails and the dashboard's projects show it.
 * The result comes from the core's store (`src/model/check-results.ts`),
 * which answers only while the slide's files and the project's config are
 * those it was checked with; drawing a badge never starts a check.
 *
 * Each badge says what it means in words (a mark and a label, and the whole
 * sentence as its accessible name and title), never by its colour alone.
 */
import type { SlideCheckResult } from '../../src/model/slide-checker.js'
import { escapeHtml } from './html.js'

/** How each status reads: a mark, the short label on the badge, and the start of its sentence. */
const STATUS_WORDS: Record<SlideCheckResult['status'], { mark: string; label: string; sentence: string }> = {
  rendered: { mark: '✓', label: 'Renders', sentence: 'Last check: renders' },
  error: { mark: '✕', label: 'Error', sentence: 'Last check: does not render' },
  timeout: { mark: '⏱', label: 'Timeout', sentence: 'Last check: timed out' },
  'too-large': { mark: '⚠', label: 'Too large', sentence: 'Last check: too large' },
  crashed: { mark: '✕', label: 'Crashed', sentence: 'Last check: the checker crashed' },
}

/** The layout findings a result carries, when the check had a browser counted, not read. */
function layoutFindings(result: SlideCheckResult): number {
  return result.layout?.length ?? 0
}

/** What a badge says, as one sentence: the status, the error (kind, where, message), the layout findings. */
export function checkSentence(result: SlideCheckResult): string {
  const words = STATUS_WORDS[result.status] ?? { sentence: `Last check: ${result.status}` }
  const parts = [words.sentence]
  const error = result.error
  if (error !== undefined) {
    const where =
      error.line === undefined ? error.file : `${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`
    parts.push(`${error.kind} error at ${where}: ${error.message}`)
  }
  const findings = layoutFindings(result)
  if (findings > 0) parts.push(`${findings} layout finding${findings === 1 ? '' : 's'}`)
  return parts.join('. ')
}

/**
 * The badge of a slide's last check, or '' when there is none to show. Its
 * text is the mark and the label (and the number of layout findings); its
 * title and accessible name, the whole sentence (after `subject`, such as
 * "Slide 2: Agenda", where the badge stands apart from its slide).
 */
export function checkBadge(result: SlideCheckResult | undefined, subject?: string): string {
  if (result === undefined) return ''
  const words = STATUS_WORDS[result.status] ?? { mark: '?', label: result.status }
  const findings = layoutFindings(result)
  const sentence = escapeHtml(`${subject === undefined ? '' : `${subject}. `}${checkSentence(result)}`)
  const layout =
    findings === 0
      ? ''
      : `<span class="check-badge-layout" data-testid="check-badge-layout" data-count="${findings}">· ${findings} layout</span>`
  return `<span class="check-badge check-${escapeHtml(result.status)}" data-testid="check-badge" data-status="${escapeHtml(result.status)}" role="img" aria-label="${sentence}" title="${sentence}"><span class="check-mark">${words.mark}</span><span class="check-label">${escapeHtml(words.label)}</span>${layout}</span>`
}

/** The slides' last checks of one project, as the dashboard lists them. */
export interface ProjectChecks {
  /** How many slides the project has. */
  slides: number
  /** The slides with a result to show, in deck order. */
  checked: Array<{ position: number; name: string; result: SlideCheckResult }>
}

/** How many badges a project's row shows at most; the rest are counted. */
export const MAX_PROJECT_BADGES = 40

/**
 * A project's check badges for the dashboard: a line that counts them
 * ("3 of 5 slides checked: 2 render, 1 does not") and a badge per checked
 * slide, each numbered by its position. '' when no slide has one.
 */
export function projectChecks(checks: ProjectChecks): string {
  const { checked, slides } = checks
  if (checked.length === 0) return ''
  const rendered = checked.filter((slide) => slide.result.status === 'rendered').length
  const failing = checked.length - rendered
  const findings = checked.reduce((sum, slide) => sum + layoutFindings(slide.result), 0)
  const summary = [
    `${checked.length} of ${slides} slide${slides === 1 ? '' : 's'} checked`,
    [
      rendered > 0 ? `${rendered} render${rendered === 1 ? 's' : ''}` : '',
      failing > 0 ? `${failing} do${failing === 1 ? 'es' : ''} not` : '',
      findings > 0 ? `${findings} layout finding${findings === 1 ? '' : 's'}` : '',
    ]
      .filter((part) => part !== '')
      .join(', '),
  ].join(': ')
  const shown = checked.slice(0, MAX_PROJECT_BADGES)
  const items = shown.map(
    ({ position, name, result }) =>
      `<li><span class="check-position" aria-hidden="true">${position}</span> ${checkBadge(result, `Slide ${position}: ${name}`)}</li>`,
  )
  if (checked.length > shown.length) items.push(`<li class="muted">+${checked.length - shown.length} more</li>`)
  return `<div class="check-summary" data-testid="project-checks">${escapeHtml(summary)}</div><ul class="check-list">${items.join('')}</ul>`
}
