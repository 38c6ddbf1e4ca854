import { readFile } from 'node:fs/promises'
import { Command, Option } from 'commander'
import type { JournalEntry } from '../core/journal.js'
import { Emulator, type EmulatorOptions } from '../emulator.js'
import { FixturesError, parseFixtures } from '../fixtures/load.js'
import { listenHttp, type RunningServer } from '../node/http-server.js'
import { StateFile, StateFileError } from '../node/state-file.js'
import { VERSION } from '../version.js'
import { parseInteger, parseNonEmpty, parseTimeScale, parseUrl } from './options.js'

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
    .addOption(new Option('--quiet', 'print only the listening line, no request log').env(env('QUIET')))
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

async function serve(flags: ServeFlags): Promise<number> {
  const log = (line: string) => process.stdout.write(`${line}\n`)
  const logError = (line: string) => process.stderr.write(`presentation-emulator: ${line}\n`)

  let fixtures: EmulatorOptions['fixtures']
  if (flags.fixtures !== undefined) {
    try {
      fixtures = parseFixtures(JSON.parse(await readFile(flags.fixtures, 'utf8')), flags.fixtures)
    } catch (error) {
      const reason = error instanceof FixturesError ? error.message : `cannot load fixtures ${flags.fixtures}: ${(error as Error).message}`
      logError(reason)
      return EXIT_RUNTIME
    }
  }

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
  if (flags.state !== undefined) {
    stateFile = new StateFile(flags.state, emulator, { onError: (error) => logError(`cannot save state: ${(error as Error).message}`) })
    try {
      stateLoaded = await stateFile.load()
    } catch (error) {
      logError(error instanceof StateFileError ? error.message : String(error))
      return EXIT_RUNTIME
    }
  }

  let server: RunningServer
  try {
    server = await listenHttp((request) => emulator.handle(request), { port: flags.port, host: flags.host })
  } catch (error) {
    logError(`cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}`)
    return EXIT_RUNTIME
  }
  emulator.setListenOrigin(server.origin)
  if (stateFile !== undefined) {
    stateFile.watch()
    if (!stateLoaded) await stateFile.save()
  }

  if (json) log(JSON.stringify({ type: 'listening', origin: server.origin, port: server.port, baseUrl: `${server.origin}/v1`, version: VERSION }))
  else if (flags.quiet) log(`presentation-emulator listening on ${server.origin}`)
  else log(banner(emulator, server, flags, stateLoaded))

  return new Promise<number>((resolve) => {
    let stopping = false
    const stop = (signal: string) => {
      if (stopping) return
      stopping = true
      if (!flags.quiet && !json) log(`received ${signal}: finishing in-flight requests`)
      const force = setTimeout(() => {
        server.server.closeAllConnections()
      }, 10_000)
      force.unref()
      void (async () => {
        await server.close()
        emulator.close()
        let code = 0
        try {
          await stateFile?.close()
        } catch (error) {
          logError(`cannot save state: ${(error as Error).message}`)
          code = EXIT_RUNTIME
        }
        clearTimeout(force)
        resolve(code)
      })()
    }
    process.once('SIGINT', () => stop('SIGINT'))
    process.once('SIGTERM', () => stop('SIGTERM'))
  })
}

/**
 * Runs the command line. Without a command it serves the emulator; every
 * flag can also be given as an environment variable PRESENTATION_EMULATOR_<NAME>
 * (the flag wins). Exit codes: 0 after a clean shutdown, 1 when the world
 * cannot be loaded or the port taken, 2 for a bad command line.
 */
export async function main(argv: string[]): Promise<void> {
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
      process.exitCode = await serve(flags)
    })
  await program.parseAsync(argv)
}
