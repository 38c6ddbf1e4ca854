/**
 * The core's service behind every way a deck is checked (issue 32): the
 * control plane's `POST /_emulator/projects/{slug}/check-slides`,
 * `emulator.control.checkSlides`, and checked saving (`checkSlidesOnSave`).
 * It reads the world's stored files and the project's config as a snapshot
 * (under the world's lock, for as long as a copy takes), lets the lock go,
 * then asks the slide-checker port (`slide-checker.ts`) about each slide, in
 * deck order. Slide code never runs here: the port's implementation renders.
 *
 * - One slide is checked at a time, across every caller: a check that waits
 *   waits for at most the slide in progress, never a whole deck.
 * - At most `MAX_PENDING_SLIDE_CHECKS` checks (a deck, or one checked save)
 *   are in progress or waiting; one more is refused at once
 *   (`SlideCheckQueueFullError`: 429 with `Retry-After` on the control plane,
 *   503 on a checked save).
 * - A deck has a total budget (`DEFAULT_DECK_BUDGET_MS` unless given): a
 *   slide still being checked when it runs out, and the slides not reached,
 *   are `timeout` with a message saying the deck's budget ran out: the deck
 *   loop is `checkDeck` (`deck-check.ts`), the one the CLI's `check` runs.
 */
import * as z from 'zod'
import { fail, ServiceError } from '../core/errors.js'
import { describeIssues, safeParse } from '../core/validation.js'
import type { ProjectConfig, SlideFiles } from '../schemas/index.js'
import type { World } from '../store/world.js'
import type { CheckedSlide, SlideCheckResults } from './check-results.js'
import { checkDeck } from './deck-check.js'
import {
  type SlideChecker,
  type SlideCheckInput,
  type SlideCheckOptions,
  type SlideCheckResult,
  SlideCheckerUnavailableError,
} from './slide-checker.js'
import {
  type CheckSlidesOptions,
  DEFAULT_DECK_BUDGET_MS,
  DEFAULT_PICTURE_WIDTH,
  type DeckCheckResult,
  type DeckPictures,
  MAX_DECK_BUDGET_MS,
  MAX_PICTURE_WIDTH,
  MIN_PICTURE_WIDTH,
  MAX_PENDING_SLIDE_CHECKS,
  SLIDE_CHECK_RETRY_AFTER_S,
  SlideCheckErrorCodes,
  type SlidePictureRequestOptions,
} from './slide-checks.js'

/** What the service needs of the emulator: its checker, and the world under its lock. */
export interface SlideCheckServiceHost {
  readonly slideChecker: SlideChecker
  readonly world: World
  /** Runs `task` with exclusive access to the world (held only while the snapshot is copied). */
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  /** Where each check's result is recorded for the pages' badges (`check-results.ts`); none, nothing is recorded. */
  readonly slideCheckResults?: SlideCheckResults
}

/**
 * The options as the control plane's body and `checkSlides` take them (the
 * one schema both ways are validated with): `onProgress` is the library's
 * alone and is checked beside it.
 */
export const CheckSlidesRequest = z.strictObject({
  slideIds: z
    .array(z.string().min(1, { error: 'a slide id is a non-empty string' }))
    .min(1, { error: 'give at least one slide id, or leave slideIds out to check every slide' })
    .max(10_000)
    .optional(),
  budgetMs: z
    .number({ error: 'must be a whole number of milliseconds > 0' })
    .int({ error: 'must be a whole number of milliseconds > 0' })
    .positive({ error: 'must be a whole number of milliseconds > 0' })
    .max(MAX_DECK_BUDGET_MS, { error: `must be at most ${MAX_DECK_BUDGET_MS} ms (an hour)` })
    .optional(),
  layout: z.boolean({ error: 'must be true or false' }).optional(),
})
export type CheckSlidesRequest = z.infer<typeof CheckSlidesRequest>

/** The body of `POST /_emulator/projects/{slug}/slides/{slideId}/picture` and the options of `slidePicture`. */
export const SlidePictureRequest = z.strictObject({ width: z.unknown().optional() })

/** What a picture's width out of range is answered with: 400 `PICTURE_WIDTH_OUT_OF_RANGE`, naming the bounds. */
export function pictureWidthOutOfRange(width: unknown): ServiceError {
  return new ServiceError(
    400,
    SlideCheckErrorCodes.pictureWidth,
    'Invalid request',
    `width: a slide picture's width must be a whole number of pixels from ${MIN_PICTURE_WIDTH} to ${MAX_PICTURE_WIDTH} (its height is width × 9/16); got ${JSON.stringify(width) ?? String(width)}`,
  )
}

/** Reads a picture's options: its width (default `DEFAULT_PICTURE_WIDTH`), or a 400 naming the bounds. */
export function parsePictureOptions(options: unknown): { width: number } {
  if (options === undefined || options === null) return { width: DEFAULT_PICTURE_WIDTH }
  if (typeof options !== 'object' || Array.isArray(options)) throw fail.validation('the options must be an object')
  const parsed = safeParse(SlidePictureRequest, options)
  if (!parsed.success) throw fail.validation(describeIssues(parsed.error.issues))
  const width = parsed.data.width
  if (width === undefined) return { width: DEFAULT_PICTURE_WIDTH }
  if (typeof width !== 'number' || !Number.isInteger(width) || width < MIN_PICTURE_WIDTH || width > MAX_PICTURE_WIDTH) {
    throw pictureWidthOutOfRange(width)
  }
  return { width }
}

/** The 400 of a picture of a slide that does not render: `SLIDE_DOES_NOT_RENDER`, its hint the render's error. */
export function slideDoesNotRender(slideId: string, result: SlideCheckResult): ServiceError {
  const error = result.error
  const where =
    error === undefined
      ? ''
      : `${error.file}${error.line === undefined ? '' : `:${error.line}${error.column === undefined ? '' : `:${error.column}`}`}: `
  return new ServiceError(
    400,
    SlideCheckErrorCodes.doesNotRender,
    'Slide does not render',
    `slide "${slideId}" does not render, so it has no picture (${result.status}): ${where}${error?.message ?? 'no markup'}`,
  )
}

/** What a deck check refuses with when `MAX_PENDING_SLIDE_CHECKS` checks are in progress or waiting. */
export class SlideCheckQueueFullError extends Error {
  readonly retryAfterSeconds = SLIDE_CHECK_RETRY_AFTER_S
  constructor() {
    super(`${MAX_PENDING_SLIDE_CHECKS} slide checks are already in progress or waiting; try again in ${SLIDE_CHECK_RETRY_AFTER_S} s`)
    this.name = 'SlideCheckQueueFullError'
  }
}

/** The 503 of a checker that cannot answer: none in this build, or it failed to start or to check. */
export function checkerUnavailable(error: unknown): ServiceError {
  const why =
    error instanceof SlideCheckerUnavailableError
      ? error.message
      : `the slide checker could not check the slide: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`
  return new ServiceError(503, SlideCheckErrorCodes.unavailable, 'Slide checker unavailable', why)
}

/** The answer to a full queue: `status` 429 (the control plane) or 503 (a checked save), with `Retry-After`. */
export function queueFull(status: 429 | 503, error: SlideCheckQueueFullError): ServiceError {
  return new ServiceError(status, SlideCheckErrorCodes.queueFull, 'Too many slide checks', error.message, {
    'retry-after': String(error.retryAfterSeconds),
  })
}

/** One slide as read from the world: its id, 1-based position in the deck, and what the checker needs. */
export interface SlideSnapshot {
  slideId: string
  projectId: string
  position: number
  input: SlideCheckInput
}

/** A copy of the files and config, so nothing the checker holds is the world's. */
function inputOf(files: SlideFiles, config: ProjectConfig): SlideCheckInput {
  return { files: { ...files }, config: structuredClone(config) }
}

/** Validates in-process options as the control plane's body is validated; a bad one is a 400 naming it. */
export function parseCheckSlidesOptions(options: unknown): CheckSlidesRequest & Pick<CheckSlidesOptions, 'onProgress'> {
  if (options === undefined || options === null) return {}
  if (typeof options !== 'object' || Array.isArray(options)) throw fail.validation('the options must be an object')
  const { onProgress, ...rest } = options as Record<string, unknown>
  if (onProgress !== undefined && typeof onProgress !== 'function') {
    throw fail.validation('onProgress: must be a function (done, total) => void')
  }
  const parsed = safeParse(CheckSlidesRequest, rest)
  if (!parsed.success) throw fail.validation(describeIssues(parsed.error.issues))
  return { ...parsed.data, ...(onProgress === undefined ? {} : { onProgress: onProgress as CheckSlidesOptions['onProgress'] }) }
}

/**
 * Checks slides through the port, one at a time, with a bound on how many
 * checks may be in progress or waiting. `now` is the deck budget's clock
 * (`performance.now` unless a test gives another).
 */
export class SlideCheckService {
  readonly #host: SlideCheckServiceHost
  readonly #now: () => number
  /** Checks (decks and checked saves) in progress or waiting for their turn. */
  #pending = 0
  /** The tail of the one-slide-at-a-time chain: settles when the last slide asked for is done. */
  #turn: Promise<unknown> = Promise.resolve()

  constructor(host: SlideCheckServiceHost, now: () => number = () => performance.now()) {
    this.#host = host
    this.#now = now
  }

  /** How many checks are in progress or waiting (for tests and the docs' numbers). */
  get pending(): number {
    return this.#pending
  }

  /**
   * Checks a project's slides (all, or `slideIds`) and reports each in deck
   * order. A bad option is a 400, an unknown slug or slide id a 404 (before
   * anything is checked), a build without a checker a 503, a full queue a
   * `SlideCheckQueueFullError`.
   */
  async checkDeck(slug: string, options?: CheckSlidesOptions): Promise<DeckCheckResult> {
    const parsed = parseCheckSlidesOptions(options)
    const budgetMs = parsed.budgetMs ?? DEFAULT_DECK_BUDGET_MS
    const slides = await this.#snapshot(slug, parsed.slideIds)
    if (!this.#host.slideChecker.available) throw checkerUnavailable(new SlideCheckerUnavailableError())
    const checker = this.#host.slideChecker
    // Each checker result is recorded for the badges (the deck's budget may stop waiting for one; it is recorded when it comes).
    const record = this.#host.slideCheckResults?.recorder()
    const bySnapshot = new Map(slides.map((slide) => [slide.input, slide]))
    const checked = (input: SlideCheckInput) => (result: SlideCheckResult) => {
      const slide = bySnapshot.get(input)
      if (slide !== undefined) record?.(slide, input, result)
      return result
    }
    // Each slide waits for its turn; a slide the budget cuts short keeps its
    // turn until the checker is done with it, so the next check waits for the
    // checker, not for the report.
    const inTurn = {
      check: (input: SlideCheckInput, options?: SlideCheckOptions) =>
        this.#inTurn(() => (options === undefined ? checker.check(input) : checker.check(input, options))).then(checked(input)),
    }
    const deck = slides.map(({ slideId, position, input }) => ({ slideId, position, load: async () => input }))
    return this.#queued(async () => {
      try {
        return await checkDeck(inTurn, slug, deck, {
          budgetMs,
          now: this.#now,
          ...(parsed.layout === true && { layout: true }),
          ...(parsed.onProgress && { onProgress: parsed.onProgress }),
        })
      } catch (error) {
        // The snapshot's slides always load: what rejects is the checker
        // (none in this build, or it could not start), so no slide could be checked.
        throw checkerUnavailable(error)
      }
    })
  }

  /**
   * A PNG of one slide of a project, `width` pixels wide (320 to 3840,
   * default 1280) and `width × 9/16` high, taken in headless Chromium from
   * the renderer the editor uses. The slide's files and the project's config
   * are read under the world's lock (a snapshot), then the lock is let go
   * and the picture waits for its turn like a check. A bad width is a 400
   * naming the bounds (before anything is read), an unknown slug or slide a
   * 404, a slide that does not render a 400 `SLIDE_DOES_NOT_RENDER`, a
   * browser that cannot be found or started (or dies) a 503
   * `SLIDE_CHECKER_UNAVAILABLE` naming the browser's path and how to give
   * one; the emulator goes on either way.
   */
  async picture(slug: string, slideId: string, options?: SlidePictureRequestOptions): Promise<Uint8Array> {
    const { width } = parsePictureOptions(options)
    const [slide] = await this.#snapshot(slug, [slideId])
    if (slide === undefined) throw fail.notFound('Slide', `no slide "${slideId}" in project "${slug}"`)
    const checker = this.#host.slideChecker
    if (!checker.available) throw checkerUnavailable(new SlideCheckerUnavailableError())
    return this.#queued(() =>
      this.#inTurn(async () => {
        try {
          return await checker.picture(slide.input, { width })
        } catch (error) {
          const result = (error as { result?: SlideCheckResult }).result
          if (result !== undefined && typeof result === 'object' && result.status !== 'rendered') throw slideDoesNotRender(slideId, result)
          throw checkerUnavailable(error)
        }
      }),
    )
  }

  /**
   * Pictures of a project's slides (all, or `slideIds`) in one call, one
   * browser and one renderer frame for the deck: each slide's check (with
   * `layout` when asked), and a PNG of each slide that rendered, in deck
   * order, within the deck's budget. Refuses as `checkDeck` and `picture` do.
   */
  async pictures(slug: string, options: CheckSlidesOptions & SlidePictureRequestOptions = {}): Promise<DeckPictures> {
    const { width: givenWidth, ...checkOptions } = options ?? {}
    const { width } = parsePictureOptions(givenWidth === undefined ? {} : { width: givenWidth })
    const parsed = parseCheckSlidesOptions(checkOptions)
    const budgetMs = parsed.budgetMs ?? DEFAULT_DECK_BUDGET_MS
    const slides = await this.#snapshot(slug, parsed.slideIds)
    const checker = this.#host.slideChecker
    if (!checker.available) throw checkerUnavailable(new SlideCheckerUnavailableError())
    const pictures: DeckPictures['pictures'] = []
    // The whole deck is one turn: its check and picture of each slide share the renderer frame, one after another.
    return this.#queued(() =>
      this.#inTurn(async () => {
        try {
          // Every slide rendered with no round trip between renders, and looked at several at a time: the deck loop's `inspect` of each takes its outcome.
          checker.inspectAhead?.(
            slides.map(({ input }) => input),
            { pictureWidth: width, ...(parsed.layout === true && { layout: true }) },
          )
          const result = await checkDeck(
            checker,
            slug,
            slides.map(({ slideId, position, input }) => ({ slideId, position, load: async () => input })),
            {
              budgetMs,
              now: this.#now,
              ...(parsed.layout === true && { layout: true }),
              ...(parsed.onProgress && { onProgress: parsed.onProgress }),
              pictures: {
                width,
                onPicture: (report, png) => void pictures.push({ slideId: report.slideId, position: report.position, png }),
              },
            },
          )
          return { result, pictures }
        } catch (error) {
          throw checkerUnavailable(error)
        }
      }),
    )
  }

  /**
   * Checks one slide's files (a checked save): queued as one check, bounded
   * by the renderer's own time limit. Rejects with `SlideCheckQueueFullError`
   * when the queue is full, or with what the checker rejected with. The
   * result is recorded as `slide`'s for `input`, when `slide` is given.
   */
  checkOne(input: SlideCheckInput, slide?: CheckedSlide): Promise<SlideCheckResult> {
    const record = slide === undefined ? undefined : this.#host.slideCheckResults?.recorder()
    return this.#queued(() =>
      this.#inTurn(async () => {
        const result = await this.#host.slideChecker.check(input)
        record?.(slide!, input, result)
        return result
      }),
    )
  }

  /** Runs `task` as one check of the bounded queue; refuses at once when the queue is full. */
  async #queued<T>(task: () => Promise<T>): Promise<T> {
    if (this.#pending >= MAX_PENDING_SLIDE_CHECKS) throw new SlideCheckQueueFullError()
    this.#pending += 1
    try {
      return await task()
    } finally {
      this.#pending -= 1
    }
  }

  /** Runs `task` once every slide asked for before it is done: one slide at a time, in the order asked. */
  #inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(task)
    this.#turn = run.catch(() => undefined)
    return run
  }

  /** The project's slides (all, or those asked for, in deck order) with their files and the project's config, read under the lock. */
  #snapshot(slug: string, slideIds: readonly string[] | undefined): Promise<SlideSnapshot[]> {
    return this.#host.exclusive(() => {
      const world = this.#host.world
      const project = world.projectBySlug(slug)
      if (project === undefined) throw fail.notFound('Project', `no project "${slug}"`)
      const deck = world.slidesOf(project.id)
      const all = deck.map((slide, index) => ({
        slideId: slide.id,
        projectId: project.id,
        position: index + 1,
        input: inputOf(slide.files, project.config),
      }))
      if (slideIds === undefined) return all
      const wanted = new Set(slideIds)
      const known = new Set(deck.map((slide) => slide.id))
      const unknown = [...wanted].filter((id) => !known.has(id))
      if (unknown.length > 0) {
        throw fail.notFound('Slide', `no slide ${unknown.map((id) => `"${id}"`).join(', ')} in project "${slug}"`)
      }
      return all.filter((slide) => wanted.has(slide.slideId))
    })
  }
}
