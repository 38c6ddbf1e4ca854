/**
 * The renderer frame (`/_emulator/assets/render/renderer.html`, loaded by a
 * page in `<iframe sandbox="allow-scripts">`, and sandboxed by its own CSP
 * when opened directly): it runs components, one fresh worker per render,
 * and answers the page with sanitised markup or an error.
 *
 * - It takes requests only from the page that framed it (`event.source`)
 *   and answers only that page, on the emulator's origin.
 * - Each render gets a new dedicated worker, started from a `blob:` script
 *   this frame writes: React and the worker's own start (`worker.ts`),
 *   which this script carries as text, then the slide's transpiled code
 *   wrapped in a function that runs when called. The worker inherits the
 *   frame's CSP: its scripts allowed only by their hash, so it can load no
 *   other script (`importScripts`, `import()`) and connect nowhere.
 * - A render answers on its own `MessagePort`. Its clock starts when the
 *   worker says it has started the slide's code: after
 *   `RENDER_TIMEOUT_MS`, or on any failure, the worker is ended.
 * - At most `MAX_CONCURRENT_RENDERS` run at once; the rest wait in order.
 * - Markup over `MAX_MARKUP_CHARS` is refused unread; the rest is
 *   sanitised before it leaves the frame, as HTML (for a display frame)
 *   and as XHTML (for the slide's picture).
 */
import {
  MAX_CODE_CHARS,
  MAX_CONCURRENT_RENDERS,
  MAX_FILE_CHARS,
  MAX_MARKUP_CHARS,
  MAX_REMOTE_IMAGE_URL,
  MAX_REMOTE_IMAGES,
  RENDER_TIMEOUT_MS,
  START_TIMEOUT_MS,
} from '../limits.js'
import { type FromRenderer, type FromWorker, RENDER_PROTOCOL, type RenderError, type ToRenderer, type WorkerInit } from '../protocol.js'
import { readableReactError, slidePositionInStack, slidePositionOf } from './errors.js'
import { createSanitizer, type ResourcePolicy } from './sanitize.js'

interface Job {
  id: string
  code: string
  mappings: string
  images: string[]
  init: WorkerInit
}

/** React and the worker's start (`react-runtime.ts`, `worker.ts`), put in by the build (`scripts/build-client.mjs`). */
declare const __WORKER_PRELUDE__: string

const base = document.baseURI
const origin = new URL(base).origin
/** Every worker's script starts with the prelude; the slide's code begins this many lines further on. */
const prelude = `${__WORKER_PRELUDE__}\nself.__slideModule = function (exports, require, module, __impMeta__) { return (async () => {\n`
const codeOffset = prelude.split('\n').length - 1

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max

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
  // One sanitiser; each render's remote images (its content's, with --allow-remote-images) are set just before it runs.
  const policy: ResourcePolicy = { origin, base, allowed: [] }
  const sanitizer = createSanitizer(policy)
  const queue: Job[] = []
  let running = 0

  const answer = (message: FromRenderer) => page.postMessage(message, origin)

  function failure(job: Job, error: RenderError): void {
    answer({ protocol: RENDER_PROTOCOL, type: 'result', id: job.id, ok: false, error })
  }

  function run(job: Job): void {
    running++
    const url = URL.createObjectURL(new Blob([prelude, job.code, '\n})() };\n'], { type: 'text/javascript' }))
    const channel = new MessageChannel()
    let worker: Worker
    let timer: ReturnType<typeof setTimeout> | undefined
    let finished = false
    const finish = (result: { ok: true; html: string; xhtml: string } | { ok: false; error: RenderError }) => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      worker?.terminate()
      channel.port1.close()
      URL.revokeObjectURL(url)
      if (result.ok) answer({ protocol: RENDER_PROTOCOL, type: 'result', id: job.id, ok: true, html: result.html, xhtml: result.xhtml })
      else failure(job, result.error)
      running--
      pump()
    }
    const fail = (error: RenderError) => finish({ ok: false, error })
    try {
      worker = new Worker(url, { name: `slide render ${job.id}` })
    } catch (error) {
      fail({ kind: 'crashed', message: `The renderer could not start a worker: ${String(error)}` })
      return
    }
    timer = setTimeout(
      () => fail({ kind: 'crashed', message: `The renderer's worker did not start within ${START_TIMEOUT_MS / 1000} s.` }),
      START_TIMEOUT_MS,
    )
    worker.addEventListener('error', (event) => {
      event.preventDefault()
      const position = event.filename === url ? slidePositionOf(event.lineno, event.colno, job.mappings, codeOffset) : undefined
      fail({
        kind: 'runtime',
        message: readableReactError(String(event.message || 'The component failed outside its render')).replace(/^Uncaught /, ''),
        ...position,
      })
    })
    channel.port1.addEventListener('messageerror', () =>
      fail({ kind: 'crashed', message: 'The component sent something that cannot be read.' }),
    )
    channel.port1.addEventListener('message', (event: MessageEvent<FromWorker>) => {
      const message: unknown = event.data
      if (!isRecord(message)) return
      if (message.type === 'started') {
        clearTimeout(timer)
        timer = setTimeout(
          () =>
            fail({
              kind: 'timeout',
              message: `The component did not finish within ${RENDER_TIMEOUT_MS / 1000} s, so it was stopped (an endless loop, or far too much work).`,
            }),
          RENDER_TIMEOUT_MS,
        )
      } else if (message.type === 'done') {
        const html: unknown = message.html
        if (typeof html !== 'string') fail({ kind: 'crashed', message: 'The render gave no markup.' })
        else if (html.length > MAX_MARKUP_CHARS) {
          fail({
            kind: 'too-large',
            message: `The component's markup is ${html.length.toLocaleString('en')} characters, over the ${MAX_MARKUP_CHARS.toLocaleString('en')} a slide may have, so it is not shown.`,
          })
        } else {
          policy.allowed = job.images
          finish({ ok: true, html: sanitizer.toString(html), xhtml: sanitizer.toXhtml(html) })
        }
      } else if (message.type === 'failed') {
        const kind = message.kind === 'import' || message.kind === 'no-default-export' ? message.kind : 'runtime'
        const stack = typeof message.stack === 'string' ? message.stack.slice(0, 20_000) : ''
        const position = slidePositionInStack(stack, url, job.mappings, codeOffset)
        fail({ kind, message: readableReactError(String(message.message).slice(0, 2_000)), ...position })
      }
    })
    channel.port1.start()
    worker.postMessage(job.init, [channel.port2])
  }

  function pump(): void {
    while (running < MAX_CONCURRENT_RENDERS && queue.length > 0) run(queue.shift()!)
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
    })
    pump()
  })
  answer({ protocol: RENDER_PROTOCOL, type: 'ready' })
}

if (window.parent === window) {
  document.body.textContent =
    'This is the emulator’s slide renderer: the editor and the published sites run slides in it. Opened on its own, it does nothing.'
} else {
  start()
}
