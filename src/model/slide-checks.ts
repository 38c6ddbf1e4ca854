/**
 * Checks of a project's slides (issue 32): the shape every way in shares
 * (the control plane's JSON, `emulator.control.checkSlides`, the CLI's
 * `check --reporter json`, the vitest matcher). Each slide is checked
 * through the core's slide-checker port (`slide-checker.ts`).
 */
import type { SlideCheckResult } from './slide-checker.js'

/** How long a deck's check may take in all, unless the caller says otherwise: slides not reached by then are `timeout`. */
export const DEFAULT_DECK_BUDGET_MS = 120_000

/** The largest deck budget a caller may ask for: an hour. */
export const MAX_DECK_BUDGET_MS = 3_600_000

/**
 * How many checks (a deck's, or one checked save's) may be in progress or
 * waiting at once; one more is refused at once (429 on the control plane,
 * 503 on a checked save, both with `Retry-After`).
 */
export const MAX_PENDING_SLIDE_CHECKS = 16

/** The narrowest and widest slide picture, in pixels (its height is width × 9/16), and the width unless one is given. */
export const MIN_PICTURE_WIDTH = 320
export const MAX_PICTURE_WIDTH = 3840
export const DEFAULT_PICTURE_WIDTH = 1280

/** The `Retry-After` of a refusal for a full queue, in seconds. */
export const SLIDE_CHECK_RETRY_AFTER_S = 5

/**
 * The `X-Service-Error-Code`s of slide checks (emulator choices; the spec's
 * error body `{error, hint}` carries them):
 *
 * - `SLIDE_DOES_NOT_RENDER` (400): a checked save (`checkSlidesOnSave`) whose
 *   slide fails to render; the hint is `slide.tsx:line:column: message`.
 * - `SLIDE_CHECKER_UNAVAILABLE` (503): the checker cannot answer: this build
 *   has none (the browser entry, msw in a page), it could not start, or it
 *   stopped during the check (a checked save whose check `crashed`).
 * - `SLIDE_CHECK_QUEUE_FULL` (429 on the control plane, 503 on a checked
 *   save, with `Retry-After`): `MAX_PENDING_SLIDE_CHECKS` checks are
 *   already in progress or waiting.
 * - `SLIDE_CHECK_CONTENDED` (503, with `Retry-After`): a checked save whose
 *   slide or project config kept changing while it was checked.
 * - `PICTURE_WIDTH_OUT_OF_RANGE` (400): a slide picture's `width` is not a
 *   whole number from `MIN_PICTURE_WIDTH` to `MAX_PICTURE_WIDTH`; the hint
 *   names the bounds. (A picture of a slide that does not render is
 *   `SLIDE_DOES_NOT_RENDER`, 400, its hint the render's error; a browser
 *   that cannot be found or started is `SLIDE_CHECKER_UNAVAILABLE`, 503,
 *   its hint naming the path tried and how to give one.)
 */
export const SlideCheckErrorCodes = {
  doesNotRender: 'SLIDE_DOES_NOT_RENDER',
  unavailable: 'SLIDE_CHECKER_UNAVAILABLE',
  queueFull: 'SLIDE_CHECK_QUEUE_FULL',
  contended: 'SLIDE_CHECK_CONTENDED',
  pictureWidth: 'PICTURE_WIDTH_OUT_OF_RANGE',
} as const

/** One slide's result in a deck check. */
export interface SlideCheckReport extends SlideCheckResult {
  /** The slide's id (a folder's path, relative to where the CLI was pointed, for slides on disk). */
  slideId: string
  /** 1-based position in the deck (or in the folders, sorted by path). */
  position: number
}

/** What checking a deck (all its slides, or the ones asked for) found. */
export interface DeckCheckResult {
  /** The project's slug, or the folder the CLI was pointed at. */
  project: string
  /** Slides checked, in deck order. */
  slides: SlideCheckReport[]
  /** How many of them rendered, and how many did not. */
  rendered: number
  failed: number
}

/** How to check a deck. */
export interface CheckSlidesOptions {
  /** Only these slides (each must exist: an unknown id is a 404 before anything is checked). */
  slideIds?: readonly string[]
  /** The deck's total budget in ms (default `DEFAULT_DECK_BUDGET_MS`); slides not reached are `timeout`. */
  budgetMs?: number
  /** Called after each slide with how many are done of how many. */
  onProgress?: (done: number, total: number) => void
  /**
   * Also measure each rendered slide's layout in a browser (headless
   * Chromium): `SlideCheckReport.layout`. Without it a check needs no
   * browser. Findings never change a slide's `status`.
   */
  layout?: boolean
}

/** A picture of one slide: how wide (320 to 3840 px, default 1280; its height is width × 9/16). */
export interface SlidePictureRequestOptions {
  width?: number
}

/** A deck's pictures (`SlideCheckService.pictures`): each slide's check, and a PNG of each slide that rendered. */
export interface DeckPictures {
  result: DeckCheckResult
  pictures: { slideId: string; position: number; png: Uint8Array }[]
}
