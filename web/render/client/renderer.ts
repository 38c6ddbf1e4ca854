/**
 * The renderer frame (`/_emulator/assets/render/renderer.html`, loaded by a
 * page in `<iframe sandbox="allow-scripts">`, and sandboxed by its own CSP
 * when opened directly): it runs components in its workers and answers the
 * page with sanitised markup or an error.
 *
 * - It takes requests only from the page that framed it (`event.source`)
 *   and answers only that page, on the emulator's origin.
 * - A one-slide worker, then `MAX_CONCURRENT_RENDERS` locked workers,
 *   started one after the other as soon as the frame loads (before the page
 *   asks for anything), each from a `blob:` script this frame writes: for
 *   a locked one, SES and the worker's own script (`worker.ts`), which
 *   locks the worker's world before any slide code runs. Each worker has
 *   its own `blob:` address for React, loads it once, and again for each
 *   render (a React per slide); each render's slide is a `blob:` script of
 *   its own. The workers inherit the frame's CSP: scripts only by their
 *   hash or from `blob:` addresses, no connection anywhere.
 * - A worker renders one slide at a time, on its own `MessagePort`. The
 *   render's clock starts when the worker says it has started the slide's
 *   code: after `RENDER_TIMEOUT_MS`, or on any failure, the worker is
 *   ended (and a fresh one started). A worker is used again only once it
 *   says `idle` (nothing the slide started is still running), and for at
 *   most `MAX_RENDERS_PER_WORKER` renders.
 * - The first slide asked for renders alone in the one-slide worker (the
 *   worker's script without SES: nothing locked, network and storage
 *   removed; React loaded before the slide comes), ended after it: it waits
 *   neither for SES and lockdown nor for a worker to start.
 * - A slide that fails in a worker that had rendered another slide before
 *   is rendered once more in a fresh worker: only a failure it has there is
 *   its own, so one slide cannot make another fail.
 * - Markup over `MAX_MARKUP_CHARS` is refused unread (the worker does not
 *   even send it); the rest is sanitised before it leaves the frame, once,
 *   and written out as HTML (for a display frame) and as XHTML (for the
 *   slide's picture). Either over `MAX_MARKUP_CHARS` (markup may grow when
 *   sanitised) is refused too. Every refusal, and anything that goes wrong
 *   while a render's answer is made, is that slide's own error: every
 *   render the page asks for gets its answer.
 */
import {
  FRAME_KEY_PARAM,
  IDLE_TIMEOUT_MS,
  MAX_CODE_CHARS,
  MAX_CONCURRENT_RENDERS,
  MAX_ERROR_MESSAGE_CHARS,
  MAX_ERROR_STACK_CHARS,
  MAX_FILE_CHARS,
  MAX_MARKUP_CHARS,
  markupTooLarge,
  MAX_REMOTE_IMAGE_URL,
  MAX_REMOTE_IMAGES,
  MAX_RENDERS_PER_WORKER,
  RENDER_TIMEOUT_MS,
  SLIDE_SCRIPT_PREFIX,
  SLIDE_SCRIPT_SUFFIX,
  START_TIMEOUT_MS,
} from '../limits.js'
import { markupOverLimits, readMarkup } from '../markup.js'
import {
  type FromRenderer,
  type FromWorker,
  RENDER_PROTOCOL,
  type RenderError,
  type ToRenderer,
  type ToWorker,
  type WorkerInit,
  type WorkerStart,
} from '../protocol.js'
import { readableReactError, slidePositionInStack, slidePositionOf } from './errors.js'
import { createSanitizer, type ResourcePolicy } from './sanitize.js'

interface Job {
  id: string
  code: string
  mappings: string
  images: string[]
  init: WorkerInit
  /** Must run in a worker that has rendered nothing yet (a second try, after a failure in a used one). */
  fresh: boolean
}

/** A rendered slide's sanitised markup, or why it is not shown. */
type Sanitised = { markup: { html: string; xhtml: string } } | { refused: RenderError }

/** One of the frame's workers. */
interface RenderWorker {
  worker: Worker
  port: MessagePort
  /** Its own address for React (revoked when it ends). */
  runtimeUrl: string
  /** `ended`: terminated; whatever it still reports is ignored. */
  state: 'starting' | 'idle' | 'busy' | 'settling' | 'ended'
  /** The one-slide worker (no SES, nothing locked): started with the frame, for the first slide asked for (`first`, once it is), ended after it. */
  oneSlide?: { first?: Job }
  /** Renders given to it so far. */
  renders: number
  timer?: ReturnType<typeof setTimeout>
  job?: Job
  /** The address of the slide's script it is rendering. */
  slideUrl?: string
}

/** The worker's script (the slots a loaded script fills, SES, `worker.ts`) and React (`react-runtime.ts`), put in by the build (`scripts/build-client.mjs`). */
declare const __WORKER_SCRIPT__: string
/** The worker's own script without SES: a worker for one slide, fresh, ended after it. */
declare const __ONE_SLIDE_WORKER_SCRIPT__: string
declare const __REACT_SCRIPT__: string

const base = document.baseURI
const origin = new URL(base).origin
/**
 * Where answers go: the emulator's page that framed this one. A published site's page runs in an opaque
 * origin, which no target can name; it framed this document with the emulator's frame key (`?k=`, which
 * only the emulator's pages hold), so the answer goes to the parent whatever its origin.
 */
const pageTarget = new URL(base).searchParams.has(FRAME_KEY_PARAM) ? '*' : origin
/** A slide's script: its transpiled module in the slot the worker reads, as a function that runs when called (the text the emulator checked). */
const SLIDE_PREFIX = SLIDE_SCRIPT_PREFIX
const SLIDE_SUFFIX = SLIDE_SCRIPT_SUFFIX
/** The slide's code begins this many lines into its script. */
const codeOffset = SLIDE_PREFIX.split('\n').length - 1

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max
const scriptUrl = (parts: string[]) => URL.createObjectURL(new Blob(parts, { type: 'text/javascript' }))

/** A request from the page, checked field by field; anything else is ignored. */
function readRequest(data: unknown): ToRenderer | undefined {
  if (!isRecord(data) || data.protocol !== RENDER_PROTOCOL) return undefined
  if (data.type === 'hello') return { protocol: RENDER_PROTOCOL, type: 'hello' }
  if (!text(data.id, 200)) return undefined
  if (data.type === 'cancel') return { protocol: RENDER_PROTOCOL, type: 'cancel', id: data.id }
  if (data.type !== 'render' || !isRecord(data.slide) || !isRecord(data.props)) return undefined
  const { code, mappings, content, controls, images } = data.slide
  if (!text(code, MAX_CODE_CHARS) || !text(mappings, MAX_CODE_CHARS) || !text(content, MAX_FILE_CHARS) || !text(controls, MAX_FILE_CHARS)) {
    return undefined
  }
  if (!Array.isArray(images) || images.length > MAX_REMOTE_IMAGES || !images.every((url) => text(url, MAX_REMOTE_IMAGE_URL)))
    return undefined
  return { protocol: RENDER_PROTOCOL, type: 'render', id: data.id, slide: { code, mappings, content, controls, images }, props: data.props }
}

function start(): void {
  const page = window.parent
  // One sanitiser, made once the one-slide worker has started (see the end); each render's images
  // (those its content names) are set just before it runs.
  const policy: ResourcePolicy = { origin, base, allowed: [] }
  let sanitizer!: ReturnType<typeof createSanitizer>
  const queue: Job[] = []
  const workers = new Set<RenderWorker>()
  /** The locked workers' script, written when the first of them starts (after the one-slide worker). */
  let workerUrl: string | undefined
  /** The one-slide worker while it waits for the first slide asked for (SES and lockdown make the locked workers slow to start); every other slide renders in the locked ones. */
  let oneSlide: RenderWorker | undefined
  const locked = () => [...workers].filter((w) => w.oneSlide === undefined)

  const answer = (message: FromRenderer) => page.postMessage(message, pageTarget)
  const failure = (job: Job, error: RenderError) => answer({ protocol: RENDER_PROTOCOL, type: 'result', id: job.id, ok: false, error })

  function end(w: RenderWorker): void {
    w.state = 'ended'
    clearTimeout(w.timer)
    w.worker.terminate()
    w.port.close()
    URL.revokeObjectURL(w.runtimeUrl)
    if (w.slideUrl !== undefined) URL.revokeObjectURL(w.slideUrl)
    workers.delete(w)
  }

  /**
   * Starts a locked worker if there are fewer than `MAX_CONCURRENT_RENDERS` and no worker is starting:
   * they load while nothing waits for them, one at a time, after the one-slide worker (two starting at
   * once on a busy machine would each take as long as both, and the first slide waits for the first).
   */
  function keepWarm(): void {
    if (locked().length < MAX_CONCURRENT_RENDERS && ![...workers].some((w) => w.state === 'starting')) startWorker()
  }

  /** A worker that could not start: it ends, and so does every render waiting (no new start until the next request). */
  function startFailed(w: RenderWorker, message: string): void {
    end(w)
    if (w === oneSlide) oneSlide = undefined
    if (w.oneSlide?.first !== undefined) failure(w.oneSlide.first, { kind: 'crashed', message })
    for (const job of queue.splice(0)) failure(job, { kind: 'crashed', message })
  }

  /** Starts a locked worker, or (`oneSlideWorker`) the one-slide worker. */
  function startWorker(oneSlideWorker = false): void {
    const runtimeUrl = scriptUrl([__REACT_SCRIPT__])
    const channel = new MessageChannel()
    let worker: Worker
    try {
      worker = new Worker(oneSlideWorker ? scriptUrl([__ONE_SLIDE_WORKER_SCRIPT__]) : (workerUrl ??= scriptUrl([__WORKER_SCRIPT__])), {
        name: 'slide renderer',
      })
    } catch (error) {
      URL.revokeObjectURL(runtimeUrl)
      const message = `The renderer could not start a worker: ${String(error)}`
      for (const job of queue.splice(0)) failure(job, { kind: 'crashed', message })
      return
    }
    const w: RenderWorker = { worker, port: channel.port1, runtimeUrl, state: 'starting', renders: 0 }
    if (oneSlideWorker) {
      w.oneSlide = {}
      oneSlide = w
    }
    workers.add(w)
    w.timer = setTimeout(() => startFailed(w, `The renderer’s worker did not start within ${START_TIMEOUT_MS / 1000} s.`), START_TIMEOUT_MS)
    worker.addEventListener('error', (event) => {
      event.preventDefault()
      if (w.state === 'ended') return
      const reason = String(event.message || 'The component failed outside its render')
        .slice(0, MAX_ERROR_MESSAGE_CHARS)
        .replace(/^Uncaught /, '')
      if (w.state === 'starting') startFailed(w, `The renderer’s worker could not start: ${reason}`)
      else if (w.state === 'busy' && w.job !== undefined) {
        const position = event.filename === w.slideUrl ? slidePositionOf(event.lineno, event.colno, w.job.mappings, codeOffset) : undefined
        settle(w, { ok: false, error: { kind: 'runtime', message: readableReactError(reason), ...position } })
      } else retire(w)
    })
    w.port.addEventListener('messageerror', () => {
      if (w.state === 'ended') return
      if (w.state === 'busy')
        settle(w, { ok: false, error: { kind: 'crashed', message: 'The component sent something that cannot be read.' } })
      else retire(w)
    })
    w.port.addEventListener('message', (event: MessageEvent<FromWorker>) => onWorkerMessage(w, event.data))
    w.port.start()
    worker.postMessage({ runtime: runtimeUrl } satisfies WorkerStart, [channel.port2])
  }

  /** Ends a worker that is not to be used again (no render fails) and starts another in its place. */
  function retire(w: RenderWorker): void {
    end(w)
    keepWarm()
    pump()
  }

  function onWorkerMessage(w: RenderWorker, message: unknown): void {
    if (!isRecord(message) || w.state === 'ended') return
    if (message.type === 'ready' && w.state === 'starting') {
      clearTimeout(w.timer)
      w.state = 'idle'
      if (w.oneSlide?.first !== undefined) assign(w, w.oneSlide.first)
      else pump()
      keepWarm()
    } else if (message.type === 'idle' && w.state === 'settling') {
      clearTimeout(w.timer)
      if (w.renders >= MAX_RENDERS_PER_WORKER) {
        retire(w)
        return
      }
      w.state = 'idle'
      pump()
    } else if (w.state === 'starting' && message.type === 'failed') {
      startFailed(w, `The renderer’s worker could not start: ${String(message.message).slice(0, 500)}`)
    } else if (w.state !== 'busy' || w.job === undefined) {
      return
    } else if (message.type === 'started') {
      clearTimeout(w.timer)
      w.timer = setTimeout(
        () =>
          settle(w, {
            ok: false,
            error: {
              kind: 'timeout',
              message: `The component did not finish within ${RENDER_TIMEOUT_MS / 1000} s, so it was stopped (an endless loop, or far too much work).`,
            },
          }),
        RENDER_TIMEOUT_MS,
      )
    } else if (message.type === 'done') {
      const html: unknown = message.html
      if (typeof html !== 'string') settle(w, { ok: false, error: { kind: 'crashed', message: 'The render gave no markup.' } })
      else if (html.length > MAX_MARKUP_CHARS) settle(w, { ok: false, error: { kind: 'too-large', message: markupTooLarge(html.length) } })
      else {
        // The worker read it too; read again here, before the sanitiser parses it on this frame's one thread.
        const refused = markupOverLimits(readMarkup(html))
        if (refused !== undefined) settle(w, { ok: false, error: { kind: 'too-large', message: refused } })
        else settle(w, { ok: true, ...sanitised(html, w.job.images) })
      }
    } else if (message.type === 'failed') {
      const kinds = ['import', 'no-default-export', 'too-large', 'crashed'] as const
      const kind = kinds.find((known) => known === message.kind) ?? 'runtime'
      const stack = typeof message.stack === 'string' ? message.stack.slice(0, MAX_ERROR_STACK_CHARS) : ''
      const position = slidePositionInStack(stack, w.slideUrl ?? '', w.job.mappings, codeOffset)
      settle(w, {
        ok: false,
        error: { kind, message: readableReactError(String(message.message).slice(0, MAX_ERROR_MESSAGE_CHARS)), ...position },
      })
    }
  }

  /**
   * A rendered slide's markup, sanitised (as HTML and as XHTML), or why it is not shown: over
   * `MAX_MARKUP_CHARS` once written out, or anything the sanitiser could not do. Either is the slide's own
   * outcome (its worker did its part), never a render left without an answer.
   */
  function sanitised(html: string, images: string[]): Sanitised {
    let markup: { html: string; xhtml: string }
    try {
      policy.allowed = images
      markup = sanitizer.toMarkup(html)
    } catch (error) {
      return { refused: { kind: 'crashed', message: `The component's markup could not be sanitised: ${String(error).slice(0, 500)}` } }
    }
    if (markup.html.length > MAX_MARKUP_CHARS)
      return { refused: { kind: 'too-large', message: markupTooLarge(markup.html.length, 'sanitised') } }
    if (markup.xhtml.length > MAX_MARKUP_CHARS)
      return { refused: { kind: 'too-large', message: markupTooLarge(markup.xhtml.length, 'picture') } }
    return { markup }
  }

  /**
   * A render's outcome: answered (or tried again in a fresh worker); a failed worker ends, one that finished
   * its render (`ok`, its markup shown or refused) settles before its next render.
   */
  function settle(w: RenderWorker, result: ({ ok: true } & Sanitised) | { ok: false; error: RenderError }): void {
    const job = w.job!
    clearTimeout(w.timer)
    w.job = undefined
    URL.revokeObjectURL(w.slideUrl!)
    w.slideUrl = undefined
    const reply = (done: Sanitised) => {
      if ('markup' in done) answer({ protocol: RENDER_PROTOCOL, type: 'result', id: job.id, ok: true, ...done.markup })
      else failure(job, done.refused)
    }
    if (w.oneSlide !== undefined) {
      // Its slide ran alone in it: a failure is that slide's own.
      end(w)
      reply(result.ok ? result : { refused: result.error })
      pump()
      return
    }
    if (result.ok) {
      reply(result)
      w.state = 'settling'
      w.timer = setTimeout(() => retire(w), IDLE_TIMEOUT_MS)
      return
    }
    const used = w.renders > 1
    end(w)
    // In a worker that rendered another slide first, a failure may not be this slide's own: once more, in a fresh worker.
    if (used && !job.fresh) queue.unshift({ ...job, fresh: true })
    else failure(job, result.error)
    keepWarm()
    pump()
  }

  function assign(w: RenderWorker, job: Job): void {
    w.state = 'busy'
    w.job = job
    w.renders++
    w.slideUrl = scriptUrl([SLIDE_PREFIX, job.code, SLIDE_SUFFIX])
    w.timer = setTimeout(
      () =>
        settle(w, {
          ok: false,
          error: { kind: 'crashed', message: `The renderer's worker did not start the component within ${START_TIMEOUT_MS / 1000} s.` },
        }),
      START_TIMEOUT_MS,
    )
    w.port.postMessage({ script: w.slideUrl, init: job.init } satisfies ToWorker)
  }

  /** A locked worker that can take a render now. */
  function idleWorker(fresh: boolean): RenderWorker | undefined {
    for (const w of workers) if (w.oneSlide === undefined && w.state === 'idle' && (!fresh || w.renders === 0)) return w
    return undefined
  }

  /** Gives waiting renders, in order, to idle workers. */
  function pump(): void {
    while (queue.length > 0) {
      const job = queue[0]!
      if (oneSlide !== undefined) {
        // The first slide does not wait for SES and lockdown: it runs alone in the worker started for it.
        const w = oneSlide
        oneSlide = undefined
        w.oneSlide = { first: job }
        queue.shift()
        if (w.state === 'idle') assign(w, job)
        continue
      }
      const w = idleWorker(job.fresh)
      if (w === undefined) {
        // A second try needs a worker that has rendered nothing: unless one is starting, an idle used one makes room for it.
        const starting = locked().some((candidate) => candidate.state === 'starting')
        const used = job.fresh && !starting ? idleWorker(false) : undefined
        if (used !== undefined) end(used)
        keepWarm()
        return
      }
      queue.shift()
      assign(w, job)
    }
  }

  window.addEventListener('message', (event) => {
    if (event.source !== page) return
    const request = readRequest(event.data)
    if (request === undefined) return
    if (request.type === 'hello') {
      answer({ protocol: RENDER_PROTOCOL, type: 'ready' })
      return
    }
    if (request.type === 'cancel') {
      const at = queue.findIndex((job) => job.id === request.id)
      if (at !== -1) queue.splice(at, 1)
      return
    }
    queue.push({
      id: request.id,
      code: request.slide.code,
      mappings: request.slide.mappings,
      images: request.slide.images,
      init: { content: request.slide.content, controls: request.slide.controls, props: request.props },
      fresh: false,
    })
    pump()
  })
  // The one-slide worker first (it loads React before any slide comes), then the locked ones, one at a
  // time; what else the frame needs is made while it starts.
  startWorker(true)
  sanitizer = createSanitizer(policy)
  answer({ protocol: RENDER_PROTOCOL, type: 'ready' })
}

if (window.parent === window) {
  document.body.textContent =
    'This is the emulator’s slide renderer: the editor and the published sites run slides in it. Opened on its own, it does nothing.'
} else {
  start()
}
