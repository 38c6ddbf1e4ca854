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
import type { FromWorker, ToWorker, WorkerStart } from '../protocol.js'
import { describe, lockTheWorld, pinnedIntact, type Runtime, runSlide, type SlideModule } from './slide-world.js'

// The slots a loaded script fills (declared with `let` at the top of the worker's script, outside this bundle).
declare let __slideRuntime: Runtime | undefined
declare let __slideModule: SlideModule | undefined

// biome-ignore lint/suspicious/noExplicitAny: the worker's global scope, changed below
const scope = self as any
const apply = Reflect.apply
const prototypeOf = Object.getPrototypeOf
const portPost = MessagePort.prototype.postMessage
const portStart = MessagePort.prototype.start
const addListener = EventTarget.prototype.addEventListener
const loadScript = scope.importScripts as (url: string) => void
const later = scope.setTimeout as (callback: () => void, ms: number) => number
/** The engine's own `Error` (taken before lockdown). */
const ErrorType = Error
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
  post(await runSlide(runtime, slideModule, message.init, () => post({ type: 'started' })))
}

// Nothing of a slide runs before the world is locked (or, in a one-slide worker, before its reach is cut).
if (locked) lockTheWorld(lockdown!)
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
