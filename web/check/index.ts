/**
 * The web room's slide checker: the one implementation of the core's
 * `SlideChecker` port (`src/model/slide-checker.ts`). It renders a slide
 * exactly as the editor does, with the editor's own renderer, and reports
 * the outcome as data or takes a picture of it:
 *
 * 1. On the emulator's side, with no slide code run, the slide is prepared
 *    as for the editor (`prepare.ts`): transpiled by the emulator's
 *    transpiler, its props from the controls' defaults, its notes, the
 *    project's theme and tokens as the display frames' stylesheet. A
 *    slide whose source has a problem is answered then, without a browser.
 * 2. A check (data: does it render, what does it show) runs in the Node
 *    slide checker (`node/checker.ts`): a process of its own, started on
 *    the first check, with no environment, no file access and a locked
 *    global scope, which runs the render workers' own render step
 *    (`web/render/client/slide-world.ts`) with the same React.
 * 3. A picture needs a browser: headless Chromium (`browser.ts`, started on the first such
 *    check and kept for the next ones) opens the checker's harness
 *    (`harness.ts`), which hands the slide to the renderer frame
 *    (`renderer.html`) in a sandboxed iframe, as the editor's page does;
 *    the component runs in the renderer's locked workers. Every request
 *    the browser makes is answered by the emulator's own handler, with no
 *    socket; any other origin is refused.
 * 4. A picture is the renderer's sanitised markup shown in a display frame
 *    (`slide.html`) with the project's stylesheet, screenshot as a PNG.
 *
 * Nothing imports this module at start: the composition root loads it
 * (with a dynamic import) where it builds an emulator in Node; it starts
 * the Node checker's process on the first check and loads playwright-core
 * only when a slide first needs the browser. `createSlideChecker` gives
 * both as one `SlideChecker` (`WebSlideChecker`).
 */
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type {
  LayoutFinding,
  SlideCheckInput,
  SlideCheckOptions,
  SlideChecker,
  SlideCheckResult,
  SlideInspection,
  SlideInspectOptions,
  SlidePictureOptions,
} from '../../src/model/slide-checker.js'
import type { PageHost } from '../pages/page-server.js'
import { SLIDE_HEIGHT, SLIDE_WIDTH } from '../render/limits.js'
import {
  BrowserUnavailableError,
  type CheckSession,
  chromiumPath,
  displaySlots,
  openSession,
  type ShownSlide,
  type ViewRequest,
} from './browser.js'
import type { HarnessAnswer } from './harness.js'
import { NodeSlideChecker, type NodeSlideCheckerOptions } from './node/checker.js'
import { checkPictureWidth, type PreparedSlide, pictureHeight, prepareSlide, resultOf } from './prepare.js'

export {
  BrowserUnavailableError,
  chromiumArgs,
  chromiumPath,
  DEFAULT_CHROMIUM_PATH,
  noBrowserMessage,
  USUAL_CHROMIUM_PATHS,
} from './browser.js'
export { MAX_FINDINGS_PER_CODE, measureLayout } from './layout.js'
export { CHECK_ORIGIN, HARNESS_PATH } from './harness.js'
export { CHECKER_HEAP_MB, MAX_QUEUED_CHECKS, NodeSlideChecker, SlideCheckerBusyError } from './node/checker.js'
export { MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH, pictureHeight } from './prepare.js'

/** What the checker needs of the emulator: what the pages need (its transpiler is theirs), and its request handler. */
export interface SlideCheckHost extends PageHost {
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
}

/** How to find the browser (by default `CHROMIUM_PATH`, else the usual install locations), and the Node checker's ceilings. */
export interface SlideCheckerOptions {
  /** The Chromium executable (default: `CHROMIUM_PATH`, else the first of `USUAL_CHROMIUM_PATHS` that exists). */
  executablePath?: string
  /** The Node checker's process. */
  node?: NodeSlideCheckerOptions
}

/** What the checker's browser saw: requests it tried to other origins (each aborted), every request by origin, errors of its pages. */
export interface BrowserDiagnostics {
  blockedRequests: readonly string[]
  requestsByOrigin: Record<string, number>
  /** Documents (pages, frames) loaded, by path. */
  documentLoads: Record<string, number>
  errors: readonly string[]
}

/** What `picture` rejects with when the slide did not render: the check's result says why. */
export class SlideNotRenderedError extends Error {
  /** The result of checking the slide. */
  readonly result: SlideCheckResult
  constructor(result: SlideCheckResult) {
    const error = result.error
    const where = error?.line === undefined ? '' : ` (${error.file}:${error.line}${error.column === undefined ? '' : `:${error.column}`})`
    super(
      `the slide did not render (${result.status}${error === undefined ? '' : `, ${error.kind}`}): ${error?.message ?? 'no markup'}${where}`,
    )
    this.name = 'SlideNotRenderedError'
    this.result = result
  }
}

/** A slide rendered in the browser's renderer frame: its result, and what a display frame shows of it when it rendered. */
interface Rendered {
  result: SlideCheckResult
  shown?: ShownSlide
}

/** What a render's answer gives: the result, and the markup a display frame shows when it rendered. */
function renderedOf(answer: HarnessAnswer, data: Extract<PreparedSlide, { ready: true }>['data'], css: string): Rendered {
  const result = resultOf(answer, data.notes)
  return answer.ok ? { result, shown: { html: answer.html, css, images: data.images } } : { result }
}

/**
 * What an inspection asks the browser to look at: the display frame's size
 * and what to take (none when neither layout nor a picture is asked), and
 * a key that says so (an inspection started ahead serves the same key only).
 * Throws on a picture width out of range.
 */
function lookOf(options: SlideInspectOptions): { key: string; layout: boolean; request?: ViewRequest } {
  const width = options.pictureWidth === undefined ? undefined : checkPictureWidth(options.pictureWidth)
  const layout = options.layout === true
  const key = `${layout} ${width ?? ''}`
  if (!layout && width === undefined) return { key, layout }
  return {
    key,
    layout,
    request: {
      width: width ?? SLIDE_WIDTH,
      height: width === undefined ? SLIDE_HEIGHT : pictureHeight(width),
      layout,
      picture: width !== undefined,
    },
  }
}

/** The web room's slide checker, as `EmulatorParts.slideChecker` builds it. */
export class BrowserSlideChecker implements SlideChecker {
  readonly available = true
  readonly #host: SlideCheckHost
  readonly #options: SlideCheckerOptions
  #session: Promise<CheckSession> | undefined
  #closed = false

  constructor(host: SlideCheckHost, options: SlideCheckerOptions = {}) {
    this.#host = host
    this.#options = options
  }

  /**
   * What the current browser saw that should not happen: requests to other
   * origins it tried (each refused), and console or uncaught errors of the
   * harness and its frames. Empty before the browser starts.
   */
  async diagnostics(): Promise<BrowserDiagnostics> {
    const session = await this.#session?.catch(() => undefined)
    return {
      blockedRequests: [...(session?.blockedRequests ?? [])],
      requestsByOrigin: Object.fromEntries(session?.requestsByOrigin ?? []),
      documentLoads: Object.fromEntries(session?.documentLoads ?? []),
      errors: [...(session?.errors ?? [])],
    }
  }

  /** The browser session, started on first use and again after it has gone (a crash); rejects without Chromium. */
  #browser(): Promise<CheckSession> {
    if (this.#closed) return Promise.reject(new Error('the slide checker is closed'))
    const current = (this.#session ??= this.#start())
    return current.then((session) => {
      if (session.alive) return session
      if (this.#session === current) this.#session = this.#start()
      return this.#session ?? this.#browser()
    })
  }

  /** The browser's path as the session was (or would be) started with. */
  #executablePath(): string {
    return chromiumPath(this.#options.executablePath)
  }

  #start(): Promise<CheckSession> {
    const starting = openSession(this.#host, this.#options)
    // A failed start is not kept: the next check tries again (Chromium installed meanwhile, say).
    starting.catch(() => {
      if (this.#session === starting) this.#session = undefined
    })
    return starting
  }

  /**
   * Starts inspecting `inputs` (a deck about to be inspected, in order) as
   * `inspect(input, options)` would, for the `inspect` of each same input
   * object with the same options that follows: every render asked for at
   * once (the renderer frame takes them as its workers free up), and each
   * slide that rendered looked at as soon as its render is in and a page is
   * free (`displaySlots` looks side by side). Nothing is done twice: an
   * input's `inspect` takes its outcome from here. A failure here is not
   * kept: the slide's `inspect` then does it alone, and says what failed.
   */
  inspectAhead(inputs: readonly SlideCheckInput[], options: SlideInspectOptions): void {
    let look: ReturnType<typeof lookOf>
    try {
      look = lookOf(options)
    } catch {
      return // `inspect` says what is wrong with the options.
    }
    const { key, request } = look
    const session = this.#browser()
    session.then(
      // The pages the looks will take side by side open while the first slides render.
      (open) => request !== undefined && open.openDisplays(Math.min(inputs.length, displaySlots(request.width, request.height))),
      () => undefined,
    )
    for (const input of inputs) {
      const prepared = prepareSlide(this.#host, input)
      if (!prepared.ready) continue
      const { data, css } = prepared
      const rendered = session
        .then((open) =>
          open.render(
            { code: data.code, mappings: data.mappings, content: data.content, controls: data.controls, images: data.images },
            data.props,
          ),
        )
        .then(
          (answer) => renderedOf(answer, data, css),
          () => undefined,
        )
      const shown = rendered.then((done) => done?.shown)
      const viewed =
        request === undefined
          ? undefined
          : Promise.all([shown, session]).then(([slide, open]) => (slide === undefined ? undefined : open.view(slide, request)))
      viewed?.catch(() => undefined)
      this.#ahead.set(input, { key, rendered, ...(viewed !== undefined && { viewed }) })
    }
  }

  /** Inspections started ahead (`inspectAhead`), by input, until their `inspect` takes them; `key` says what they were asked. */
  #ahead = new WeakMap<
    SlideCheckInput,
    { key: string; rendered: Promise<Rendered | undefined>; viewed?: Promise<{ layout?: LayoutFinding[]; png?: Uint8Array } | undefined> }
  >()

  /** The slide rendered in the browser's renderer frame: its result, and what a display frame shows of it when it rendered. */
  async #render(input: SlideCheckInput): Promise<Rendered & { browserDied?: string }> {
    const prepared = prepareSlide(this.#host, input)
    if (!prepared.ready) return { result: prepared.result }
    const { data, css } = prepared
    const session = await this.#browser()
    let answer: Awaited<ReturnType<CheckSession['render']>>
    try {
      answer = await session.render(
        { code: data.code, mappings: data.mappings, content: data.content, controls: data.controls, images: data.images },
        data.props,
      )
    } catch (error) {
      if (this.#closed) throw new Error('the slide checker was closed during the check')
      // The browser or its page went away under this check (a crash): it says so; the next check starts another.
      const why = (error as Error).message.split('\n')[0] ?? ''
      answer = { ok: false, error: { kind: 'crashed', message: `The checker's browser stopped during the render: ${why}` } }
      const result = resultOf(answer, data.notes)
      return { result, browserDied: `the checker's browser (${session.executablePath}) stopped during the render: ${why}` }
    }
    return renderedOf(answer, data, css)
  }

  /**
   * Renders the slide as the editor does, in the browser, and reports the
   * outcome; with `layout`, shown in a display frame at the slide's own size
   * and measured (`SlideCheckResult.layout`). Rejects (`BrowserUnavailableError`) without a browser.
   */
  async check(input: SlideCheckInput, options: SlideCheckOptions = {}): Promise<SlideCheckResult> {
    return (await this.inspect(input, { layout: options.layout === true })).result
  }

  /**
   * A PNG of the rendered slide, `width` (320 to 3840) pixels wide and
   * `width × 9/16` high; rejects with `SlideNotRenderedError` when it does
   * not render.
   */
  async picture(input: SlideCheckInput, options: SlidePictureOptions): Promise<Uint8Array> {
    const { result, png } = await this.inspect(input, { pictureWidth: checkPictureWidth(options?.width) })
    if (png === undefined) throw new SlideNotRenderedError(result)
    return png
  }

  /**
   * One render in the browser's renderer frame and, when it rendered and
   * something is asked, one look at it in a display frame: its layout
   * findings (`layout`) and a PNG `pictureWidth` pixels wide, both from the
   * same frame (at the slide's own 1280 × 720 without a picture).
   */
  async inspect(input: SlideCheckInput, options: SlideInspectOptions): Promise<SlideInspection> {
    const { key, request, layout } = lookOf(options)
    const ahead = this.#ahead.get(input)
    this.#ahead.delete(input)
    const early = ahead?.key === key ? await ahead.rendered : undefined
    const rendered: Rendered & { browserDied?: string } = early ?? (await this.#render(input))
    // A picture or a layout the browser could not take because it died is the browser's failure, not the slide's.
    if (rendered.browserDied !== undefined && request !== undefined) {
      throw new BrowserUnavailableError(this.#executablePath(), `${rendered.browserDied}; the next picture starts another`)
    }
    if (rendered.shown === undefined || request === undefined) return { result: rendered.result }
    const session = await this.#browser()
    let viewed: Awaited<ReturnType<CheckSession['view']>> | undefined
    try {
      // The look started ahead with this render, or one now.
      viewed = (early !== undefined ? await ahead?.viewed : undefined) ?? (await session.view(rendered.shown, request))
    } catch (error) {
      if (this.#closed) throw new Error('the slide checker was closed during the picture')
      throw new BrowserUnavailableError(
        session.executablePath,
        `the checker's browser (${session.executablePath}) failed while showing the slide: ${(error as Error).message.split('\n')[0]}${session.alive ? '' : '; it stopped, and the next picture starts another'}`,
      )
    }
    return {
      result: layout ? { ...rendered.result, layout: viewed.layout ?? [] } : rendered.result,
      ...(viewed.png === undefined ? {} : { png: viewed.png }),
    }
  }

  /** Ends the browser (and deletes its profile); the checker answers no more checks. */
  async close(): Promise<void> {
    this.#closed = true
    const session = await this.#session?.catch(() => undefined)
    this.#session = undefined
    await session?.close()
  }
}

/**
 * The web room's slide checker: checks on the Node engine (no browser), pictures on the browser's.
 * Each starts on its first use.
 */
export class WebSlideChecker implements SlideChecker {
  readonly available = true
  /** The data engine: `check`. */
  readonly data: NodeSlideChecker
  /** The browser engine: `picture`. */
  readonly browser: BrowserSlideChecker

  constructor(host: SlideCheckHost, options: SlideCheckerOptions = {}) {
    this.data = new NodeSlideChecker(host, options.node)
    this.browser = new BrowserSlideChecker(host, options)
  }

  /**
   * Renders the slide as the editor does and reports the outcome: in the
   * Node checker's process, or with `layout` in the browser (which measures
   * what the Node engine cannot see).
   */
  check(input: SlideCheckInput, options: SlideCheckOptions = {}): Promise<SlideCheckResult> {
    return options.layout === true ? this.browser.check(input, options) : this.data.check(input)
  }

  /** A PNG of the rendered slide, taken by the browser engine (`BrowserSlideChecker.picture`). */
  picture(input: SlideCheckInput, options: SlidePictureOptions): Promise<Uint8Array> {
    return this.browser.picture(input, options)
  }

  /** One render in the browser: its result, layout findings and picture, as asked (`BrowserSlideChecker.inspect`). */
  inspect(input: SlideCheckInput, options: SlideInspectOptions): Promise<SlideInspection> {
    return this.browser.inspect(input, options)
  }

  /** Starts a deck's inspections ahead of their `inspect` (`BrowserSlideChecker.inspectAhead`). */
  inspectAhead(inputs: readonly SlideCheckInput[], options: SlideInspectOptions): void {
    this.browser.inspectAhead(inputs, options)
  }

  /** What the browser engine saw that should not happen (`BrowserSlideChecker.diagnostics`). */
  diagnostics(): Promise<BrowserDiagnostics> {
    return this.browser.diagnostics()
  }

  /** Ends both engines' processes; the checker answers no more checks. */
  async close(): Promise<void> {
    await Promise.all([this.data.close(), this.browser.close()])
  }
}

/**
 * The web room's slide checker for an emulator (`EmulatorParts.slideChecker`):
 * `new Emulator(options, { mounts: WEB_MOUNTS, slideChecker: createSlideChecker })`.
 * Nothing starts until a slide is checked (the Node process) or pictured (the browser).
 */
export function createSlideChecker(host: SlideCheckHost, options: SlideCheckerOptions = {}): WebSlideChecker {
  return new WebSlideChecker(host, options)
}
