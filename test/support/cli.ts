import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, rmdir, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test as base } from 'vitest'
import { parseBody, requestInit, type SendOptions } from './http.js'

/** Helpers for tests that run the real command line (`bin/presentation-emulator.js`) as a child process. */

/**
 * How long a helper waits for the CLI (to print, to exit, to listen) before it gives up. Only a hang
 * takes this long, even on a busy machine: no test measures how soon anything happens.
 */
export const PATIENCE_MS = 120_000
/**
 * The time limit of a test that runs a whole tool (tsc over a consumer project, a nested vitest run):
 * minutes of CPU on a busy machine. Like every limit here, it only stops a hang.
 */
export const HEAVY_MS = 600_000
/** How long a test waits for another's build of the package (a build takes a minute or more on a busy machine). */
const BUILD_PATIENCE_MS = 15 * 60_000

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(ROOT, 'bin', 'presentation-emulator.js')
/** Written last by `npm run build`. */
const MARKER = join(ROOT, 'dist', '.built')
const LOCK = join(ROOT, 'node_modules', '.cache', 'presentation-emulator-build.lock')

async function newestMtime(path: string): Promise<number> {
  const info = await stat(path)
  if (!info.isDirectory()) return info.mtimeMs
  let newest = 0
  for (const entry of await readdir(path)) {
    if (entry.endsWith('.test.ts')) continue
    newest = Math.max(newest, await newestMtime(join(path, entry)))
  }
  return newest
}

async function distIsFresh(): Promise<boolean> {
  let built: number
  try {
    built = (await stat(MARKER)).mtimeMs
  } catch {
    return false
  }
  // Every folder the build compiles (tsconfig.build.json): a change in the web room or the kit is in dist/ only once built.
  const sources = Math.max(...(await Promise.all(['src', 'web', 'conformance', 'fixtures'].map((dir) => newestMtime(join(ROOT, dir))))))
  return built >= sources
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Builds the package (the bundles `bin/` runs) unless it is newer
 * than every source file (of `src/`, `web/`, `conformance/` and `fixtures/`). Test files run in parallel workers, so a lock
 * directory makes one of them build while the others wait; a build that
 * emitted nothing fails.
 */
export async function ensureBuilt(): Promise<void> {
  if (await distIsFresh()) return
  await mkdir(join(ROOT, 'node_modules', '.cache'), { recursive: true })
  const deadline = Date.now() + BUILD_PATIENCE_MS
  for (;;) {
    try {
      await mkdir(LOCK)
      break
    } catch {
      // Another worker builds: wait for it, then check again (a lock older than the patience is stale).
      const age = await stat(LOCK).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      )
      if (age > BUILD_PATIENCE_MS) await rmdir(LOCK).catch(() => undefined)
      if (Date.now() > deadline) throw new Error(`timed out waiting for the build lock ${LOCK}`)
      await sleep(200)
    }
  }
  try {
    if (await distIsFresh()) return
    const started = Date.now()
    const output = await new Promise<string>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'build.ts')], { cwd: ROOT }, (_error, stdout, stderr) =>
        resolve(`${stdout}${stderr}`),
      )
    })
    const built = await stat(MARKER).then(
      (s) => s.mtimeMs,
      () => 0,
    )
    if (built < started - 1000) throw new Error(`the build did not emit ${MARKER}:\n${output}`)
    if (output.trim() !== '') console.warn(`the build reported:\n${output}`)
  } finally {
    await rmdir(LOCK).catch(() => undefined)
  }
}

/** The environment of a child: ours without any PRESENTATION_EMULATOR_* variable, plus `env`. */
function childEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('PRESENTATION_EMULATOR_')) out[name] = value
  }
  return { ...out, ...env }
}

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

/** A running CLI process and everything it printed so far. */
export class CliProcess {
  readonly child: ChildProcess
  readonly exited: Promise<Exit>
  #stdout = ''
  #stderr = ''
  #exit: Exit | undefined
  readonly #waiters = new Set<() => void>()

  constructor(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) {
    this.child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: childEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stdout += chunk
      this.#notify()
    })
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr += chunk
      this.#notify()
    })
    this.exited = new Promise<Exit>((resolve) => {
      // 'close' (not 'exit'): fires once the output pipes are drained too.
      this.child.once('close', (code, signal) => {
        this.#exit = { code, signal }
        this.#notify()
        resolve(this.#exit)
      })
      this.child.once('error', (error) => {
        this.#stderr += String(error)
        this.#exit = { code: null, signal: null }
        this.#notify()
        resolve(this.#exit)
      })
    })
    running.add(this)
    void this.exited.then(() => running.delete(this))
  }

  get stdout(): string {
    return this.#stdout
  }

  get stderr(): string {
    return this.#stderr
  }

  get hasExited(): boolean {
    return this.#exit !== undefined
  }

  #notify(): void {
    for (const waiter of [...this.#waiters]) waiter()
  }

  /** Resolves with the first match of `pattern` in stdout; rejects if the process exits first or on timeout. */
  waitForStdout(pattern: RegExp, timeoutMs = PATIENCE_MS): Promise<RegExpMatchArray> {
    return this.#waitFor('stdout', pattern, timeoutMs)
  }

  /** Resolves with the first match of `pattern` in stderr; rejects if the process exits first or on timeout. */
  waitForStderr(pattern: RegExp, timeoutMs = PATIENCE_MS): Promise<RegExpMatchArray> {
    return this.#waitFor('stderr', pattern, timeoutMs)
  }

  #waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stream === 'stdout' ? this.#stdout : this.#stderr)
        if (match !== null) return done(() => resolve(match))
        if (this.#exit !== undefined) {
          return done(() =>
            reject(
              new Error(
                `the CLI exited (${JSON.stringify(this.#exit)}) before printing ${pattern}\nstdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`,
              ),
            ),
          )
        }
      }
      const timer = setTimeout(
        () =>
          done(() =>
            reject(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms\nstdout:\n${this.#stdout}\nstderr:\n${this.#stderr}`)),
          ),
        timeoutMs,
      )
      const done = (finish: () => void) => {
        clearTimeout(timer)
        this.#waiters.delete(check)
        finish()
      }
      this.#waiters.add(check)
      check()
    })
  }

  /** Sends a signal (no-op once exited). */
  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (!this.hasExited) this.child.kill(signal)
  }

  /** Waits for the exit, SIGKILLing the process after `timeoutMs` (then the exit shows the SIGKILL). */
  async waitForExit(timeoutMs = PATIENCE_MS): Promise<Exit> {
    const timer = setTimeout(() => this.kill('SIGKILL'), timeoutMs)
    try {
      return await this.exited
    } finally {
      clearTimeout(timer)
    }
  }

  /** Sends `signal` and waits for the exit. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', timeoutMs = PATIENCE_MS): Promise<Exit> {
    this.kill(signal)
    return this.waitForExit(timeoutMs)
  }
}

/** Every CLI process started and not yet exited. */
const running = new Set<CliProcess>()

/** SIGKILLs every CLI process of this test file still running and waits for them (a safety net for `afterAll`). */
export async function killAll(): Promise<void> {
  const all = [...running]
  for (const cli of all) cli.kill('SIGKILL')
  await Promise.all(all.map((cli) => cli.exited))
}

export interface Outcome extends Exit {
  stdout: string
  stderr: string
}

export interface StartOptions {
  env?: Record<string, string>
  timeoutMs?: number
}

/**
 * Starts CLI processes and stops them all at the end: one per test (see
 * `test` below) or per suite, so concurrent tests never kill each other's.
 */
export class CliLauncher {
  readonly #processes = new Set<CliProcess>()

  #track<T extends CliProcess>(cli: T): T {
    this.#processes.add(cli)
    return cli
  }

  /** Spawns the CLI without waiting for anything. */
  spawn(args: string[], options: StartOptions = {}): CliServer {
    return this.#track(new CliServer(args, options))
  }

  /** Runs the CLI to its end (killing it after `timeoutMs`, default `PATIENCE_MS`). */
  async run(args: string[], options: StartOptions = {}): Promise<Outcome> {
    const cli = this.spawn(args, options)
    const exit = await cli.waitForExit(options.timeoutMs ?? PATIENCE_MS)
    return { ...exit, stdout: cli.stdout, stderr: cli.stderr }
  }

  /** Starts the CLI (with `--port 0` unless a port is given) and waits until it listens. */
  async start(args: string[] = [], options: StartOptions = {}): Promise<CliServer> {
    const withPort = args.includes('--port') || options.env?.PRESENTATION_EMULATOR_PORT !== undefined ? args : ['--port', '0', ...args]
    return this.spawn(withPort, options).listening(options.timeoutMs)
  }

  /** SIGKILLs every process started here that is still running, and waits for them. */
  async killAll(): Promise<void> {
    const all = [...this.#processes]
    this.#processes.clear()
    for (const cli of all) cli.kill('SIGKILL')
    await Promise.all(all.map((cli) => cli.exited))
  }
}

/** `test` with a `cli` fixture: a launcher whose processes are killed when the test ends, pass or fail. */
export const test = base.extend<{ cli: CliLauncher }>({
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from its first parameter's pattern
  cli: async ({}, use) => {
    const launcher = new CliLauncher()
    try {
      await use(launcher)
    } finally {
      await launcher.killAll()
    }
  },
})
export const it = test

/** Matches the listening line of every output format (banner, --quiet, --log-format json). */
const LISTENING = /listening on (http:\/\/\S+)|"type":"listening","origin":"(http:\/\/[^"]+)"/

export interface Reply {
  status: number
  headers: Headers
  text: string
  /** The parsed JSON body, or undefined. */
  body: any
}

/** A started CLI server: its origin and small request helpers. */
export class CliServer extends CliProcess {
  origin = ''
  port = 0

  /** Waits for the listening line and reads the origin from it. */
  async listening(timeoutMs?: number): Promise<this> {
    const match = await this.waitForStdout(LISTENING, timeoutMs)
    this.origin = (match[1] ?? match[2])!
    this.port = Number(new URL(this.origin).port)
    return this
  }

  /** Sends a request; `key` (default `pres_test_alice`, null for none) becomes `Authorization: Bearer <key>`. */
  async request(method: string, path: string, options: SendOptions = {}): Promise<Reply> {
    const response = await fetch(`${this.origin}${path}`, requestInit(method, options))
    const text = await response.text()
    return { status: response.status, headers: response.headers, text, body: parseBody(text) }
  }
}

/** A fresh temporary directory, removed by the returned function. */
export async function tempDir(prefix = 'presentation-emulator-'): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix))
  return { path, remove: () => rm(path, { recursive: true, force: true }) }
}
