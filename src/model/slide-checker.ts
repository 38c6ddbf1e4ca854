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
}

/** A PNG of one slide, `width` pixels wide and `width × 9/16` high. */
export interface SlidePictureOptions {
  width: number
}

/** Renders slides for the core. Implementations hold their renderer between calls; `close` ends it. */
export interface SlideChecker {
  /** False for a build without a renderer (`NO_SLIDE_CHECKER`): every call rejects, saying so. */
  readonly available: boolean
  check(input: SlideCheckInput): Promise<SlideCheckResult>
  picture(input: SlideCheckInput, options: SlidePictureOptions): Promise<Uint8Array>
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
  close: () => Promise.resolve(),
})
