/**
 * The start of every render's worker (carried as text by the renderer
 * frame's script, which puts it in each worker's `blob:` script), run right
 * after React and before the slide's code, which the renderer frame puts
 * after it in the worker's script as `self.__slideModule` (a function that
 * runs the transpiled module and does not run until called).
 *
 * Before any slide code runs it:
 * - takes React from `self.__slideRuntime` and what it needs later
 *   (`postMessage` of a port, `JSON.parse`, `Reflect.apply`);
 * - removes the worker's global `postMessage` and every network and
 *   storage API (`fetch`, `XMLHttpRequest`, `WebSocket`, `EventSource`,
 *   `importScripts`, `Worker`, `indexedDB`, …) from the global scope: the
 *   frame's Content-Security-Policy already refuses them (the boundary);
 *   this keeps a component from even trying;
 * - waits for its one message: the slide's files, its props, and the
 *   `MessagePort` to answer on, kept in this closure. A component can
 *   neither post on it nor reach another render (each has its own worker).
 *
 * Then it says `started` (the frame's 2 s clock starts), runs the module
 * with a `require` that gives only `react`, `react/jsx-runtime` and the
 * slide's two JSON files, renders the default export with
 * `renderToStaticMarkup` (hooks give their initial state; effects and
 * handlers never run) and posts the markup, or what went wrong.
 */
import type { FromWorker, WorkerInit } from '../protocol.js'
import { SLIDE_IMPORTS } from '../limits.js'

interface Runtime {
  React: { createElement(type: unknown, props: unknown): unknown }
  jsxRuntime: unknown
  renderToStaticMarkup(element: unknown): string
}

type SlideModule = (
  exports: Record<string, unknown>,
  require: (name: string) => unknown,
  module: { exports: unknown },
  meta: object,
) => Promise<void>

// biome-ignore lint/suspicious/noExplicitAny: the worker's global scope, changed below
const scope = self as any
const runtime = scope.__slideRuntime as Runtime
delete scope.__slideRuntime

const apply = Reflect.apply
const portPost = MessagePort.prototype.postMessage
const parseJson = JSON.parse
const addListener = EventTarget.prototype.addEventListener
const StringOf = String
const ErrorType = Error

/** Global names a component never gets (deleted from the global object and its prototypes). */
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
for (const name of REMOVED) {
  for (let target = scope; target !== null; target = Object.getPrototypeOf(target)) {
    if (Object.hasOwn(target, name)) {
      try {
        delete target[name]
      } catch {
        // Not configurable: the frame's CSP still refuses it.
      }
    }
  }
}

class SlideImportError extends ErrorType {
  constructor(specifier: string) {
    super(`slide.tsx imports "${specifier}", which a slide cannot use. A slide may import only: ${SLIDE_IMPORTS.join(', ')}.`)
    this.name = 'SlideImportError'
  }
}

function describe(error: unknown): { message: string; stack: string } {
  try {
    if (error instanceof ErrorType) return { message: StringOf(error.message), stack: StringOf(error.stack ?? '') }
    return { message: `The component threw ${StringOf(error)}`, stack: '' }
  } catch {
    return { message: 'The component threw something that cannot be shown as text', stack: '' }
  }
}

async function render(init: WorkerInit, post: (message: FromWorker) => void): Promise<void> {
  const slideModule = scope.__slideModule as SlideModule
  delete scope.__slideModule
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
    const html = runtime.renderToStaticMarkup(runtime.React.createElement(component, init.props))
    post({ type: 'done', html: StringOf(html) })
  } catch (error) {
    post({ type: 'failed', kind: error instanceof SlideImportError ? 'import' : 'runtime', ...describe(error) })
  }
}

apply(addListener, scope, [
  'message',
  (event: MessageEvent<WorkerInit>) => {
    // The first listener: no other sees this message, or the port in it.
    event.stopImmediatePropagation()
    const port = event.ports[0]
    if (port === undefined) return
    const post = (message: FromWorker) => {
      apply(portPost, port, [message])
    }
    void render(event.data, post)
  },
  { once: true },
])
