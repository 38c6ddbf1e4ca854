/**
 * A render worker's own script. The renderer frame starts each worker from
 * a `blob:` script of: the two slots below, SES (`worker-locked.ts`), then
 * this. A worker renders one slide after another, each with a React of its
 * own, in a world no slide can change (without SES, for the first slide
 * while the locked workers warm, it removes the network and storage APIs,
 * loads React before the slide comes, renders that one slide with it and
 * is ended):
 *
 * 1. Before any slide code, it takes what it needs later (`importScripts`,
 *    a port's `postMessage`, `JSON.parse`, `setTimeout`, …), then
 *    - removes from the global scope every name that is not the language's
 *      own (SES's `lockdown` freezes those) or on `KEPT`: the network and
 *      storage APIs, timers, workers, `MessagePort`, `URL`'s blob methods
 *      and the rest. The frame's Content-Security-Policy already refuses
 *      every connection (the boundary); this keeps a slide from even
 *      trying, and leaves it nothing shared that it could change;
 *    - runs SES's `lockdown()`: every intrinsic (`Array.prototype`,
 *      `Object.prototype`, `JSON`, `String.prototype`, the hidden ones) is
 *      frozen;
 *    - freezes what is kept and the global object itself (`harden`).
 * 2. It takes its one global message: the port to talk on and the address
 *    of its React script, which it loads once (later loads of the same
 *    script reuse V8's compiled code), and says `ready`.
 * 3. For each render (a message on the port): it loads a fresh React (no
 *    slide sees another's React, whose objects are not frozen) and the
 *    slide's script, which puts the transpiled module in `__slideModule`;
 *    says `started` (the frame's 2 s clock starts); runs the module with a
 *    `require` that gives only `react`, `react/jsx-runtime` and the slide's
 *    two JSON files; renders its default export with `renderToStaticMarkup`
 *    (hooks give their initial state; effects and handlers never run); and
 *    posts the markup or what went wrong. Then, from a task of its own, it
 *    says `idle`: a slide that left work running (an endless chain of
 *    promises, say) never lets that happen, and the frame ends the worker.
 *
 * The frame ends a worker on any failure and after `MAX_RENDERS_PER_WORKER`
 * renders, and renders a slide that failed in a worker that had rendered
 * before once more in a fresh one: a slide's own failure is the one it
 * has alone (`docs/decisions/0202-render-sandbox.md`).
 */
import { MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_STACK_CHARS, MAX_MARKUP_CHARS, markupTooLarge, SLIDE_IMPORTS } from '../limits.js'
import { markupOverLimits, readMarkup } from '../markup.js'
import type { FromWorker, ToWorker, WorkerStart } from '../protocol.js'

interface Runtime {
  React: { createElement(type: unknown, props: unknown, ...children: unknown[]): unknown }
  jsxRuntime: unknown
  renderToStaticMarkup(element: unknown): string
}

type SlideModule = (
  exports: Record<string, unknown>,
  require: (name: string) => unknown,
  module: { exports: unknown },
  meta: object,
) => Promise<void>

// The slots a loaded script fills (declared with `let` at the top of the worker's script, outside this bundle).
declare let __slideRuntime: Runtime | undefined
declare let __slideModule: SlideModule | undefined

/** Web APIs a slide keeps (frozen): text, encoding and numbers helpers that hold no state and reach nothing. */
const KEPT = new Set<PropertyKey>([
  'console',
  'TextEncoder',
  'TextDecoder',
  'atob',
  'btoa',
  'queueMicrotask',
  'structuredClone',
  'DOMException',
])

// biome-ignore lint/suspicious/noExplicitAny: the worker's global scope, changed below
const scope = self as any
const apply = Reflect.apply
const ownKeys = Reflect.ownKeys
const describeProperty = Object.getOwnPropertyDescriptor
const prototypeOf = Object.getPrototypeOf
const isFrozen = Object.isFrozen
const portPost = MessagePort.prototype.postMessage
const portStart = MessagePort.prototype.start
const addListener = EventTarget.prototype.addEventListener
const loadScript = scope.importScripts as (url: string) => void
const later = scope.setTimeout as (callback: () => void, ms: number) => number
const parseJson = JSON.parse
const StringOf = String
const sliceOf = String.prototype.slice
/** At most `max` code units of `text` (with the slice taken before any slide code: a one-slide worker's slide may change `String.prototype`). */
const bounded = (text: string, max: number): string => (text.length <= max ? text : apply(sliceOf, text, [0, max]))
/** The engine's own `Error` (taken before lockdown, which puts a tamed one of its own on the global object in its place). */
const ErrorType = Error as ErrorConstructor & { stackTraceLimit?: unknown; prepareStackTrace?: unknown }
const defineProperty = Object.defineProperty
const freeze = Object.freeze
const lockdown = scope.lockdown as ((options: Record<string, string>) => void) | undefined
/** With SES loaded before it (`worker-locked.ts`), the worker locks its world and renders slide after slide; without, it renders one slide, fresh, and is ended. */
const locked = typeof lockdown === 'function'

/** What a one-slide worker removes: every network and storage API, its global `postMessage`, loading scripts, starting workers. */
const REMOVED = [
  'postMessage',
  'onmessage',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'importScripts',
  'Worker',
  'SharedWorker',
  'BroadcastChannel',
  'indexedDB',
  'caches',
  'cookieStore',
  'WebTransport',
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'FileSystemHandle',
  'storageBuckets',
]

/** A one-slide worker's scope: the network, storage and worker APIs removed (nothing outlives its one slide). */
function removeReach(): void {
  for (const name of REMOVED) {
    for (let target = scope; target !== null; target = prototypeOf(target)) {
      if (Object.hasOwn(target, name)) {
        try {
          delete target[name]
        } catch {
          // Not configurable: the frame's CSP still refuses it.
        }
      }
    }
  }
}

/** SES's own globals: used once, before any slide code. */
const SES_GLOBALS = ['lockdown', 'harden', 'Compartment', 'assert', 'repairIntrinsics', 'hardenIntrinsics', 'HandledPromise']

/** Every own property of the global object and its prototypes (EventTarget's, Object's). */
function* globalProperties(): Generator<[object, PropertyKey, PropertyDescriptor]> {
  for (let target = scope; target !== null; target = prototypeOf(target)) {
    for (const key of ownKeys(target)) {
      const descriptor = describeProperty(target, key)
      if (descriptor !== undefined) yield [target, key, descriptor]
    }
  }
}

const propertyValue = (descriptor: PropertyDescriptor): unknown => {
  if (descriptor.get === undefined) return descriptor.value
  try {
    return apply(descriptor.get, scope, [])
  } catch {
    return undefined
  }
}

const isObject = (value: unknown): value is object => (typeof value === 'object' && value !== null) || typeof value === 'function'

/** Removes what SES's `lockdown` did not freeze and a slide does not keep; freezes the intrinsics, what is kept and the global object. */
function lockTheWorld(): void {
  lockdown!({
    errorTaming: 'unsafe',
    errorTrapping: 'none',
    unhandledRejectionTrapping: 'none',
    reporting: 'none',
    stackFiltering: 'verbose',
    overrideTaming: 'moderate',
    consoleTaming: 'unsafe',
    localeTaming: 'unsafe',
    regExpTaming: 'unsafe',
    domainTaming: 'unsafe',
    evalTaming: 'no-eval',
  })
  // Put on the global object by lockdown.
  const harden = scope.harden as <T>(value: T) => T
  for (const [target, key, descriptor] of [...globalProperties()]) {
    if (target === Object.prototype) continue
    const value = propertyValue(descriptor)
    // The language's own (frozen by lockdown), the global object itself (frozen last) and what a slide keeps stay.
    if (KEPT.has(key) || value === scope || (isObject(value) && isFrozen(value)) || (!isObject(value) && descriptor.get === undefined))
      continue
    try {
      delete (target as Record<PropertyKey, unknown>)[key]
    } catch {
      // Not configurable: frozen below with the rest.
    }
  }
  for (const name of SES_GLOBALS) {
    try {
      delete scope[name]
    } catch {
      // Not configurable: frozen below.
    }
  }
  for (const key of KEPT) {
    const value: unknown = scope[key]
    if (isObject(value)) harden(value)
  }
  harden(scope)
  pinErrorStacks(harden)
}

/** What `pinErrorStacks` kept, checked before each render (`pinnedIntact`). */
let pinned: { error: unknown; stackTraceLimit: unknown; prepareStackTrace: unknown } | undefined

/**
 * Lockdown freezes every intrinsic, but with `errorTaming: 'unsafe'` (which keeps `error.stack`, so that
 * a thrown error's slide.tsx line and column can be shown) the `Error` it gives a slide keeps setters for
 * `Error.stackTraceLimit` and `Error.prepareStackTrace`, which write to the engine's own `Error`, hidden
 * and not frozen: one slide's `Error.prepareStackTrace = () => "…"` or `Error.stackTraceLimit = 0` would
 * be every later slide's stack. That `Error` is frozen now, its two values pinned as they are after
 * lockdown (and the formatter a slide reads, SES's own, frozen): an assignment throws, as on any frozen
 * object. (`Error.captureStackTrace` is a frozen data
 * property of the tamed `Error`; it writes only to the object it is given.)
 */
function pinErrorStacks(harden: <T>(value: T) => T): void {
  const stackTraceLimit = ErrorType.stackTraceLimit
  // SES's own formatter, which a slide reads as `Error.prepareStackTrace`: frozen too, like everything else a slide can reach.
  const prepareStackTrace = harden(ErrorType.prepareStackTrace)
  defineProperty(ErrorType, 'stackTraceLimit', { value: stackTraceLimit, writable: false, configurable: false })
  defineProperty(ErrorType, 'prepareStackTrace', { value: prepareStackTrace, writable: false, configurable: false })
  freeze(ErrorType)
  pinned = { error: scope.Error, stackTraceLimit, prepareStackTrace }
}

/** Whether what a locked worker pinned is as it was: checked before each render, so a change (there should be none) never reaches a slide. */
function pinnedIntact(): boolean {
  return (
    pinned !== undefined &&
    isFrozen(scope) &&
    isFrozen(ErrorType) &&
    scope.Error === pinned.error &&
    ErrorType.stackTraceLimit === pinned.stackTraceLimit &&
    ErrorType.prepareStackTrace === pinned.prepareStackTrace
  )
}

class SlideImportError extends ErrorType {
  constructor(specifier: string) {
    super(`slide.tsx imports "${specifier}", which a slide cannot use. A slide may import only: ${SLIDE_IMPORTS.join(', ')}.`)
    this.name = 'SlideImportError'
  }
}

/** What went wrong, as text of a bounded size: a component may throw an error whose message or stack is any size (or a getter). */
function describe(error: unknown): { message: string; stack: string } {
  try {
    if (error instanceof ErrorType) {
      return {
        message: bounded(StringOf(error.message), MAX_ERROR_MESSAGE_CHARS),
        stack: bounded(StringOf(error.stack ?? ''), MAX_ERROR_STACK_CHARS),
      }
    }
    return { message: bounded(`The component threw ${StringOf(error)}`, MAX_ERROR_MESSAGE_CHARS), stack: '' }
  } catch {
    return { message: 'The component threw something that cannot be shown as text', stack: '' }
  }
}

/** Loads a fresh React from the worker's React script. */
function freshRuntime(url: string): Runtime {
  __slideRuntime = undefined
  apply(loadScript, scope, [url])
  // (Filled by the script just loaded: read again, not narrowed.)
  const runtime = __slideRuntime as Runtime | undefined
  __slideRuntime = undefined
  if (runtime === undefined) throw new ErrorType('React did not load')
  return runtime
}

/** A one-slide worker's React, loaded before its slide came (no slide has seen it). */
let preloaded: Runtime | undefined

async function render(start: WorkerStart, message: ToWorker, post: (message: FromWorker) => void): Promise<void> {
  if (locked && !pinnedIntact()) {
    // Not this slide's doing (it has not run): the frame renders it again in a fresh worker.
    post({ type: 'failed', kind: 'crashed', message: 'The worker’s locked world changed since it started.', stack: '' })
    return
  }
  let runtime: Runtime
  let slideModule: SlideModule | undefined
  try {
    runtime = preloaded ?? freshRuntime(start.runtime)
    preloaded = undefined
    __slideModule = undefined
    apply(loadScript, scope, [message.script])
    slideModule = __slideModule as SlideModule | undefined
    __slideModule = undefined
  } catch (error) {
    post({ type: 'failed', kind: 'crashed', ...describe(error) })
    return
  }
  const init = message.init
  const json = { content: undefined as unknown, controls: undefined as unknown }
  const require = (specifier: string): unknown => {
    switch (specifier) {
      case 'react':
        return runtime.React
      case 'react/jsx-runtime':
        return runtime.jsxRuntime
      case './slide.content.json':
        json.content ??= parseJson(init.content)
        return json.content
      case './slide.controls.json':
        json.controls ??= parseJson(init.controls)
        return json.controls
      default:
        throw new SlideImportError(StringOf(specifier))
    }
  }
  const exports: Record<string, unknown> = {}
  const module = { exports: exports as unknown }
  post({ type: 'started' })
  try {
    if (slideModule === undefined) throw new ErrorType('The slide’s script did not load')
    await slideModule(exports, require, module, { url: 'slide.tsx' })
    const loaded = module.exports as Record<string, unknown> | undefined
    const component = loaded?.default
    if (component === undefined || component === null) {
      post({
        type: 'failed',
        kind: 'no-default-export',
        message: 'slide.tsx has no default export to render; export the component with `export default function Slide() {…}`.',
        stack: '',
      })
      return
    }
    const html = StringOf(runtime.renderToStaticMarkup(runtime.React.createElement(component, init.props)))
    // Markup over a limit never leaves the worker: the slide shows why instead (read here, on the slide's clock).
    if (html.length > MAX_MARKUP_CHARS) {
      post({ type: 'failed', kind: 'too-large', message: markupTooLarge(html.length), stack: '' })
      return
    }
    const refused = markupOverLimits(readMarkup(html))
    if (refused !== undefined) post({ type: 'failed', kind: 'too-large', message: refused, stack: '' })
    else post({ type: 'done', html })
  } catch (error) {
    post({ type: 'failed', kind: error instanceof SlideImportError ? 'import' : 'runtime', ...describe(error) })
  }
}

// Nothing of a slide runs before the world is locked (or, in a one-slide worker, before its reach is cut).
if (locked) lockTheWorld()
else removeReach()

apply(addListener, scope, [
  'message',
  (event: MessageEvent<WorkerStart>) => {
    // The first listener: no other sees this message, or the port in it.
    event.stopImmediatePropagation()
    const port = event.ports[0]
    const start = event.data
    if (port === undefined || typeof start?.runtime !== 'string') return
    const post = (message: FromWorker) => {
      apply(portPost, port, [message])
    }
    let busy = false
    apply(addListener, port, [
      'message',
      (message: MessageEvent<ToWorker>) => {
        if (busy) return
        busy = true
        void render(start, message.data, post).then(() => {
          // A one-slide worker renders nothing more (the frame ends it).
          if (!locked) return
          // From a task of its own: a slide that left work running never lets this happen.
          apply(later, scope, [() => post({ type: 'idle' }), 0])
          busy = false
        })
      },
    ])
    apply(portStart, port, [])
    try {
      // Loaded and run once now, before any slide comes: a one-slide worker renders its slide with this
      // React; in a locked worker, each render's fresh React reuses the compiled script and render path.
      const warm = freshRuntime(start.runtime)
      const h = warm.React.createElement
      warm.renderToStaticMarkup(h('section', { className: 'slide', style: { color: 'red' } }, h('h1', null, 'Warm'), h('p', null, 1)))
      if (!locked) preloaded = warm
      post({ type: 'ready' })
    } catch (error) {
      post({ type: 'failed', kind: 'crashed', ...describe(error) })
    }
  },
  { once: true },
])
