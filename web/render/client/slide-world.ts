/**
 * What every place that runs slide code shares: the browser's render
 * workers (`worker.ts`) and the slide checker's Node process
 * (`web/check/node/child.ts`). Loaded before any slide code, it takes the
 * intrinsics it needs then, and gives:
 *
 * - `lockTheWorld`: SES's `lockdown()` (every intrinsic frozen), then every
 *   name of the global scope that is not the language's own or on `KEPT`
 *   removed (the network and storage APIs, timers, workers, and in Node
 *   `process`, `require`, `Buffer`, `fetch`, …), what is kept and the
 *   global object frozen, and `Error`'s stack settings pinned
 *   (`pinErrorStacks`); `pinnedIntact` checks them before each render;
 * - `runSlide`: the render step. It runs the slide's transpiled module with
 *   a `require` that gives only `react`, `react/jsx-runtime` and the slide's
 *   two JSON files, renders its default export with
 *   `renderToStaticMarkup` (hooks give their initial state; effects and
 *   handlers never run), and gives the markup, or what went wrong, each of
 *   a bounded size: markup over `MAX_MARKUP_CHARS` or over the parser's
 *   limits (`markupOverLimits`) never leaves the place it was made.
 *
 * The two engines differ only in how they load scripts (`importScripts` of
 * `blob:` addresses; `vm.Script` in Node) and talk to whoever asked.
 */
import { MAX_ERROR_MESSAGE_CHARS, MAX_ERROR_STACK_CHARS, MAX_MARKUP_CHARS, markupTooLarge, SLIDE_IMPORTS } from '../limits.js'
import { markupOverLimits, readMarkup } from '../markup.js'
import type { FromWorker, WorkerInit } from '../protocol.js'

/** A React as a slide gets it: loaded afresh for each slide. */
export interface Runtime {
  React: { createElement(type: unknown, props: unknown, ...children: unknown[]): unknown }
  jsxRuntime: unknown
  renderToStaticMarkup(element: unknown): string
}

/** A slide's transpiled module, as its script defines it (`SLIDE_SCRIPT_PREFIX` … `SLIDE_SCRIPT_SUFFIX`). */
export type SlideModule = (
  exports: Record<string, unknown>,
  require: (name: string) => unknown,
  module: { exports: unknown },
  meta: object,
) => Promise<void>

/** What a render comes to: the markup, or why not (`FromWorker`'s `done` and `failed`). */
export type SlideOutcome = Extract<FromWorker, { type: 'done' | 'failed' }>

/** Names of the global scope a slide keeps (frozen): text, encoding and numbers helpers that hold no state and reach nothing. */
export const KEPT: ReadonlySet<PropertyKey> = new Set<PropertyKey>([
  // Number and date formatting: SES's lockdown leaves Intl out of what it freezes, so without this a slide
  // that formats with it rendered as the first slide (the one-slide worker) and failed as any other.
  'Intl',
  'console',
  'TextEncoder',
  'TextDecoder',
  'atob',
  'btoa',
  'queueMicrotask',
  'structuredClone',
  'DOMException',
])

// biome-ignore lint/suspicious/noExplicitAny: the global scope, changed below
const scope = globalThis as any
const apply = Reflect.apply
const ownKeys = Reflect.ownKeys
const describeProperty = Object.getOwnPropertyDescriptor
const prototypeOf = Object.getPrototypeOf
const isFrozen = Object.isFrozen
const parseJson = JSON.parse
const StringOf = String
const sliceOf = String.prototype.slice
/** At most `max` code units of `text` (with the slice taken before any slide code: a one-slide worker's slide may change `String.prototype`). */
export const bounded = (text: string, max: number): string => (text.length <= max ? text : apply(sliceOf, text, [0, max]))
/** The engine's own `Error` (taken before lockdown, which puts a tamed one of its own on the global object in its place). */
const ErrorType = Error as ErrorConstructor & { stackTraceLimit?: unknown; prepareStackTrace?: unknown }
const defineProperty = Object.defineProperty
const freeze = Object.freeze

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

/** SES's `lockdown` options: the same wherever slides run. */
const LOCKDOWN_OPTIONS = {
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
}

/**
 * Locks the global scope with SES's `lockdown` (loaded before this module
 * runs it): removes what lockdown did not freeze and a slide does not keep;
 * freezes the intrinsics, what is kept and the global object; pins `Error`'s
 * stack settings.
 */
export function lockTheWorld(lockdown: (options: Record<string, string>) => void): void {
  lockdown(LOCKDOWN_OPTIONS)
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
  hardenIntlHidden(harden)
  harden(scope)
  pinErrorStacks(harden)
}

/**
 * Intl's hidden prototypes, which no property names and `harden(Intl)` so does not reach: a Segmenter's
 * segments and their iterator are reached only through instances (as SES reaches the language's own
 * hidden intrinsics). Unfrozen, one slide could change them for the next.
 */
function hardenIntlHidden(harden: <T>(value: T) => T): void {
  try {
    const Segmenter = (scope.Intl as { Segmenter?: new () => { segment(text: string): Iterable<unknown> & object } } | undefined)?.Segmenter
    if (Segmenter === undefined) return
    const segments = new Segmenter().segment('a')
    harden(prototypeOf(segments))
    harden(prototypeOf(segments[Symbol.iterator]()))
  } catch {
    // No Segmenter in this engine: nothing hidden to freeze.
  }
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

/** Whether what `lockTheWorld` pinned is as it was: checked before each render, so a change (there should be none) never reaches a slide. */
export function pinnedIntact(): boolean {
  return (
    pinned !== undefined &&
    isFrozen(scope) &&
    isFrozen(ErrorType) &&
    scope.Error === pinned.error &&
    ErrorType.stackTraceLimit === pinned.stackTraceLimit &&
    ErrorType.prepareStackTrace === pinned.prepareStackTrace
  )
}

/** A slide imported what the renderer does not provide. */
export class SlideImportError extends ErrorType {
  constructor(specifier: string) {
    super(`slide.tsx imports "${specifier}", which a slide cannot use. A slide may import only: ${SLIDE_IMPORTS.join(', ')}.`)
    this.name = 'SlideImportError'
  }
}

/** What went wrong, as text of a bounded size: a component may throw an error whose message or stack is any size (or a getter). */
export function describe(error: unknown): { message: string; stack: string } {
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

/**
 * Renders one slide: runs its module (`slideModule`, undefined when its
 * script did not load) with `runtime`, a React no other slide has seen, and
 * renders its default export with the props in `init`. `started` is called
 * just before the slide's code runs (its clock starts then).
 */
export async function runSlide(
  runtime: Runtime,
  slideModule: SlideModule | undefined,
  init: WorkerInit,
  started: () => void,
): Promise<SlideOutcome> {
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
  started()
  try {
    if (slideModule === undefined) throw new ErrorType('The slide’s script did not load')
    await slideModule(exports, require, module, { url: 'slide.tsx' })
    const loaded = module.exports as Record<string, unknown> | undefined
    const component = loaded?.default
    if (component === undefined || component === null) {
      return {
        type: 'failed',
        kind: 'no-default-export',
        message: 'slide.tsx has no default export to render; export the component with `export default function Slide() {…}`.',
        stack: '',
      }
    }
    const html = StringOf(runtime.renderToStaticMarkup(runtime.React.createElement(component, init.props)))
    // Markup over a limit never leaves: the slide shows why instead (read here, on the slide's clock).
    if (html.length > MAX_MARKUP_CHARS) return { type: 'failed', kind: 'too-large', message: markupTooLarge(html.length), stack: '' }
    const refused = markupOverLimits(readMarkup(html))
    if (refused !== undefined) return { type: 'failed', kind: 'too-large', message: refused, stack: '' }
    return { type: 'done', html }
  } catch (error) {
    return { type: 'failed', kind: error instanceof SlideImportError ? 'import' : 'runtime', ...describe(error) }
  }
}
