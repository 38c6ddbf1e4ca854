/**
 * The slide checker's work on the emulator's side, which runs no slide
 * code: a slide prepared as the editor prepares it (the same transpiler
 * and cache, props from the controls' defaults, the notes of the controls
 * panel, the problems found before running it), and the renderer's answer
 * read as a `SlideCheckResult`.
 */
import type { SlideCheckError, SlideCheckInput, SlideCheckResult, SlideCheckStatus } from '../../src/model/slide-checker.js'
import { MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH } from '../../src/model/slide-checks.js'
import { SLIDE_FILE_NAMES } from '../../src/schemas/slide.js'
import { type PageHost, transpilerOf } from '../pages/page-server.js'
import { deckFrameCss } from '../pages/viewer.js'
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../render/limits.js'
import type { RenderErrorKind } from '../render/protocol.js'
import { type SlideRenderData, slideRenderData } from '../render/slide-render.js'
import { CHECK_ORIGIN, type HarnessAnswer } from './harness.js'

/** The narrowest and widest picture the checker takes, in pixels (the core's bounds). */
export { MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH }

/** A slide ready for the renderer, or the result of a slide that cannot run. */
export type PreparedSlide =
  | { ready: true; data: SlideRenderData & { code: string }; css: string }
  | { ready: false; result: SlideCheckResult }

/**
 * Prepares a slide as the editor does (`slideRenderData` with the emulator's
 * transpiler), styled by the project's config as a display frame is
 * (`deckFrameCss`). Remote images are never allowed: the checker's browser
 * reaches no other origin. A slide whose source has a problem (a syntax
 * error, no default export, unreadable content) has its result at once:
 * `error` of kind `source`, with the file, line and column.
 */
export function prepareSlide(host: PageHost, input: SlideCheckInput): PreparedSlide {
  const data = slideRenderData(input.files, transpilerOf(host), { allowRemote: false, origin: CHECK_ORIGIN })
  if (data.code !== null) return { ready: true, data: data as SlideRenderData & { code: string }, css: deckFrameCss(input.config) }
  const problem = data.problem
  return {
    ready: false,
    result: failed(
      {
        kind: 'source',
        message: problem?.message ?? 'The component cannot run.',
        file: problem?.file ?? 'slide.tsx',
        ...(problem === null ? {} : { line: problem.line, column: problem.column }),
      },
      data.notes,
    ),
  }
}

/** The status a renderer error kind gives. */
export function statusOf(kind: string): SlideCheckStatus {
  switch (kind as RenderErrorKind) {
    case 'timeout':
      return 'timeout'
    case 'too-large':
      return 'too-large'
    case 'crashed':
      return 'crashed'
    default:
      return 'error'
  }
}

function failed(error: SlideCheckError, notes: string[]): SlideCheckResult {
  return { status: statusOf(error.kind), error, text: '', elements: 0, notes: [...notes] }
}

const isFileName = (value: unknown): value is SlideCheckError['file'] => (SLIDE_FILE_NAMES as readonly unknown[]).includes(value)
const positive = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) > 0 ? (value as number) : undefined)

/** A renderer answer (as the harness reported it) as a check result; `notes` are the slide's. */
export function resultOf(answer: HarnessAnswer, notes: readonly string[]): SlideCheckResult {
  if (answer.ok) {
    return {
      status: 'rendered',
      text: typeof answer.text === 'string' ? answer.text : '',
      elements: positive(answer.elements) ?? 0,
      notes: [...notes],
    }
  }
  const { kind, message, file, line, column } = answer.error
  const at = { line: positive(line), column: positive(column) }
  return failed(
    {
      kind: typeof kind === 'string' ? kind : 'runtime',
      message: typeof message === 'string' ? message : 'The component failed.',
      file: isFileName(file) ? file : 'slide.tsx',
      ...(at.line === undefined ? {} : { line: at.line }),
      ...(at.column === undefined ? {} : { column: at.column }),
    },
    [...notes],
  )
}

/** The height of a picture `width` pixels wide: the slide's 16:9 box. */
export function pictureHeight(width: number): number {
  return Math.round((width * SLIDE_HEIGHT) / SLIDE_WIDTH)
}

/** Checks a picture's width: an integer from `MIN_PICTURE_WIDTH` to `MAX_PICTURE_WIDTH`, else a RangeError naming the bounds. */
export function checkPictureWidth(width: unknown): number {
  if (typeof width !== 'number' || !Number.isInteger(width) || width < MIN_PICTURE_WIDTH || width > MAX_PICTURE_WIDTH) {
    throw new RangeError(
      `a slide picture's width must be an integer from ${MIN_PICTURE_WIDTH} to ${MAX_PICTURE_WIDTH} pixels (its height is width × 9/16); got ${String(width)}`,
    )
  }
  return width
}
