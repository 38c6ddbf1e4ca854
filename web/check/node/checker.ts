/**
 * The slide checker's data engine: slides rendered without a browser, in a
 * Node process of the checker's own (`child.ts`), never the emulator's.
 *
 * The process is started on the first check and kept for the next ones:
 *
 * - with an empty environment (nothing of the emulator's reaches it), no
 *   inherited flags, Node's permission model with nothing granted (no file
 *   read or write, no child process, no worker thread: its script comes on
 *   its standard input), code generation from strings refused (as the
 *   renderer's CSP refuses `eval`), and a heap ceiling (`CHECKER_HEAP_MB`);
 *   on Linux its resident memory is watched too (`CHECKER_RSS_LIMIT_BYTES`:
 *   array buffers live outside the heap) and it is ended past it;
 * - it renders one slide at a time, in order (checks wait in a queue of at
 *   most `MAX_QUEUED_CHECKS`); the 2 s clock (`RENDER_TIMEOUT_MS`) starts
 *   when it says the slide's code starts, and is enforced by ending the
 *   process (`timeout`); a process that dies or is ended for its memory
 *   makes that slide `crashed`;
 * - a slide that timed out or crashed in a process that had rendered
 *   another before is checked once more in a fresh one, as the renderer
 *   does: only a failure it has there is its own;
 * - it is used again only once it says `idle` (nothing the slide left
 *   running) within `IDLE_TIMEOUT_MS`, and for at most
 *   `MAX_RENDERS_PER_WORKER` renders; otherwise it is ended, and the next
 *   check starts another;
 * - it ends when the emulator's process exits (killed with it on `exit`;
 *   on its own when its IPC channel closes between renders).
 *
 * Whatever it answers is read as untrusted and bounded; an error's place in
 * `slide.tsx` is read from its stack with the transpiled code's source map,
 * as the renderer frame reads a worker's.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import type { SlideCheckInput, SlideChecker, SlideCheckResult } from '../../../src/model/slide-checker.js'
import type { PageHost } from '../../pages/page-server.js'
import { readableReactError, slidePositionInStack } from '../../render/client/errors.js'
import {
  IDLE_TIMEOUT_MS,
  MAX_ERROR_MESSAGE_CHARS,
  MAX_ERROR_STACK_CHARS,
  MAX_MARKUP_CHARS,
  MAX_RENDERS_PER_WORKER,
  RENDER_TIMEOUT_MS,
  START_TIMEOUT_MS,
} from '../../render/limits.js'
import type { HarnessAnswer } from '../harness.js'
import { prepareSlide, resultOf } from '../prepare.js'
import type { FromChecker, ToChecker } from './protocol.js'
import { SLIDE_SCRIPT_NAME } from './protocol.js'

/** The checker process's V8 heap ceiling, in MiB: past it, V8 ends the process and the slide is `crashed`. */
export const CHECKER_HEAP_MB = 256

/** The checker process's resident memory ceiling (Linux, where `/proc` tells it): past it, the process is ended and the slide is `crashed`. */
export const CHECKER_RSS_LIMIT_BYTES = 1024 * 1024 * 1024

/** How often the resident memory of a process rendering a slide is read. */
const RSS_POLL_MS = 50

/** Checks that may wait for the checker at once; beyond them a check is refused (`SlideCheckerBusyError`). */
export const MAX_QUEUED_CHECKS = 1_000

/** The slide code's first line in its script (the renderer's prefix is one line). */
const CODE_OFFSET = 1

/** What `check` rejects with when `MAX_QUEUED_CHECKS` checks are waiting already. */
export class SlideCheckerBusyError extends Error {
  constructor() {
    super(`the slide checker has ${MAX_QUEUED_CHECKS} checks waiting already; try again when some are done`)
    this.name = 'SlideCheckerBusyError'
  }
}

/** How to start the checker's process. */
export interface NodeSlideCheckerOptions {
  /** The heap ceiling in MiB (default `CHECKER_HEAP_MB`). */
  heapMb?: number
  /** The resident memory ceiling in bytes (default `CHECKER_RSS_LIMIT_BYTES`). */
  rssLimitBytes?: number
}

/** The flag of Node's permission model on this Node: `--permission` from Node 22.13 and 23.5, `--experimental-permission` before. */
export function permissionFlag(): string {
  return process.allowedNodeEnvironmentFlags.has('--permission') ? '--permission' : '--experimental-permission'
}

/** The flags the checker's process starts with; its script comes on its standard input (`-`). */
export function checkerArgs(heapMb: number = CHECKER_HEAP_MB): string[] {
  return [permissionFlag(), '--disallow-code-generation-from-strings', `--max-old-space-size=${heapMb}`, '--no-warnings', '-']
}

/** A check's outcome with the markup as rendered (for the engines' comparison), when it rendered. */
export interface NodeCheckOutcome {
  result: SlideCheckResult
  /** The component's markup as `renderToStaticMarkup` gave it (before sanitising), when it rendered. */
  html?: string
}

/** One checker process. */
interface Checker {
  process: ChildProcess
  /** Resolves once it said `ready`; rejects if it ended or failed first. */
  ready: Promise<void>
  /** Renders given to it. */
  renders: number
  ended: boolean
  /** Resolves when it has exited. */
  exited: Promise<void>
  /** The end of its standard error (what V8 says when it runs out of memory). */
  stderr: string
  /** Why it was ended, when the emulator ended it. */
  endedFor?: 'timeout' | 'memory' | 'idle' | 'failure' | 'close'
  /** Resolves once it may take the next render: it said `idle` after the last one, or it ended. */
  idle: Promise<void>
  /** The listener of the render under way. */
  listener?: (message: FromChecker) => void
  onExit?: () => void
}

type Answer = HarnessAnswer & { html?: string }

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown, max: number): string => (typeof value === 'string' ? value.slice(0, max) : '')

/** A message from the process, read field by field; undefined for anything else. */
function readMessage(data: unknown): FromChecker | undefined {
  if (!isRecord(data)) return undefined
  switch (data.type) {
    case 'ready':
    case 'started':
    case 'rendered':
    case 'idle':
      return { type: data.type }
    case 'done': {
      if (typeof data.html !== 'string' || data.html.length > MAX_MARKUP_CHARS || typeof data.text !== 'string') return undefined
      const elements = Number.isInteger(data.elements) && (data.elements as number) >= 0 ? (data.elements as number) : 0
      return { type: 'done', html: data.html, text: text(data.text, MAX_MARKUP_CHARS), elements }
    }
    case 'failed': {
      const kinds = ['import', 'no-default-export', 'too-large', 'crashed'] as const
      const kind = kinds.find((known) => known === data.kind) ?? 'runtime'
      return { type: 'failed', kind, message: text(data.message, MAX_ERROR_MESSAGE_CHARS), stack: text(data.stack, MAX_ERROR_STACK_CHARS) }
    }
    case 'uncaught':
      return { type: 'uncaught', message: text(data.message, MAX_ERROR_MESSAGE_CHARS), stack: text(data.stack, MAX_ERROR_STACK_CHARS) }
    default:
      return undefined
  }
}

/** The resident memory of a process in bytes, from `/proc` (undefined where there is none). */
function residentBytes(pid: number): number | undefined {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1])
    return Number.isFinite(pages) ? pages * 4096 : undefined
  } catch {
    return undefined
  }
}

/** The Node slide checker: `check` renders in a process of its own; it takes no pictures (the browser's checker does). */
export class NodeSlideChecker implements SlideChecker {
  readonly available = true
  readonly #host: PageHost
  readonly #heapMb: number
  readonly #rssLimit: number
  #checker: Checker | undefined
  /** The end of the queue: each check runs after the one before it. */
  #queue: Promise<unknown> = Promise.resolve()
  #queued = 0
  #closed = false
  /** The checker's script, loaded (from the generated module) when the first process starts. */
  #script: Promise<string> | undefined

  constructor(host: PageHost, options: NodeSlideCheckerOptions = {}) {
    this.#host = host
    this.#heapMb = options.heapMb ?? CHECKER_HEAP_MB
    this.#rssLimit = options.rssLimitBytes ?? CHECKER_RSS_LIMIT_BYTES
  }

  /** The process id of the checker's current process, if one is running (for tests that watch it end). */
  get pid(): number | undefined {
    const checker = this.#checker
    return checker === undefined || checker.ended ? undefined : checker.process.pid
  }

  /** Renders the slide as the editor does, without a browser, and reports the outcome. */
  async check(input: SlideCheckInput): Promise<SlideCheckResult> {
    return (await this.render(input)).result
  }

  /** `check`, with the markup as rendered when it rendered. */
  render(input: SlideCheckInput): Promise<NodeCheckOutcome> {
    if (this.#closed) return Promise.reject(new Error('the slide checker is closed'))
    if (this.#queued >= MAX_QUEUED_CHECKS) return Promise.reject(new SlideCheckerBusyError())
    this.#queued++
    const run = this.#queue.then(() => this.#run(input))
    const settled = run.finally(() => {
      this.#queued--
    })
    this.#queue = settled.catch(() => {})
    return settled
  }

  picture(): Promise<Uint8Array> {
    return Promise.reject(
      new Error('the Node slide checker takes no pictures: the browser checker does (createSlideChecker combines them)'),
    )
  }

  /** Ends the checker's process (and waits for it to exit); the checker answers no more checks. */
  async close(): Promise<void> {
    this.#closed = true
    const checker = this.#checker
    this.#checker = undefined
    if (checker !== undefined) await this.#end(checker, 'close')
  }

  async #run(input: SlideCheckInput): Promise<NodeCheckOutcome> {
    if (this.#closed) throw new Error('the slide checker was closed before the check')
    const prepared = prepareSlide(this.#host, input)
    if (!prepared.ready) return { result: prepared.result }
    const { data } = prepared
    const job: ToChecker = { type: 'render', code: data.code, init: { content: data.content, controls: data.controls, props: data.props } }
    let answer = await this.#renderIn(await this.#current(), job, data.mappings)
    if (answer.retry) answer = await this.#renderIn(await this.#current(), job, data.mappings)
    const result = resultOf(answer.answer, data.notes)
    return answer.answer.ok ? { result, html: answer.answer.html } : { result }
  }

  /** The process to render in: the current one, or a new one. */
  async #current(): Promise<Checker | Answer> {
    if (this.#closed) throw new Error('the slide checker was closed during the check')
    if (this.#checker === undefined || this.#checker.ended) this.#checker = await this.#start()
    await this.#checker.idle
    if (this.#checker === undefined || this.#checker.ended) this.#checker = await this.#start()
    const checker = this.#checker
    try {
      await checker.ready
      return checker
    } catch (error) {
      return { ok: false, error: { kind: 'crashed', message: `The slide checker’s process could not start: ${(error as Error).message}` } }
    }
  }

  async #start(): Promise<Checker> {
    const script = await (this.#script ??= import('../../generated/check-scripts.js').then((module) => module.NODE_CHECKER_JS))
    const child = spawn(process.execPath, checkerArgs(this.#heapMb), {
      env: {},
      stdio: ['pipe', 'ignore', 'pipe', 'ipc'],
      serialization: 'json',
      windowsHide: true,
    })
    let exited!: () => void
    const checker: Checker = {
      process: child,
      ready: Promise.resolve(),
      idle: Promise.resolve(),
      renders: 0,
      ended: false,
      exited: new Promise<void>((resolve) => {
        exited = resolve
      }),
      stderr: '',
    }
    child.stderr?.setEncoding('utf8')
    child.stderr?.on('data', (chunk: string) => {
      checker.stderr = (checker.stderr + chunk).slice(-4_000)
    })
    child.stdin?.on('error', () => {})
    child.stdin?.end(script)
    checker.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`it did not start within ${START_TIMEOUT_MS / 1000} s`))
        void this.#end(checker, 'failure')
      }, START_TIMEOUT_MS)
      checker.listener = (message) => {
        if (message.type === 'ready') {
          clearTimeout(timer)
          checker.listener = undefined
          resolve()
        } else if (message.type === 'failed') {
          clearTimeout(timer)
          reject(new Error(message.message))
          void this.#end(checker, 'failure')
        }
      }
      checker.onExit = () => {
        clearTimeout(timer)
        reject(new Error(`it ended as it started${this.#stderrOf(checker)}`))
      }
    })
    checker.ready.catch(() => {})
    child.on('message', (data: unknown) => {
      const message = readMessage(data)
      if (message !== undefined) checker.listener?.(message)
    })
    child.on('error', () => {
      // A failed spawn: its exit (or close) follows.
    })
    // The emulator's process exits (its end, an uncaught error): the checker's goes with it, even mid-slide.
    const killOnExit = () => {
      child.kill('SIGKILL')
    }
    process.once('exit', killOnExit)
    child.on('exit', () => {
      process.removeListener('exit', killOnExit)
      checker.ended = true
      if (this.#checker === checker) this.#checker = undefined
      checker.onExit?.()
      exited()
    })
    return checker
  }

  #stderrOf(checker: Checker): string {
    const said = checker.stderr.trim().split('\n').slice(-3).join(' ').trim()
    return said === '' ? '' : ` (${said.slice(0, 300)})`
  }

  /** Ends a process (at once) and waits for it to exit. */
  async #end(checker: Checker, reason: NonNullable<Checker['endedFor']>): Promise<void> {
    checker.endedFor ??= reason
    if (!checker.ended) {
      checker.ended = true
      if (this.#checker === checker) this.#checker = undefined
      checker.process.kill('SIGKILL')
    }
    if (checker.process.exitCode === null && checker.process.signalCode === null) await checker.exited
  }

  /**
   * Renders one slide in `checker` (or answers why it could not start). `retry` when it timed out or crashed in
   * a process that had rendered before: once more in a fresh one.
   */
  #renderIn(target: Checker | Answer, job: ToChecker, mappings: string): Promise<{ answer: Answer; retry: boolean }> {
    if (!('process' in target)) return Promise.resolve({ answer: target, retry: false })
    const checker = target
    checker.renders++
    const used = checker.renders > 1
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      let watch: ReturnType<typeof setInterval> | undefined
      let answered = false
      const stopTimers = () => {
        clearTimeout(timer)
        clearInterval(watch)
      }
      const answer = (result: Answer) => {
        if (answered) return
        answered = true
        const retry = used && !result.ok && (result.error.kind === 'timeout' || result.error.kind === 'crashed')
        resolve({ answer: result, retry })
      }
      const fail = (kind: string, message: string, stack = '') => {
        const position = stack === '' ? undefined : slidePositionInStack(stack, SLIDE_SCRIPT_NAME, mappings, CODE_OFFSET)
        answer({ ok: false, error: { kind, message: readableReactError(message), ...position } })
      }
      /** Ends the process and answers why. */
      const endFor = (reason: 'timeout' | 'memory' | 'failure', kind: string, message: string, stack = '') => {
        stopTimers()
        fail(kind, message, stack)
        void this.#end(checker, reason)
      }
      const crashedMessage = () =>
        checker.endedFor === 'memory'
          ? `The component used more than ${Math.round(this.#rssLimit / 1024 / 1024)} MB of memory, so the checker’s process was ended.`
          : `The checker’s process stopped during the render (its memory ceiling is ${this.#heapMb} MB)${this.#stderrOf(checker)}.`
      checker.onExit = () => {
        stopTimers()
        if (!answered) fail('crashed', crashedMessage())
      }
      /** After an answer: the process is used again once it says `idle`; otherwise it is ended. */
      const settle = () => {
        stopTimers()
        timer = setTimeout(() => void this.#end(checker, 'idle'), IDLE_TIMEOUT_MS)
        checker.listener = (message) => {
          if (message.type === 'idle') {
            clearTimeout(timer)
            checker.listener = undefined
            checker.onExit = undefined
            if (checker.renders >= MAX_RENDERS_PER_WORKER) void this.#end(checker, 'idle')
            resolveIdle()
          } else if (message.type === 'uncaught') {
            // Work the slide left running failed after its answer: the process is not used again.
            clearTimeout(timer)
            void this.#end(checker, 'failure')
          }
        }
      }
      // The next check waits until this process is idle or ended.
      let resolveIdle!: () => void
      checker.idle = new Promise<void>((resolve) => {
        resolveIdle = resolve
      })
      void checker.exited.then(() => resolveIdle())
      timer = setTimeout(
        () => endFor('failure', 'crashed', `The checker did not start the component within ${START_TIMEOUT_MS / 1000} s.`),
        START_TIMEOUT_MS,
      )
      const pid = checker.process.pid
      if (pid !== undefined) {
        watch = setInterval(() => {
          const bytes = residentBytes(pid)
          if (bytes !== undefined && bytes > this.#rssLimit) {
            checker.endedFor = 'memory'
            endFor('memory', 'crashed', crashedMessage())
          }
        }, RSS_POLL_MS)
        watch.unref?.()
      }
      checker.listener = (message) => {
        switch (message.type) {
          case 'started':
            clearTimeout(timer)
            timer = setTimeout(
              () =>
                endFor(
                  'timeout',
                  'timeout',
                  `The component did not finish within ${RENDER_TIMEOUT_MS / 1000} s, so it was stopped (an endless loop, or far too much work).`,
                ),
              RENDER_TIMEOUT_MS,
            )
            return
          case 'rendered':
            // Its clock stops: what is left is the checker's own reading of the markup, bounded by its limits.
            clearTimeout(timer)
            timer = setTimeout(
              () => endFor('failure', 'crashed', `The checker did not read the component’s markup within ${START_TIMEOUT_MS / 1000} s.`),
              START_TIMEOUT_MS,
            )
            return
          case 'done':
            answer({ ok: true, html: message.html, text: message.text, elements: message.elements })
            settle()
            return
          case 'failed':
            fail(message.kind, message.message, message.stack)
            if (message.kind === 'crashed') {
              stopTimers()
              void this.#end(checker, 'failure')
            } else settle()
            return
          case 'uncaught':
            // Thrown by work the slide started, while it renders: its own error; the process is not used again.
            endFor('failure', 'runtime', message.message, message.stack)
            return
          default:
            return
        }
      }
      checker.process.send(job, (error) => {
        if (error !== null && error !== undefined)
          endFor('failure', 'crashed', `The checker could not be sent the component: ${error.message}`)
      })
    })
  }
}
