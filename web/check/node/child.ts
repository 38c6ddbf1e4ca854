/**
 * The Node slide checker's process: a render worker (`web/render/client/
 * worker.ts`) for Node. `checker.ts` starts it with an empty environment,
 * Node's permission model (no file read or write, no child process, no
 * worker thread), code generation from strings refused and a heap ceiling,
 * and writes this script (bundled with SES, parse5 and React's text by
 * `scripts/build-client.mjs`) to its standard input. Before any slide code,
 * it takes what it needs of Node (its IPC channel, `vm.Script`,
 * `setImmediate`), gives the global scope a console that writes nowhere,
 * and locks the world exactly as a locked worker does (`lockTheWorld`,
 * `slide-world.ts`): SES's `lockdown()`, every name that is not the
 * language's own or kept removed (`process`, `require`, `Buffer`, `fetch`,
 * timers, `WebAssembly`, …), the global object frozen, `Error`'s stack
 * settings pinned.
 *
 * For each render it loads a fresh React (React's script, compiled once,
 * run again), compiles the slide's script (the transpiled module between
 * the renderer's own prefix and suffix, so its lines are the worker's),
 * says `started` (the 2 s clock starts in the emulator's process), runs the
 * render step the worker runs (`runSlide`), and says `rendered` (the clock
 * stops) before it reads what a reader sees of the markup
 * (`read-markup.ts`). Then, from a task of its own, `idle`: a slide that
 * left work running never lets that happen, and the emulator ends this
 * process.
 */
import 'ses'
import vm from 'node:vm'
import { SLIDE_SCRIPT_PREFIX, SLIDE_SCRIPT_SUFFIX } from '../../render/limits.js'
import type { WorkerInit } from '../../render/protocol.js'
import { describe, lockTheWorld, pinnedIntact, type Runtime, runSlide, type SlideModule } from '../../render/client/slide-world.js'
import type { FromChecker, ToChecker } from './protocol.js'
import { SLIDE_SCRIPT_NAME } from './protocol.js'
import { readRenderedMarkup } from './read-markup.js'

/** React's script (`web/render/client/react-runtime.ts`, bundled as the browser's workers load it), put in by the build. */
declare const __REACT_SCRIPT__: string

// biome-ignore lint/suspicious/noExplicitAny: the global scope, changed below
const scope = globalThis as any
const apply = Reflect.apply
const nodeProcess = process
const send = nodeProcess.send?.bind(nodeProcess)
const later = setImmediate
const Script = vm.Script
const defineProperty = Object.defineProperty
const describeProperty = Object.getOwnPropertyDescriptor
const StringOf = String

if (send === undefined) throw new Error('the slide checker runs only as a child with an IPC channel')
const post = (message: FromChecker) => {
  send(message)
}

/** React's script as a function that runs it: each call is a fresh React. */
const loadReact = new Script(`(function () { let __slideRuntime;\n${__REACT_SCRIPT__}\nreturn __slideRuntime })`, {
  filename: 'slide-check:///react.js',
}).runInThisContext() as () => Runtime | undefined

function freshRuntime(): Runtime {
  const runtime = loadReact()
  if (runtime === undefined) throw new Error('React did not load')
  return runtime
}

/**
 * A slide's script, compiled: its code begins on line 2, as in the worker's (`SLIDE_SCRIPT_PREFIX`). The
 * two slots a worker's scripts share are bindings of the slide's own here (a slide that writes them
 * changes nothing, as in a worker, where they are emptied before each use).
 */
function slideModuleOf(code: string): SlideModule | undefined {
  const script = new Script(
    `(function () { let __slideRuntime, __slideModule; ${SLIDE_SCRIPT_PREFIX}${code}${SLIDE_SCRIPT_SUFFIX}return __slideModule })`,
    {
      filename: SLIDE_SCRIPT_NAME,
    },
  )
  return (script.runInThisContext() as () => SlideModule | undefined)()
}

/** The console a slide gets: every method of the browser's, writing nowhere (the checker's output is its IPC channel alone). */
const CONSOLE_METHODS = [
  'assert',
  'clear',
  'count',
  'countReset',
  'debug',
  'dir',
  'dirxml',
  'error',
  'group',
  'groupCollapsed',
  'groupEnd',
  'info',
  'log',
  'profile',
  'profileEnd',
  'table',
  'time',
  'timeEnd',
  'timeLog',
  'timeStamp',
  'trace',
  'warn',
]
const quietConsole: Record<string, () => void> = {}
for (const name of CONSOLE_METHODS) quietConsole[name] = () => {}
defineProperty(scope, 'console', { value: quietConsole, writable: true, configurable: true, enumerable: false })

// Node defines some globals as getters that load on first use: the kept ones become plain values before the world is frozen.
for (const name of ['TextEncoder', 'TextDecoder', 'atob', 'btoa', 'queueMicrotask', 'structuredClone', 'DOMException']) {
  const descriptor = describeProperty(scope, name)
  if (descriptor?.get !== undefined)
    defineProperty(scope, name, { value: scope[name], writable: true, configurable: true, enumerable: false })
}

/** A render under way: errors thrown outside it (by work it left running) are its own until it is answered. */
let busy = false

// An error thrown by work a slide left running: the emulator decides (the render's own error while it runs; else it ends this process).
nodeProcess.on('uncaughtException', (error: unknown) => post({ type: 'uncaught', ...describe(error) }))
// As in a browser's worker, a promise a slide rejects and never handles fails nothing.
nodeProcess.on('unhandledRejection', () => {})
// The emulator went away: nothing more to do.
nodeProcess.on('disconnect', () => nodeProcess.exit(0))

/**
 * Node's own globals that SES's `lockdown` freezes (`Buffer`) or that a browser's worker does not have
 * (`SharedArrayBuffer`, without cross-origin isolation), and those a script read from standard input
 * gets: removed before lockdown, so `lockTheWorld` need not tell them from the language's own.
 */
const NODE_ONLY = ['Buffer', 'SharedArrayBuffer', 'process', 'require', 'module', 'exports', '__filename', '__dirname']
for (const name of NODE_ONLY) delete scope[name]

const lockdown = scope.lockdown as (options: Record<string, string>) => void
// Nothing of a slide runs before the world is locked.
lockTheWorld(lockdown)

async function render(code: string, init: WorkerInit): Promise<void> {
  if (!pinnedIntact()) {
    post({ type: 'failed', kind: 'crashed', message: 'The checker’s locked world changed since it started.', stack: '' })
    return
  }
  let runtime: Runtime
  let slideModule: SlideModule | undefined
  try {
    runtime = freshRuntime()
    slideModule = slideModuleOf(code)
  } catch (error) {
    post({ type: 'failed', kind: 'crashed', ...describe(error) })
    return
  }
  const outcome = await runSlide(runtime, slideModule, init, () => post({ type: 'started' }))
  if (outcome.type === 'failed') {
    post(outcome)
    return
  }
  post({ type: 'rendered' })
  const reading = readRenderedMarkup(outcome.html)
  if (reading.ok) post({ type: 'done', html: outcome.html, text: reading.text, elements: reading.elements })
  else post({ type: 'failed', kind: 'too-large', message: reading.message, stack: '' })
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

nodeProcess.on('message', (message: unknown) => {
  if (busy || !isRecord(message) || message.type !== 'render') return
  const { code, init } = message as unknown as ToChecker
  if (typeof code !== 'string' || !isRecord(init)) return
  busy = true
  void render(code, init).then(() => {
    // From a task of its own: a slide that left work running never lets this happen.
    apply(later, undefined, [
      () => {
        busy = false
        post({ type: 'idle' })
      },
    ])
  })
})

try {
  // React loaded and run once before any slide comes: each render's fresh React reuses the compiled script and render path.
  const warm = freshRuntime()
  const h = warm.React.createElement
  warm.renderToStaticMarkup(h('section', { className: 'slide', style: { color: 'red' } }, h('h1', null, 'Warm'), h('p', null, 1)))
  readRenderedMarkup('<section class="slide"><h1>Warm</h1></section>')
  post({ type: 'ready' })
} catch (error) {
  post({ type: 'failed', kind: 'crashed', message: `The checker could not start: ${StringOf(describe(error).message)}`, stack: '' })
}
