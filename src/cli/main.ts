import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { constants as osConstants } from 'node:os'
import { Command, InvalidArgumentError, Option } from 'commander'
import type { JournalEntry } from '../core/journal.js'
import type { EmulatorOptions } from '../emulator.js'
import type { PresentationEmulator } from '../index.js'
import type { RunningServer } from '../node/http-server.js'
import { VERSION } from '../version.js'
import { SERVER_DEFAULTS } from '../node/server-defaults.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../defaults.js'
import { DEFAULT_DECK_BUDGET_MS, DEFAULT_PICTURE_WIDTH, MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH } from '../model/slide-checks.js'
import { TOOL_GROUPS, type ToolGroup } from '../mcp/defaults.js'
import {
  collect,
  parseApiBaseUrl,
  parseBoolean,
  parseHostName,
  parseInteger,
  parseNonEmpty,
  parseOrigin,
  parseSeconds,
  parseTimeScale,
  parseUrl,
} from './options.js'
import { EXIT } from './exit-codes.js'
import { type ClientReportMode, clientReportLines, exitWithReport, parseClientReportMode } from './client-report-text.js'
import { fileFlag, type ReporterFlags, type ReporterName, reporters } from './reporter.js'

/** Exit codes (the table both bins share): 1 for a problem with the world (fixtures, state file, port), 2 for a bad command line. */
const EXIT_RUNTIME = EXIT.runtime
const EXIT_USAGE = EXIT.usage

interface ServeFlags {
  port: number
  host: string
  seed: number
  fixtures?: string
  timeScale: number
  clock: 'real' | 'manual'
  rateLimit: number
  state?: string
  publicUrl?: string
  adminToken?: string
  allowedOrigin: string[]
  allowedHost: string[]
  headersTimeout: number
  requestTimeout: number
  keepAliveTimeout: number
  maxConnections: number
  quiet?: boolean
  allowRemoteImages?: boolean
  checkSlidesOnSave?: boolean
  logFormat: 'text' | 'json'
}

const env = (name: string) => `PRESENTATION_EMULATOR_${name}`

/**
 * Adds the serve flags (contract §1) to a command. `exec` runs a test
 * command: it listens on a free port and limits no rate unless told
 * otherwise, as the in-process emulator and the vitest global setup do.
 */
function withServeOptions(command: Command, defaultPort = DEFAULT_PORT, defaultRateLimit = 50): Command {
  return (
    command
      .addOption(
        new Option('--port <n>', 'port to listen on; 0 picks a free one')
          .env(env('PORT'))
          .default(defaultPort)
          .argParser(parseInteger(0, 65535)),
      )
      .addOption(new Option('--host <host>', 'interface to listen on').env(env('HOST')).default(DEFAULT_HOST).argParser(parseNonEmpty))
      .addOption(
        new Option('--seed <n>', 'fixtures and ids are a pure function of the seed')
          .env(env('SEED'))
          .default(1)
          .argParser(parseInteger(-(2 ** 31), 2 ** 31 - 1)),
      )
      .addOption(new Option('--fixtures <file>', 'a fixtures JSON file replacing the built-in world').env(env('FIXTURES')))
      .addOption(
        new Option('--time-scale <x>', 'simulated generation time = nominal × x (0 = at once)')
          .env(env('TIME_SCALE'))
          .default(0.02)
          .argParser(parseTimeScale),
      )
      .addOption(
        new Option('--clock <mode>', 'real, or manual (time moves only through the control plane)')
          .env(env('CLOCK'))
          .default('real')
          .choices(['real', 'manual']),
      )
      .addOption(
        new Option('--rate-limit <n>', 'requests per minute per user (0 = off)')
          .env(env('RATE_LIMIT'))
          .default(defaultRateLimit)
          .argParser(parseInteger(0, 1_000_000)),
      )
      .addOption(
        new Option('--state <file>', 'load state from the file at start if it exists; save it on change and on exit').env(env('STATE')),
      )
      .addOption(
        new Option('--public-url <url>', 'origin used in editorUrl / publishedUrl (default: the listen origin)')
          .env(env('PUBLIC_URL'))
          .argParser(parseUrl),
      )
      .addOption(
        new Option('--admin-token <token>', 'require Authorization: Bearer <token> on /_emulator/*')
          .env(env('ADMIN_TOKEN'))
          .argParser(parseNonEmpty),
      )
      .addOption(
        new Option('--allowed-origin <origin>', 'a web origin that may drive the control plane and read the pages (repeatable)')
          .env(env('ALLOWED_ORIGIN'))
          .default([])
          .argParser(collect(parseOrigin)),
      )
      .addOption(
        new Option('--allowed-host <host>', 'a Host name accepted besides loopback names and the --public-url host (repeatable)')
          .env(env('ALLOWED_HOST'))
          .default([])
          .argParser(collect(parseHostName)),
      )
      .addOption(
        new Option('--headers-timeout <s>', 'seconds a client may take to send request headers')
          .env(env('HEADERS_TIMEOUT'))
          .default(SERVER_DEFAULTS.headersTimeoutMs, '10')
          .argParser(parseSeconds),
      )
      .addOption(
        new Option('--request-timeout <s>', 'seconds a client may take to send a whole request, body included')
          .env(env('REQUEST_TIMEOUT'))
          .default(SERVER_DEFAULTS.requestTimeoutMs, '60')
          .argParser(parseSeconds),
      )
      .addOption(
        new Option('--keep-alive-timeout <s>', 'seconds an idle keep-alive connection stays open')
          .env(env('KEEP_ALIVE_TIMEOUT'))
          .default(SERVER_DEFAULTS.keepAliveTimeoutMs, '5')
          .argParser(parseSeconds),
      )
      .addOption(
        new Option('--max-connections <n>', 'the most connections open at once')
          .env(env('MAX_CONNECTIONS'))
          .default(SERVER_DEFAULTS.maxConnections)
          .argParser(parseInteger(1, 1_000_000)),
      )
      // Not `.env()`: commander would turn a boolean flag on whenever its env var exists, even as "false" or "0";
      // the variables of boolean flags are read by `booleanFromEnv` instead.
      .addOption(new Option('--quiet', `print only the listening line, no request log (env: ${env('QUIET')}=true|false)`))
      .addOption(
        new Option('--allow-remote-images', `let the pages load images from other origins (env: ${env('ALLOW_REMOTE_IMAGES')}=true|false)`),
      )
      .addOption(
        new Option(
          '--check-slides-on-save',
          `render a slide before PUT saves it; one that does not render is 400 SLIDE_DOES_NOT_RENDER, nothing saved (env: ${env('CHECK_SLIDES_ON_SAVE')}=true|false)`,
        ),
      )
      .addOption(new Option('--log-format <format>', 'text or json').env(env('LOG_FORMAT')).default('text').choices(['text', 'json']))
  )
}

/** The JSON log line of a request: the summary fields only (headers and bodies are in the journal). */
function requestLogLine(entry: JournalEntry): string {
  const { id, time, method, path, operationId, status, durationMs, keyId, userId } = entry
  return JSON.stringify({ type: 'request', id, time, method, path, operationId, status, durationMs, keyId, userId })
}

function formatRequest(entry: JournalEntry): string {
  const op = entry.operationId ?? '-'
  return `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs.toFixed(1)}ms ${op}${entry.keyId ? ` key=${entry.keyId}` : ''}`
}

function banner({ emulator }: PresentationEmulator, server: RunningServer, flags: ServeFlags, stateLoaded: boolean): string {
  const base = emulator.publicUrl
  const world = emulator.world
  const keys = world.apiKeys
    .all()
    .slice(0, 12)
    .map((key) => {
      const user = world.users.get(key.userId)?.name ?? key.userId
      const team = world.teams.get(key.teamId)
      const note = key.revokedAt !== null ? 'revoked' : `${team?.credits ?? 0} credits`
      // A personal team named after its user printed "Alice Anderson → Alice Anderson", which said nothing.
      const scope = team === undefined ? key.teamId : team.personalOf !== null && team.name === user ? 'personal team' : team.name
      return `    ${key.key.padEnd(24)} ${user} → ${scope} (${note})`
    })
  const firstKey = world.apiKeys.all().find((key) => key.revokedAt === null)?.key ?? 'pres_…'
  // A real editor URL to open: the seeded welcome deck, else the first project.
  const slug = (world.projectBySlug('welcome-deck') ?? world.projects.all()[0])?.slug
  // Every URL to open or call names the public URL (what a host's browser or app reaches: a container's 0.0.0.0 is not);
  // it is the listening origin unless --public-url says otherwise.
  return [
    `Presentation Service emulator ${VERSION} listening on ${server.origin}`,
    `  API base URL   ${base}/v1`,
    // The dashboard is the page at /_emulator; the control plane is the JSON API under it (one URL each).
    `  Control plane  ${base}/_emulator/state (JSON; every control route is under /_emulator/)${flags.adminToken ? ' (admin token required)' : ''}`,
    `  Dashboard      ${base}/_emulator${flags.adminToken ? '?token=<admin token>' : ''}`,
    `  Editor         ${base}/editor/${slug === undefined ? '<project slug>' : encodeURIComponent(slug)}`,
    `  Seed ${flags.seed} · clock ${flags.clock} · time scale ${flags.timeScale} · rate limit ${flags.rateLimit === 0 ? 'off' : `${flags.rateLimit}/min`}${flags.allowRemoteImages ? ' · remote images allowed' : ''}${flags.checkSlidesOnSave ? ' · slides checked on save' : ''}${flags.state ? ` · state ${flags.state}${stateLoaded ? ' (loaded)' : ' (new)'}` : ''}`,
    '  API keys',
    ...keys,
    `  Try: curl -H 'Authorization: Bearer ${firstKey}' ${base}/v1/projects`,
    '',
  ].join('\n')
}

/** A boolean flag's variable (`PRESENTATION_EMULATOR_QUIET`): true/false, 1/0, yes/no, on/off. */
function booleanFromEnv(name: string): boolean | undefined {
  const value = process.env[env(name)]
  return value === undefined ? undefined : parseBoolean(value)
}

/** What the CLI does on SIGINT/SIGTERM. */
interface StopSignals {
  /** Resolves with the first signal. */
  received: Promise<NodeJS.Signals>
  /** Called on every later signal. */
  onRepeat: ((signal: NodeJS.Signals) => void) | undefined
  release(): void
}

/**
 * SIGINT/SIGTERM from the very start: a signal that arrives while the
 * emulator is still starting stops it before it listens.
 *
 * The handlers stay installed until the end (`process.on`, not `once`):
 * write-file-atomic, while it writes the state file, registers signal-exit,
 * which re-raises a signal itself when no other handler is left, killing the
 * process mid-shutdown without its final save. A second signal cuts the
 * requests still in flight (the state is still saved); a third exits at once.
 */
function catchStopSignals(): StopSignals {
  let resolve: (signal: NodeJS.Signals) => void = () => {}
  let count = 0
  const signals: StopSignals = {
    received: new Promise<NodeJS.Signals>((done) => {
      resolve = done
    }),
    onRepeat: undefined,
    release: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
  function onSignal(signal: NodeJS.Signals) {
    count += 1
    if (count === 1) resolve(signal)
    else if (count === 2) signals.onRepeat?.(signal)
    else {
      // A third time: the user wants out now. The state file on disk is whole (every save is atomic).
      process.stderr.write(`presentation-emulator: received ${signal} a third time: exiting at once, without the final save\n`)
      process.exit(signal === 'SIGINT' ? 130 : 143)
    }
  }
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  return signals
}

async function serve(flags: ServeFlags): Promise<number> {
  const signals = catchStopSignals()
  const stopWatching = watchParent()
  try {
    return await start(flags, signals)
  } finally {
    stopWatching()
    signals.release()
  }
}

/** Where the CLI writes: stdout and stderr, dropping the output once its reader has gone. */
interface Output {
  log(line: string): void
  logError(line: string): void
}

function openOutput(): Output {
  // A reader that goes away (`presentation-emulator | head`) must not bring the server down: drop the log instead.
  let stdoutOpen = true
  let stderrOpen = true
  process.stdout.on('error', () => {
    stdoutOpen = false
  })
  process.stderr.on('error', () => {
    stderrOpen = false
  })
  return {
    log: (line) => {
      if (stdoutOpen) process.stdout.write(`${line}\n`)
    },
    logError: (line) => {
      if (stderrOpen) process.stderr.write(`presentation-emulator: ${line}\n`)
    },
  }
}

/** A started emulator, listening. */
interface Running {
  emulator: PresentationEmulator
  server: RunningServer
  stateLoaded: boolean
  /** The API keys of the fixtures the world was built from. */
  fixtureKeys: string[]
}

/**
 * Builds the world (fixtures, state file) and listens, through the library's
 * `createEmulator`. Answers an exit code instead when that fails, or when a
 * stop signal came first (`stopped`).
 */
async function launch(
  flags: ServeFlags,
  output: Output,
  isStopRequested: () => boolean,
  onRequest: ((entry: JournalEntry) => void) | undefined,
): Promise<Running | { code: number; stopped: boolean }> {
  const { logError } = output
  // The emulator is loaded here, not at the top, so `--help` and usage errors
  // answer at once; and only after the fixtures file is read, so a bad file is reported at once too.
  let fixtures: EmulatorOptions['fixtures']
  if (flags.fixtures !== undefined) {
    const { FixturesError, parseFixtures } = await import('./serve-modules.js')
    try {
      fixtures = parseFixtures(JSON.parse(await readFile(flags.fixtures, 'utf8')), flags.fixtures)
    } catch (error) {
      const reason = error instanceof FixturesError ? error.message : `cannot load fixtures ${flags.fixtures}: ${(error as Error).message}`
      logError(reason)
      return { code: EXIT_RUNTIME, stopped: false }
    }
  }

  // Stopped while starting: nothing was served yet, so there is nothing to finish.
  if (isStopRequested()) return { code: 0, stopped: true }
  const { createEmulator, BUILT_IN_FIXTURES, isLoopbackAddress } = await import('./serve-modules.js')
  // The state file (and write-file-atomic) loads only with --state: `createEmulator` loads it for `stateFile`.
  const emulator = createEmulator({
    seed: flags.seed,
    fixtures,
    timeScale: flags.timeScale,
    clock: flags.clock,
    rateLimit: flags.rateLimit,
    publicUrl: flags.publicUrl,
    adminToken: flags.adminToken,
    allowedOrigins: flags.allowedOrigin,
    allowedHosts: flags.allowedHost,
    allowRemoteImages: flags.allowRemoteImages ?? false,
    checkSlidesOnSave: flags.checkSlidesOnSave ?? false,
    onRequest,
    onError: (error) => logError(`unexpected error: ${(error as Error)?.stack ?? String(error)}`),
    stateFile:
      flags.state === undefined
        ? undefined
        : {
            path: flags.state,
            onError: (error) =>
              logError(
                `cannot save state to ${flags.state}: ${(error as Error).message}. The last saved file is kept; the emulator keeps serving and retries`,
              ),
            onRecover: () => logError(`state saved to ${flags.state} again`),
          },
  })
  // The world, then the state file: loaded, or (new) written before listening, so an unwritable path is reported at once.
  try {
    await emulator.ready()
  } catch (error) {
    // A state file's own errors (`StateFileError`) say what is wrong with which file.
    logError((error as Error)?.name === 'StateFileError' ? (error as Error).message : `cannot build the world: ${(error as Error).message}`)
    await emulator.close().catch(() => undefined)
    return { code: EXIT_RUNTIME, stopped: false }
  }

  if (isStopRequested()) {
    await emulator.close().catch(() => undefined)
    return { code: 0, stopped: true }
  }

  let server: RunningServer
  try {
    server = await emulator.listen({
      port: flags.port,
      host: flags.host,
      headersTimeoutMs: flags.headersTimeout,
      requestTimeoutMs: flags.requestTimeout,
      keepAliveTimeoutMs: flags.keepAliveTimeout,
      maxConnections: flags.maxConnections,
    })
  } catch (error) {
    logError(`cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}`)
    await emulator.close().catch(() => undefined)
    return { code: EXIT_RUNTIME, stopped: false }
  }
  if (flags.adminToken === undefined && !isLoopbackAddress(server.host)) {
    logError(
      `warning: listening on ${server.host} without --admin-token: anyone who can reach this address can drive the control plane (reset the world, read every API key). Set --admin-token, or listen on 127.0.0.1`,
    )
  }
  const fixtureKeys = (fixtures ?? BUILT_IN_FIXTURES).apiKeys?.map((key) => key.key) ?? []
  return { emulator, server, stateLoaded: emulator.stateFileLoaded === true, fixtureKeys }
}

/**
 * Stops a running emulator (`close()`): ends journal waits, stops accepting
 * connections and lets the requests in flight finish (cut after
 * `forceAfterMs`, or at once by a later signal), then saves the state.
 * Answers 0, or 1 when the final save failed.
 */
async function shutdown(running: Running, output: Output, forceAfterMs?: number): Promise<number> {
  try {
    await running.emulator.close({ forceAfterMs })
  } catch (error) {
    output.logError(`cannot save state: ${(error as Error).message}`)
    return EXIT_RUNTIME
  }
  return 0
}

function listeningLine(server: RunningServer): string {
  return JSON.stringify({
    type: 'listening',
    origin: server.origin,
    port: server.port,
    baseUrl: `${server.origin}/v1`,
    controlPlaneUrl: `${server.origin}/_emulator`,
    version: VERSION,
  })
}

async function start(flags: ServeFlags, signals: StopSignals): Promise<number> {
  let stopRequested = false
  void signals.received.then(() => {
    stopRequested = true
  })
  const output = openOutput()
  const { log } = output
  const json = flags.logFormat === 'json'
  const onRequest = flags.quiet ? undefined : (entry: JournalEntry) => log(json ? requestLogLine(entry) : formatRequest(entry))
  const running = await launch(flags, output, () => stopRequested, onRequest)
  if (!('server' in running)) return running.code
  const { emulator, server, stateLoaded } = running

  if (json) log(listeningLine(server))
  else if (flags.quiet) log(`presentation-emulator listening on ${server.origin}`)
  else log(banner(emulator, server, flags, stateLoaded))

  const signal = await signals.received
  if (!flags.quiet && !json) log(`received ${signal}: finishing in-flight requests (${signal} again to cut them off)`)
  signals.onRepeat = (again) => {
    if (!flags.quiet && !json) log(`received ${again} again: closing every connection now`)
    server.forceClose()
  }
  const code = await shutdown(running, output)
  // Requests that were cut off may still be waiting (e.g. on a fault's delay): do not wait for them.
  if (server.forced) process.exit(code)
  return code
}

/**
 * \`PRESENTATION_EMULATOR_KEY_<NAME>\` for a fixture key: its value without
 * \`pres_\` and a leading \`test_\`, upper-cased (\`pres_test_alice_acme\` →
 * \`PRESENTATION_EMULATOR_KEY_ALICE_ACME\`).
 */
export function keyVariable(key: string): string {
  const name = key.replace(/^pres_/, '').replace(/^test_/, '')
  return `PRESENTATION_EMULATOR_KEY_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`
}

/** The environment \`exec\` gives its command: ours, plus where the emulator is and its fixture keys. */
function commandEnvironment(running: Running, flags: ServeFlags): NodeJS.ProcessEnv {
  const origin = running.server.origin
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PRESENTATION_EMULATOR_URL: `${origin}/v1`,
    PRESENTATION_EMULATOR_CONTROL_URL: `${origin}/_emulator`,
  }
  if (flags.adminToken !== undefined) env.PRESENTATION_EMULATOR_ADMIN_TOKEN = flags.adminToken
  for (const key of running.fixtureKeys) env[keyVariable(key)] = key
  return env
}

/** The signals \`exec\` passes on to its command. */
const FORWARDED_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * \`exec -- <command...>\`: starts the emulator on a free port, runs the
 * command with the emulator's URLs and keys in its environment, passes
 * signals on to it, stops the emulator when it ends and answers its exit
 * code (128 + n when a signal n ended it; 127 when it cannot be found, 126
 * when it cannot be run).
 */
async function execCommand(flags: ServeFlags, command: string[], clientReport?: ClientReportMode): Promise<number> {
  const output = openOutput()
  const { logError } = output
  // Until the command runs, a signal stops the start-up (and the command never runs).
  let startSignal: NodeJS.Signals | undefined
  const onStartSignal = (signal: NodeJS.Signals) => {
    startSignal ??= signal
  }
  for (const signal of FORWARDED_SIGNALS) process.on(signal, onStartSignal)
  const stopWatching = watchParent()
  try {
    const running = await launch(flags, output, () => startSignal !== undefined, undefined)
    if (!('server' in running)) return running.stopped ? signalExitCode(startSignal ?? 'SIGTERM') : running.code
    if (startSignal !== undefined) {
      await shutdown(running, output, 2_000)
      return signalExitCode(startSignal)
    }
    if (!flags.quiet) {
      if (flags.logFormat === 'json') logError(listeningLine(running.server))
      else {
        const shown = command.join(' ')
        logError(
          `emulator listening on ${running.server.origin} (API ${running.server.origin}/v1) for: ${shown.length > 80 ? `${shown.slice(0, 79)}…` : shown}`,
        )
      }
    }

    const [file, ...args] = command as [string, ...string[]]
    const child = spawn(file, args, { stdio: 'inherit', env: commandEnvironment(running, flags) })
    // Handlers stay installed for the whole run (see catchStopSignals): every signal goes to the command.
    const forward = (signal: NodeJS.Signals) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal)
    }
    for (const signal of FORWARDED_SIGNALS) {
      process.off(signal, onStartSignal)
      process.on(signal, forward)
    }
    const code = await new Promise<number>((resolve) => {
      child.once('error', (error: NodeJS.ErrnoException) => {
        logError(`cannot run ${file}: ${error.message}`)
        resolve(error.code === 'ENOENT' ? 127 : 126)
      })
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? signalExitCode(signal ?? 'SIGTERM')))
    })
    // The report reads the journal as the command left it (calls still in flight land in it as they finish).
    let reported = code
    if (clientReport !== undefined) {
      const report = await running.emulator.control.clientReport()
      if (flags.logFormat === 'json') logError(JSON.stringify({ clientReport: report }))
      else for (const line of clientReportLines(report)) logError(line)
      reported = exitWithReport(code, report, clientReport)
    }
    // Nobody is left to talk to the emulator: in-flight requests get 2 s, not 10.
    const stopped = await shutdown(running, output, 2_000)
    for (const signal of FORWARDED_SIGNALS) process.off(signal, forward)
    if (running.server.forced) process.exit(reported === 0 ? stopped : reported)
    return reported === 0 ? stopped : reported
  } finally {
    stopWatching()
    for (const signal of FORWARDED_SIGNALS) process.off(signal, onStartSignal)
  }
}

/** 128 + the signal's number, as a shell reports a command a signal ended. */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 15)
}

/**
 * Under a package manager (\`npx presentation-emulator\`, \`npm start\`), the
 * CLI runs below a shell (\`npm → sh -c → node\`). A SIGTERM to npm is passed
 * to that shell only, which dies without passing it on, and the server
 * would be left running, re-parented. So when started by a package
 * manager, the CLI watches its parent and, once it is gone, stops as on
 * SIGTERM. Returns the function that stops watching.
 */
function watchParent(): () => void {
  if (process.env.npm_lifecycle_event === undefined) return () => {}
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    process.stderr.write(`presentation-emulator: the parent process (${parent}) has exited: stopping as on SIGTERM\n`)
    process.emit('SIGTERM', 'SIGTERM')
  }, PARENT_POLL_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** How often the CLI checks that its parent is still there (under a package manager only). */
const PARENT_POLL_MS = 250

/**
 * Runs the command line. Without a command it serves the emulator; every
 * flag can also be given as an environment variable PRESENTATION_EMULATOR_<NAME>
 * (the flag wins). Exit codes: 0 after a clean shutdown, 1 when the world
 * cannot be loaded or the port taken, 2 for a bad command line.
 */
export async function main(argv: string[]): Promise<void> {
  // An empty PRESENTATION_EMULATOR_* variable counts as unset (as `FOO= cmd` or a blank line in an env file mean).
  for (const [name, value] of Object.entries(process.env)) {
    if (name.startsWith('PRESENTATION_EMULATOR_') && value?.trim() === '') delete process.env[name]
  }
  /**
   * What commander cannot do alone: boolean flags from their variables when
   * the flag is not given (see withServeOptions), and the timeouts' order.
   */
  const resolveFlags = (command: Command, flags: ServeFlags) => {
    if (flags.headersTimeout > flags.requestTimeout) {
      command.error(
        `error: --headers-timeout (${flags.headersTimeout / 1000} s) must not exceed --request-timeout (${flags.requestTimeout / 1000} s)`,
        {
          exitCode: EXIT_USAGE,
          code: 'commander.invalidArgument',
        },
      )
    }
    for (const [key, flag, name] of [
      ['quiet', '--quiet', 'QUIET'],
      ['allowRemoteImages', '--allow-remote-images', 'ALLOW_REMOTE_IMAGES'],
      ['checkSlidesOnSave', '--check-slides-on-save', 'CHECK_SLIDES_ON_SAVE'],
    ] as const) {
      if (flags[key] !== undefined) continue
      try {
        flags[key] = booleanFromEnv(name)
      } catch (error) {
        command.error(
          `error: option '${flag}' value '${process.env[env(name)]}' from env '${env(name)}' is invalid. ${(error as Error).message}`,
          {
            exitCode: EXIT_USAGE,
            code: 'commander.invalidArgument',
          },
        )
      }
    }
  }
  const exitOverride = (error: { exitCode: number }) => {
    process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE)
  }
  const program = withServeOptions(
    new Command('presentation-emulator')
      .description('Run a local emulator of the Presentation Service API over HTTP.')
      .version(VERSION)
      .showHelpAfterError('(run with --help for the list of flags)')
      // Serve flags go before `exec`; exec's own flags after it.
      .enablePositionalOptions(),
  )
    .exitOverride(exitOverride)
    .action(async (flags: ServeFlags) => {
      resolveFlags(program, flags)
      process.exitCode = await serve(flags)
    })
  const exec = withServeOptions(
    program
      .command('exec')
      .summary('run a command against a fresh emulator on a free port (see exec --help)')
      .description(
        'Start the emulator on a free port, run <command> with PRESENTATION_EMULATOR_URL, PRESENTATION_EMULATOR_CONTROL_URL ' +
          'and PRESENTATION_EMULATOR_KEY_<NAME> in its environment, pass signals on to it, stop the emulator when it ends ' +
          'and exit with its exit code.',
      )
      .usage('[flags] -- <command...>')
      .argument('<command...>', 'the command to run, and its arguments')
      .addOption(
        new Option(
          '--client-report [strict]',
          'after the command, print the client report of its calls (docs/guides/client-report.md); =strict: an error in it fails the run (exit 1)',
        ),
      )
      .showHelpAfterError('(run with exec --help for the list of flags)')
      // Everything after the command's name is the command's own (`exec vitest run --reporter dot`).
      .passThroughOptions(),
    0,
    0,
  )
    .exitOverride(exitOverride)
    .action(async (command: string[], flags: ServeFlags & { clientReport?: string | true }) => {
      resolveFlags(exec, flags)
      let mode: ClientReportMode | undefined
      try {
        mode = parseClientReportMode(flags.clientReport)
      } catch (error) {
        exec.error(`error: ${(error as Error).message}`, { exitCode: EXIT_USAGE, code: 'commander.invalidArgument' })
      }
      process.exitCode = await execCommand(flags, command, mode)
    })
  const check = program
    .command('check')
    .summary('check that slides render as the editor renders them, on disk or in a project (see check --help)')
    .description(
      'Render each slide as the editor does (same transpile, same React, props from the controls’ defaults, the theme and tokens) ' +
        'and report what happened: rendered, error, timeout, too-large or crashed, with the error’s slide.tsx line and column.\n\n' +
        'On disk: TARGET is a slide folder (holding slide.tsx, slide.content.json, slide.controls.json) or a parent of several ' +
        '(every folder below it holding any of the three is a slide, sorted by path).\n' +
        'A project: with --base-url, TARGET is the project’s slug, followed by the ids of the slides to check (default: all; in deck order).',
    )
    .usage('[flags] <folder> | --base-url URL [flags] <slug> [slideId...]')
    .argument('<target>', 'a slide folder, or a parent of slide folders; with --base-url, a project’s slug')
    .argument('[slideIds...]', 'with --base-url: check only these slides')
    .addOption(
      // No environment variable: which kind of target TARGET is must show on the command line.
      new Option('--base-url <url>', 'check a project of a running emulator: its API base URL, ending in /v1').argParser(parseApiBaseUrl),
    )
    .addOption(new Option('--api-key <key>', 'with --base-url: the API key that reads the project').env('PRESENTATION_API_KEY'))
    .addOption(
      new Option('--config <file>', 'slide folders: the project config (theme, tokens) to style them with; default a new project’s, {}'),
    )
    .addOption(
      new Option('--budget <s>', 'seconds the whole deck may take; slides not reached by then are timeout')
        .default(DEFAULT_DECK_BUDGET_MS, String(DEFAULT_DECK_BUDGET_MS / 1000))
        .argParser(parseSeconds),
    )
    .addOption(
      new Option(
        '--pictures <dir>',
        'write a PNG of each slide that renders to DIR (POSITION-SLIDE.png), taken in headless Chromium; implies --layout',
      ).argParser(parseNonEmpty),
    )
    .addOption(
      new Option('--picture-width <px>', `the pictures' width, ${MIN_PICTURE_WIDTH} to ${MAX_PICTURE_WIDTH} (height width × 9/16)`)
        .default(DEFAULT_PICTURE_WIDTH)
        .argParser(parseInteger(MIN_PICTURE_WIDTH, MAX_PICTURE_WIDTH)),
    )
    .addOption(
      new Option(
        '--layout',
        'also measure each slide’s layout in headless Chromium (outside the slide, clipped text, images that fail, text under 12 px); reported, failing only with --fail-on layout',
      ),
    )
    .addOption(new Option('--fail-on <what>', 'also fail (exit 1) on these findings: layout (implies --layout)').choices(['layout']))
  for (const option of CHECK_REPORTERS.options()) check.addOption(option)
  check
    .addHelpText(
      'after',
      `
Examples:
  presentation-emulator check ./slides
  presentation-emulator check ./slides/intro --config project.config.json --reporter json
  presentation-emulator check --base-url http://127.0.0.1:4010/v1 --api-key pres_test_alice welcome-deck
  presentation-emulator check --base-url http://127.0.0.1:4010/v1 welcome-deck SLIDE_ID --reporter junit=check.xml
  presentation-emulator check ./slides --pictures out/pictures --picture-width 640 --fail-on layout

Pictures and layout findings need headless Chromium (CHROMIUM_PATH, else the usual install locations) and playwright-core; checks without them need neither.

Exit codes (one table with presentation-conformance): ${EXIT.ok} every slide rendered (and, with --fail-on layout, no layout finding); ${EXIT.findings} a slide did not render, or with --fail-on layout a slide has a layout finding; ${EXIT.usage} usage or configuration (bad flag, no such folder, unreadable --config, unreachable base URL, a key or slug the target rejects).`,
    )
    .showHelpAfterError('(run with check --help for the list of flags)')
    .exitOverride(exitOverride)
    .action(async (target: string, slideIds: string[], flags: CheckFlags) => {
      const reporter = CHECK_REPORTERS.from(flags)
      if (typeof reporter === 'string') check.error(`error: ${reporter}`, { exitCode: EXIT_USAGE, code: 'commander.invalidArgument' })
      const { runCheck } = await import('./check.js')
      process.exitCode = await runCheck(
        {
          target,
          slideIds,
          flags,
          reporter: (reporter as Exclude<typeof reporter, string | undefined>) ?? { name: 'human' },
          fileFlag: fileFlag(flags),
          apiKeyOnCommandLine: check.getOptionValueSource('apiKey') === 'cli',
        },
        {
          out: (text) => process.stdout.write(text),
          err: (text) => process.stderr.write(text),
          progress: process.stderr.isTTY === true,
        },
      )
    })
  const mcp = program
    .command('mcp')
    .summary('serve the emulator to an agent host as an MCP server over stdio (see mcp --help)')
    .description(
      'Serve MCP over stdio: a tool per /v1 operation, the control plane (reset, accounts, keys, credits, clock, jobs, faults, ' +
        'journal, state) and slide checks as tools; the guides, the slides’ files and the API reference as resources. ' +
        'By default a fresh emulator in this process; with --base-url a running one (and its control plane with --control-url). ' +
        'stdout carries protocol messages only; the banner and logs go to stderr.',
    )
    .addOption(
      new Option(
        '--base-url <url>',
        'serve a running emulator: its API base URL, ending in /v1 (default: a fresh emulator in this process)',
      ).argParser(parseApiBaseUrl),
    )
    .addOption(new Option('--control-url <url>', 'with --base-url: its control plane (origin or …/_emulator), for the control tools'))
    .addOption(new Option('--admin-token <token>', 'with --control-url: the admin token').env(env('ADMIN_TOKEN')))
    .addOption(
      new Option(
        '--api-key <key>',
        'the key the /v1 tools start with (switchable per session by set_api_key); default pres_test_alice',
      ).env('PRESENTATION_API_KEY'),
    )
    .addOption(new Option('--seed <n>', 'the fresh emulator’s seed').default(1).argParser(parseInteger(0, 2 ** 31 - 1)))
    .addOption(
      new Option('--clock <mode>', 'the fresh emulator’s clock: real, or manual (time moves only by emulator_advance_clock)')
        .default('real')
        .choices(['real', 'manual']),
    )
    .addOption(
      new Option('--time-scale <x>', 'the fresh emulator’s simulated generation time = nominal × x (0 = at once)')
        .default(0.02)
        .argParser(parseTimeScale),
    )
    .addOption(
      new Option('--tools <groups>', 'the groups of tools to list: api, control, slides (comma-separated)')
        .default(new Set(['api', 'control', 'slides']), 'api,control,slides')
        .argParser(parseToolGroups),
    )
    .addHelpText(
      'after',
      `
A host's configuration (mcpServers), with the package installed in a project:
  { "command": "node", "args": ["<project>/node_modules/presentation-emulator/bin/presentation-emulator.js", "mcp"] }

Examples:
  presentation-emulator mcp
  presentation-emulator mcp --tools api,slides
  presentation-emulator mcp --base-url http://127.0.0.1:4010/v1 --control-url http://127.0.0.1:4010`,
    )
    .showHelpAfterError('(run with mcp --help for the list of flags)')
    .exitOverride(exitOverride)
    .action(async (flags: McpFlags) => {
      if (flags.baseUrl === undefined && flags.controlUrl !== undefined)
        mcp.error('error: --control-url needs --base-url (without it, the fresh emulator’s control plane is served)', {
          exitCode: EXIT_USAGE,
          code: 'commander.invalidArgument',
        })
      const { runMcpStdio } = await import('../mcp/stdio.js')
      process.exitCode = await runMcpStdio({ ...flags, tools: flags.tools })
    })
  await program.parseAsync(argv)
}

interface McpFlags {
  baseUrl?: string
  controlUrl?: string
  adminToken?: string
  apiKey?: string
  seed: number
  clock: 'real' | 'manual'
  timeScale: number
  tools: Set<ToolGroup>
}

/** `--tools api,slides`: the groups of MCP tools to list. */
function parseToolGroups(value: string): Set<ToolGroup> {
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
  const unknown = names.filter((name) => !(TOOL_GROUPS as readonly string[]).includes(name))
  if (names.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`must name some of ${TOOL_GROUPS.join(', ')}`)
  return new Set(names as ToolGroup[])
}

/** The reports `check` writes (the one reporter syntax of both bins). */
const CHECK_REPORTERS = reporters<ReporterName>(['human', 'json', 'junit'], 'the report', 'human')

interface CheckFlags extends ReporterFlags<ReporterName> {
  baseUrl?: string
  apiKey?: string
  config?: string
  budget: number
  pictures?: string
  pictureWidth: number
  layout?: boolean
  failOn?: 'layout'
}
