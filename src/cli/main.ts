import { readFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import type { JournalEntry } from '../core/journal.js'
import type { Emulator, EmulatorOptions } from '../emulator.js'
import type { RunningServer } from '../node/http-server.js'
import type { StateFile } from '../node/state-file.js'
import { VERSION } from '../version.js'
import { parseBoolean, parseInteger, parseNonEmpty, parseTimeScale, parseUrl } from './options.js'

/** Exit codes: 1 for a problem with the world (fixtures, state file, port), 2 for a bad command line. */
const EXIT_RUNTIME = 1
const EXIT_USAGE = 2

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
  quiet?: boolean
  logFormat: 'text' | 'json'
}

const env = (name: string) => `PRESENTATION_EMULATOR_${name}`

/** Adds the serve flags (contract §1) to a command. */
function withServeOptions(command: Command): Command {
  return command
    .addOption(new Option('--port <n>', 'port to listen on; 0 picks a free one').env(env('PORT')).default(4010).argParser(parseInteger(0, 65535)))
    .addOption(new Option('--host <host>', 'interface to listen on').env(env('HOST')).default('127.0.0.1').argParser(parseNonEmpty))
    .addOption(new Option('--seed <n>', 'fixtures and ids are a pure function of the seed').env(env('SEED')).default(1).argParser(parseInteger(-(2 ** 31), 2 ** 31 - 1)))
    .addOption(new Option('--fixtures <file>', 'a fixtures JSON file replacing the built-in world').env(env('FIXTURES')))
    .addOption(new Option('--time-scale <x>', 'simulated generation time = nominal × x (0 = at once)').env(env('TIME_SCALE')).default(0.02).argParser(parseTimeScale))
    .addOption(new Option('--clock <mode>', 'real, or manual (time moves only through the control plane)').env(env('CLOCK')).default('real').choices(['real', 'manual']))
    .addOption(new Option('--rate-limit <n>', 'requests per minute per user (0 = off)').env(env('RATE_LIMIT')).default(50).argParser(parseInteger(0, 1_000_000)))
    .addOption(new Option('--state <file>', 'load state from the file at start if it exists; save it on change and on exit').env(env('STATE')))
    .addOption(new Option('--public-url <url>', 'origin used in editorUrl / publishedUrl (default: the listen origin)').env(env('PUBLIC_URL')).argParser(parseUrl))
    .addOption(new Option('--admin-token <token>', 'require Authorization: Bearer <token> on /_emulator/*').env(env('ADMIN_TOKEN')).argParser(parseNonEmpty))
    // Not `.env()`: commander would turn a boolean flag on whenever its env var exists, even as "false" or "0";
    // the env var is read by `quietFromEnv` instead.
    .addOption(new Option('--quiet', `print only the listening line, no request log (env: ${env('QUIET')}=true|false)`))
    .addOption(new Option('--log-format <format>', 'text or json').env(env('LOG_FORMAT')).default('text').choices(['text', 'json']))
}

function formatRequest(entry: JournalEntry): string {
  const op = entry.operationId ?? '-'
  return `${entry.time} ${entry.method} ${entry.path} ${entry.status} ${entry.durationMs.toFixed(1)}ms ${op}${entry.keyId ? ` key=${entry.keyId}` : ''}`
}

function banner(emulator: Emulator, server: RunningServer, flags: ServeFlags, stateLoaded: boolean): string {
  const base = emulator.publicUrl
  const world = emulator.world
  const keys = world.apiKeys
    .all()
    .slice(0, 12)
    .map((key) => {
      const user = world.users.get(key.userId)?.name ?? key.userId
      const team = world.teams.get(key.teamId)
      const note = key.revokedAt !== null ? 'revoked' : `${team?.credits ?? 0} credits`
      return `    ${key.key.padEnd(24)} ${user} → ${team?.name ?? key.teamId} (${note})`
    })
  const firstKey = world.apiKeys.all().find((key) => key.revokedAt === null)?.key ?? 'pres_…'
  return [
    `Presentation Service emulator ${VERSION} listening on ${server.origin}`,
    `  API base URL   ${server.origin}/v1`,
    `  Control plane  ${server.origin}/_emulator${flags.adminToken ? ' (admin token required)' : ''}`,
    `  Editor         ${base}/editor/<project slug>`,
    `  Seed ${flags.seed} · clock ${flags.clock} · time scale ${flags.timeScale} · rate limit ${flags.rateLimit === 0 ? 'off' : `${flags.rateLimit}/min`}${flags.state ? ` · state ${flags.state}${stateLoaded ? ' (loaded)' : ' (new)'}` : ''}`,
    '  API keys',
    ...keys,
    `  Try: curl -H 'Authorization: Bearer ${firstKey}' ${server.origin}/v1/projects`,
    '',
  ].join('\n')
}

/** `PRESENTATION_EMULATOR_QUIET`: true/false, 1/0, yes/no, on/off. */
function quietFromEnv(): boolean | undefined {
  const value = process.env[env('QUIET')]
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
  try {
    return await start(flags, signals)
  } finally {
    signals.release()
  }
}

async function start(flags: ServeFlags, signals: StopSignals): Promise<number> {
  let stopRequested = false
  void signals.received.then(() => {
    stopRequested = true
  })
  // A reader that goes away (`presentation-emulator | head`) must not bring the server down: drop the log instead.
  let stdoutOpen = true
  let stderrOpen = true
  process.stdout.on('error', () => {
    stdoutOpen = false
  })
  process.stderr.on('error', () => {
    stderrOpen = false
  })
  const log = (line: string) => {
    if (stdoutOpen) process.stdout.write(`${line}\n`)
  }
  const logError = (line: string) => {
    if (stderrOpen) process.stderr.write(`presentation-emulator: ${line}\n`)
  }

  // The emulator is loaded here, not at the top, so `--help` and usage errors
  // answer at once; and only after the fixtures file is read, so a bad file is reported at once too.
  let fixtures: EmulatorOptions['fixtures']
  if (flags.fixtures !== undefined) {
    const { FixturesError, parseFixtures } = await import('../fixtures/load.js')
    try {
      fixtures = parseFixtures(JSON.parse(await readFile(flags.fixtures, 'utf8')), flags.fixtures)
    } catch (error) {
      const reason = error instanceof FixturesError ? error.message : `cannot load fixtures ${flags.fixtures}: ${(error as Error).message}`
      logError(reason)
      return EXIT_RUNTIME
    }
  }

  // Stopped while starting: nothing was served yet, so there is nothing to finish.
  if (stopRequested) return 0
  // The state file (and write-file-atomic) loads only with --state.
  const [{ Emulator }, { listenHttp }, stateModule] = await Promise.all([
    import('../emulator.js'),
    import('../node/http-server.js'),
    flags.state === undefined ? undefined : import('../node/state-file.js'),
  ])
  const json = flags.logFormat === 'json'
  const emulator = new Emulator({
    seed: flags.seed,
    fixtures,
    timeScale: flags.timeScale,
    clock: flags.clock,
    rateLimit: flags.rateLimit,
    publicUrl: flags.publicUrl,
    adminToken: flags.adminToken,
    onRequest: flags.quiet ? undefined : (entry) => log(json ? JSON.stringify({ type: 'request', ...entry }) : formatRequest(entry)),
    onError: (error) => logError(`unexpected error: ${(error as Error)?.stack ?? String(error)}`),
  })
  try {
    await emulator.ready()
  } catch (error) {
    logError(`cannot build the world: ${(error as Error).message}`)
    return EXIT_RUNTIME
  }

  let stateFile: StateFile | undefined
  let stateLoaded = false
  if (flags.state !== undefined && stateModule !== undefined) {
    const { StateFile, StateFileError } = stateModule
    stateFile = new StateFile(flags.state, emulator, { onError: (error) => logError(`cannot save state: ${(error as Error).message}`) })
    try {
      stateLoaded = await stateFile.load()
    } catch (error) {
      logError(error instanceof StateFileError ? error.message : String(error))
      return EXIT_RUNTIME
    }
    if (!stateLoaded) {
      // Written before listening, so an unwritable path is reported at once, not at the first change.
      try {
        await stateFile.save()
      } catch (error) {
        logError(`cannot write state file ${flags.state}: ${(error as Error).message}`)
        return EXIT_RUNTIME
      }
    }
    stateFile.watch()
  }

  if (stopRequested) {
    await stateFile?.close().catch(() => undefined)
    return 0
  }

  let server: RunningServer
  try {
    server = await listenHttp((request) => emulator.handle(request), { port: flags.port, host: flags.host })
  } catch (error) {
    logError(`cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}`)
    await stateFile?.close().catch(() => undefined)
    return EXIT_RUNTIME
  }
  emulator.setListenOrigin(server.origin)

  if (json) {
    log(
      JSON.stringify({
        type: 'listening',
        origin: server.origin,
        port: server.port,
        baseUrl: `${server.origin}/v1`,
        controlPlaneUrl: `${server.origin}/_emulator`,
        version: VERSION,
      }),
    )
  } else if (flags.quiet) log(`presentation-emulator listening on ${server.origin}`)
  else log(banner(emulator, server, flags, stateLoaded))

  const signal = await signals.received
  if (!flags.quiet && !json) log(`received ${signal}: finishing in-flight requests (${signal} again to cut them off)`)
  signals.onRepeat = (again) => {
    if (!flags.quiet && !json) log(`received ${again} again: closing every connection now`)
    server.forceClose()
  }
  await server.close()
  emulator.close()
  let code = 0
  try {
    await stateFile?.close()
  } catch (error) {
    logError(`cannot save state: ${(error as Error).message}`)
    code = EXIT_RUNTIME
  }
  // Requests that were cut off may still be waiting (e.g. on a fault's delay): do not wait for them.
  if (server.forced) process.exit(code)
  return code
}

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
  const program = withServeOptions(
    new Command('presentation-emulator')
      .description('Run a local emulator of the Presentation Service API over HTTP.')
      .version(VERSION)
      .showHelpAfterError('(run with --help for the list of flags)'),
  )
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : EXIT_USAGE)
    })
    .action(async (flags: ServeFlags) => {
      if (flags.quiet === undefined) {
        try {
          flags.quiet = quietFromEnv()
        } catch (error) {
          program.error(`error: option '--quiet' value '${process.env[env('QUIET')]}' from env '${env('QUIET')}' is invalid. ${(error as Error).message}`, {
            exitCode: EXIT_USAGE,
            code: 'commander.invalidArgument',
          })
        }
      }
      process.exitCode = await serve(flags)
    })
  await program.parseAsync(argv)
}
