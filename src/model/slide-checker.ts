/**
 * The slide-checker port: how the core asks for a slide to be rendered the
 * way the editor renders it (same transpile, same React, props from the
 * controls' defaults, the project's theme and tokens) and learns the
 * outcome as data, or gets a picture of it.
 *
 * The core declares it and never implements it: slide code never runs in
 * the emulator's process. The web room implements it (`web/check/`) and the
 * composition root hands that implementation to the emulator it builds
 * (`EmulatorParts.slideChecker`). A build without it (the browser entry,
 * msw in a page) has `NO_SLIDE_CHECKER`, which says so when asked.
 */
import type { ProjectConfig, SlideFiles } from '../schemas/index.js'

/** One slide to check: its three files and the project's config (its theme and tokens style the slide). */
export interface SlideCheckInput {
  files: SlideFiles
  config: ProjectConfig
}

/** How a check ended: `rendered`, or why not. */
export type SlideCheckStatus = 'rendered' | 'error' | 'timeout' | 'too-large' | 'crashed'

/** Why a slide did not render, as the editor shows it. */
export interface SlideCheckError {
  /** The renderer's error kind: `runtime`, `import`, `no-default-export`, `source`, `timeout`, `too-large`, `crashed`. */
  kind: string
  message: string
  /** The file at fault (`slide.tsx` unless a JSON file is). */
  file: 'slide.tsx' | 'slide.content.json' | 'slide.controls.json'
  /** Where in that file, 1-based, when known. */
  line?: number
  column?: number
}

/** What a check found. */
export interface SlideCheckResult {
  status: SlideCheckStatus
  /** Present unless `status` is `rendered`. */
  error?: SlideCheckError
  /** What a reader sees, in document order (whitespace collapsed); empty unless rendered. */
  text: string
  /** How many elements the rendered markup has; 0 unless rendered. */
  elements: number
  /** Findings that do not fail the render (unusable controls, as the editor's panel lists them). */
  notes: string[]
  /**
   * What the slide looks like where it may not look as meant, measured in a
   * browser: present only when the check asked for it (`layout: true`) and
   * the slide rendered; empty when nothing was found. Findings never change
   * `status`.
   */
  layout?: LayoutFinding[]
}

/**
 * The layout findings a browser measures on a rendered slide, in its
 * 1280 × 720 box (the display frame's own, as the editor shows it):
 *
 * - `outside-slide`: an element drawn (partly) outside the 1280 × 720 box;
 * - `text-clipped`: text cut off by an element with `overflow: hidden` (or
 *   `clip`) whose content is larger than its box;
 * - `image-failed`: an image that did not load (a wrong path, a refused
 *   origin, a file that is not an image);
 * - `text-too-small`: text under 12 CSS px at slide scale.
 */
export type LayoutFindingCode = 'outside-slide' | 'text-clipped' | 'image-failed' | 'text-too-small'

/** The codes of `LayoutFindingCode`, in the order a report lists them. */
export const LAYOUT_FINDING_CODES: readonly LayoutFindingCode[] = ['outside-slide', 'text-clipped', 'image-failed', 'text-too-small']

/** The smallest text size, in CSS px at the slide's scale (1280 × 720), that is not a `text-too-small` finding. */
export const MIN_TEXT_PX = 12

/** One layout finding: what, in words, and where (the element, its text, its box in slide pixels) when known. */
export interface LayoutFinding {
  code: LayoutFindingCode
  message: string
  /** The element, as a short CSS-like path (`section.slide > h1`). */
  element?: string
  /** The element's text (at most 80 characters), or an image's address. */
  text?: string
  /** The element's box in slide pixels (the slide's top left is 0, 0). */
  box?: { x: number; y: number; width: number; height: number }
}

/** What a check asks for besides the data result. */
export interface SlideCheckOptions {
  /** Measure the slide's layout in a browser (`SlideCheckResult.layout`); needs Chromium. */
  layout?: boolean
}

/** What an inspection asks for: layout findings, a picture `pictureWidth` pixels wide, or both, from one render. */
export interface SlideInspectOptions {
  layout?: boolean
  pictureWidth?: number
}

/** What an inspection found: the check's result (with `layout` when asked), and the PNG when asked and the slide rendered. */
export interface SlideInspection {
  result: SlideCheckResult
  png?: Uint8Array
}

/** A PNG of one slide, `width` pixels wide and `width × 9/16` high. */
export interface SlidePictureOptions {
  width: number
}

/** Renders slides for the core. Implementations hold their renderer between calls; `close` ends it. */
export interface SlideChecker {
  /** False for a build without a renderer (`NO_SLIDE_CHECKER`): every call rejects, saying so. */
  readonly available: boolean
  /** The data result; with `layout`, measured in the browser (`SlideCheckResult.layout`). */
  check(input: SlideCheckInput, options?: SlideCheckOptions): Promise<SlideCheckResult>
  /** A PNG of the rendered slide; rejects (with the check's `result` on the error) when it does not render. */
  picture(input: SlideCheckInput, options: SlidePictureOptions): Promise<Uint8Array>
  /**
   * One render in the browser, looked at once: its result, its layout
   * findings and its picture, as asked. Optional: without it a deck's
   * pictures take a check and a picture of each slide.
   */
  inspect?(input: SlideCheckInput, options: SlideInspectOptions): Promise<SlideInspection>
  /**
   * Starts inspecting `inputs` (a deck about to be inspected, in order,
   * each with `options`) all at once, for the `inspect` of each same input
   * object with the same options that follows: a checker may render them
   * one after another with no round trip between, and look at several at
   * once. Optional, and only a speed-up: `inspect` does alone what was not
   * done ahead.
   */
  inspectAhead?(inputs: readonly SlideCheckInput[], options: SlideInspectOptions): void
  close(): Promise<void>
}

/** Why a build has no slide checker, in the words every refusal uses. */
export const NO_SLIDE_CHECKER_MESSAGE =
  'this build of the emulator has no slide checker: slides are rendered by the web room in Node (createEmulator from "presentation-emulator", or the presentation-emulator CLI); the browser entry and msw in a page have none'

/** What `NO_SLIDE_CHECKER` rejects with: a build without a renderer was asked to render a slide. */
export class SlideCheckerUnavailableError extends Error {
  constructor() {
    super(NO_SLIDE_CHECKER_MESSAGE)
    this.name = 'SlideCheckerUnavailableError'
  }
}

function unavailable(): Promise<never> {
  return Promise.reject(new SlideCheckerUnavailableError())
}

/** The slide checker of a build without one: every check and picture rejects, saying why. */
export const NO_SLIDE_CHECKER: SlideChecker = Object.freeze({
  available: false,
  check: unavailable,
  picture: unavailable,
  inspect: unavailable,
  close: () => Promise.resolve(),
})
