/**
 * Checks of a project's slides (issue 32): the shape every way in shares
 * (the control plane's JSON, `emulator.control.checkSlides`, the CLI's
 * `check --reporter json`, the vitest matcher). Each slide is checked
 * through the core's slide-checker port (`slide-checker.ts`).
 */
import type { SlideCheckResult } from './slide-checker.js'

/** How long a deck's check may take in all, unless the caller says otherwise: slides not reached by then are `timeout`. */
export const DEFAULT_DECK_BUDGET_MS = 120_000

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
}
