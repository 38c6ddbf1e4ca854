/**
 * `presentation-conformance`: runs the conformance suite against an
 * in-process emulator (default), an emulator it starts over HTTP
 * (`--target http`), or a deployment (`--base-url` and `--api-key`).
 *
 * Exit codes: 0 every scenario that ran passed; 1 a failure (or a stale
 * baseline entry); 2 a configuration error (bad flag, unreachable target, a
 * key the target rejects, or no scenario able to run).
 */
import { accessSync, constants, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { VERSION } from '../src/client/index.js'
import { baselineOf, parseBaseline, type Baseline } from './baseline.js'
import { scenarioLine, summaryText } from './report/human.js'
import { junitXml } from './report/junit.js'
import { ConfigurationError, exitCodeOf, runConformance, type ConformanceOptions } from './runner.js'
import type { TargetOptions } from './target.js'

const EXIT_CONFIG = 2

export function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`)
    return Number(value)
  }
}

/** A regular expression (checked here, so a bad one is a flag error, not a crash mid-run). */
function pattern(value: string): string {
  try {
    new RegExp(value, 'i')
  } catch (error) {
    throw new InvalidArgumentError(
      `must be a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`,
    )
  }
  return value
}

/**
 * Why a report or baseline could not be written to `file`, or undefined
 * when it can: checked before the run, so a typo in a path does not cost a
 * whole run and end in a stack trace.
 */
export function unwritable(file: string): string | undefined {
  const path = resolve(file)
  try {
    if (statSync(path).isDirectory()) return `${file} is a directory`
    accessSync(path, constants.W_OK)
    return undefined
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return `${file} is not writable (${(error as NodeJS.ErrnoException).code})`
  }
  const dir = dirname(path)
  try {
    if (!statSync(dir).isDirectory()) return `${dirname(file)} is not a directory`
    accessSync(dir, constants.W_OK)
    return undefined
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? `the directory ${dirname(file)} does not exist` : `the directory ${dirname(file)} is not writable (${code})`
  }
}

function shard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value)
  if (match === null || Number(match[1]) < 1 || Number(match[1]) > Number(match[2]))
    throw new InvalidArgumentError('must be i/n with 1 ≤ i ≤ n, such as 1/3')
  return { index: Number(match[1]), count: Number(match[2]) }
}

export function url(value: string): string {
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error()
    return value
  } catch {
    throw new InvalidArgumentError('must be an absolute http(s) URL')
  }
}

/** The flags that say what to run against: shared by the suite and `walk`. */
export function addTargetOptions(command: Command): Command {
  return command
    .addOption(
      new Option(
        '--target <kind>',
        'without --base-url: "http" starts an emulator on a free port (default: in-process, no socket)',
      ).choices(['in-process', 'http']),
    )
    .addOption(new Option('--base-url <url>', 'a deployment’s API base URL, ending in /v1').env('CONFORMANCE_BASE_URL').argParser(url))
    .addOption(new Option('--api-key <key>', 'the deployment’s API key for the main scenarios').env('CONFORMANCE_API_KEY'))
    .addOption(
      new Option('--other-team-key <key>', 'a key of another user with no access to the main key’s projects').env(
        'CONFORMANCE_OTHER_TEAM_KEY',
      ),
    )
    .addOption(new Option('--revoked-key <key>', 'a revoked key').env('CONFORMANCE_REVOKED_KEY'))
    .addOption(new Option('--no-credits-key <key>', 'a key whose team has no credits (env CONFORMANCE_NO_CREDITS_KEY)'))
    .addOption(
      new Option(
        '--collaborator-project <slug>',
        'a project shared with the main key’s user as a collaborator (owned by a team the user is not in)',
      ).env('CONFORMANCE_COLLABORATOR_PROJECT'),
    )
    .addOption(
      new Option('--team-project <slug>', 'a project owned by another team the main key’s user belongs to').env('CONFORMANCE_TEAM_PROJECT'),
    )
    .addOption(
      new Option('--control-url <url>', 'the emulator control plane of the target (http://host:4010/_emulator)')
        .env('CONFORMANCE_CONTROL_URL')
        .argParser(url),
    )
    .addOption(new Option('--admin-token <token>', 'the control plane’s admin token').env('CONFORMANCE_ADMIN_TOKEN'))
    .option('--allow-writes', 'against a deployment: run scenarios that create and change projects')
    .option('--allow-generation', 'against a deployment: run scenarios that start generation jobs (spends credits)')
}

export function conformanceCommand(): Command {
  return addTargetOptions(
    new Command('presentation-conformance')
      .description(
        'Checks a Presentation Service deployment (or the emulator) against the published spec. `presentation-conformance walk --help` for model-based walks.',
      )
      .version(VERSION),
  )
    .option('--no-emulator-checks', 'do not run the emulator checks even when the target is the emulator')
    .addOption(new Option('--seed <n>', 'seed of generated inputs (printed at the start)').argParser(integer('--seed', 0, 2 ** 31 - 1)))
    .addOption(new Option('--grep <pattern>', 'run only scenarios whose id or title matches (a regular expression)').argParser(pattern))
    .addOption(new Option('--shard <i/n>', 'run only the i-th of n shards').argParser(shard))
    .addOption(new Option('--concurrency <n>', 'scenarios run at once').argParser(integer('--concurrency', 1, 32)))
    .addOption(
      new Option('--job-timeout <seconds>', 'how long a generation job may stay processing')
        .default(600)
        .argParser(integer('--job-timeout', 1, 86_400)),
    )
    .addOption(new Option('--reporter <name>', 'human, json or junit').choices(['human', 'json', 'junit']).default('human'))
    .option('--output <file>', 'write the json or junit report to a file (default: stdout)')
    .option('--expected-failures <file>', 'a baseline: scenarios listed there may fail; a listed one that passes is stale')
    .option('--write-baseline <file>', 'write this run’s failures as a baseline file')
    .addHelpText(
      'after',
      `
Targets:
  (no target flag)            an in-process emulator, no socket
  --target http               an emulator started by the kit on a free port
  --base-url URL --api-key K  a deployment; add --allow-writes / --allow-generation to run more

Exit codes: 0 every scenario that ran passed, 1 a failure or a stale baseline entry,
2 a configuration error (bad flag, unreachable target, rejected key, nothing able to run).

Model-based walks: presentation-conformance walk --help
The spec's checkable items and how each is checked: presentation-conformance coverage`,
    )
}

/** What `addTargetOptions` parses. */
export interface TargetFlags {
  target?: 'in-process' | 'http'
  baseUrl?: string
  apiKey?: string
  otherTeamKey?: string
  revokedKey?: string
  /** `--no-credits-key K`: commander reads the `no-` as a negation, so the key is here (true when absent). */
  creditsKey?: string | boolean
  collaboratorProject?: string
  teamProject?: string
  controlUrl?: string
  adminToken?: string
  allowWrites?: boolean
  allowGeneration?: boolean
}

/**
 * The target options of parsed flags, or an error message for flags that
 * exclude or need each other.
 */
export function targetOptionsFrom(flags: TargetFlags): TargetOptions | string {
  if (flags.target !== undefined && flags.baseUrl !== undefined) {
    // The base URL may come from the environment, which a person does not see on the command line.
    const fromEnv =
      process.env.CONFORMANCE_BASE_URL !== undefined &&
      process.env.CONFORMANCE_BASE_URL !== '' &&
      flags.baseUrl === process.env.CONFORMANCE_BASE_URL
    return fromEnv
      ? `--target and --base-url exclude each other, and CONFORMANCE_BASE_URL is set in the environment (${flags.baseUrl}): unset it to use --target`
      : '--target and --base-url exclude each other'
  }
  if (flags.baseUrl === undefined && (flags.apiKey !== undefined || flags.controlUrl !== undefined))
    return '--api-key and --control-url need --base-url'
  const noCreditsKey = typeof flags.creditsKey === 'string' ? flags.creditsKey : process.env.CONFORMANCE_NO_CREDITS_KEY || undefined
  return {
    ...(flags.target === undefined ? {} : { target: flags.target }),
    ...(flags.baseUrl === undefined ? {} : { baseUrl: flags.baseUrl }),
    ...(flags.apiKey === undefined ? {} : { apiKey: flags.apiKey }),
    ...(flags.otherTeamKey === undefined ? {} : { otherTeamKey: flags.otherTeamKey }),
    ...(flags.revokedKey === undefined ? {} : { revokedKey: flags.revokedKey }),
    ...(noCreditsKey === undefined ? {} : { noCreditsKey }),
    ...(flags.collaboratorProject === undefined ? {} : { collaboratorProject: flags.collaboratorProject }),
    ...(flags.teamProject === undefined ? {} : { teamProject: flags.teamProject }),
    ...(flags.controlUrl === undefined ? {} : { controlUrl: flags.controlUrl }),
    ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
    allowWrites: flags.allowWrites === true,
    allowGeneration: flags.allowGeneration === true,
  }
}

interface Flags extends TargetFlags {
  emulatorChecks: boolean
  seed?: number
  grep?: string
  shard?: { index: number; count: number }
  concurrency?: number
  jobTimeout: number
  reporter: 'human' | 'json' | 'junit'
  output?: string
  expectedFailures?: string
  writeBaseline?: string
}

/** Runs the CLI; resolves to the exit code. */
export async function main(
  argv: readonly string[],
  io: { out: (text: string) => void; err: (text: string) => void } = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  },
): Promise<number> {
  if (argv[2] === 'walk') {
    const { walkMain } = await import('./walk/cli.js')
    return walkMain([...argv.slice(0, 2), ...argv.slice(3)], io)
  }
  if (argv[2] === 'proxy') {
    const { proxyMain } = await import('./proxy/cli.js')
    return proxyMain([...argv.slice(0, 2), ...argv.slice(3)], io)
  }
  if (argv[2] === 'replay') {
    const { replayMain } = await import('./replay/cli.js')
    return replayMain([...argv.slice(0, 2), ...argv.slice(3)], io)
  }
  if (argv[2] === 'coverage') {
    const { coverageMain } = await import('./coverage.js')
    return coverageMain([...argv.slice(0, 2), ...argv.slice(3)], io)
  }
  const command = conformanceCommand().exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err })
  try {
    command.parse([...argv], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT_CONFIG
    throw error
  }
  const flags = command.opts<Flags>()
  const target = targetOptionsFrom(flags)
  if (typeof target === 'string') {
    io.err(`presentation-conformance: ${target}\n`)
    return EXIT_CONFIG
  }
  for (const [flag, file] of [
    ['--output', flags.output],
    ['--write-baseline', flags.writeBaseline],
  ] as const) {
    const problem = file === undefined ? undefined : unwritable(file)
    if (problem !== undefined) {
      io.err(`presentation-conformance: ${flag}: ${problem}\n`)
      return EXIT_CONFIG
    }
  }
  let expectedFailures: Baseline | undefined
  if (flags.expectedFailures !== undefined) {
    try {
      expectedFailures = parseBaseline(readFileSync(flags.expectedFailures, 'utf8'), flags.expectedFailures)
    } catch (error) {
      io.err(`presentation-conformance: --expected-failures: ${(error as Error).message}\n`)
      return EXIT_CONFIG
    }
  }
  // Machine-readable reports own stdout unless they go to a file; the human lines then go to stderr.
  const human = flags.reporter === 'human' || flags.output !== undefined ? io.out : io.err
  const options: ConformanceOptions = {
    ...target,
    ...(flags.seed === undefined ? {} : { seed: flags.seed }),
    ...(flags.grep === undefined ? {} : { grep: flags.grep }),
    ...(flags.shard === undefined ? {} : { shard: flags.shard }),
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(expectedFailures === undefined ? {} : { expectedFailures }),
    emulatorChecks: flags.emulatorChecks,
    jobTimeoutMs: flags.jobTimeout * 1000,
    onStart: ({ runId, seed, target, scenarios }) => {
      const what =
        target.kind === 'deployment'
          ? `deployment ${target.baseUrl}${target.controlPlane ? ' (with control plane)' : ''}`
          : `${target.kind} emulator (${target.baseUrl})`
      human(`presentation-conformance ${VERSION} · ${what} · seed ${seed} · run ${runId} · ${scenarios} scenarios\n\n`)
    },
    onScenario: (result) => {
      // Against a deployment, the emulator checks are one line, not fourteen.
      if (result.kind === 'emulator' && result.outcome === 'skip' && result.reason?.includes('runs only against the emulator')) {
        emulatorSkipped += 1
        return
      }
      human(`${scenarioLine(result)}\n`)
    },
  }
  let emulatorSkipped = 0
  // Checked before the run; this catches what changed meanwhile (a full disk, a removed directory).
  const write = (flag: string, file: string, text: string): boolean => {
    try {
      writeFileSync(file, text)
      return true
    } catch (error) {
      io.err(`presentation-conformance: ${flag}: could not write ${file}: ${(error as Error).message}\n`)
      return false
    }
  }
  try {
    const report = await runConformance(options)
    if (emulatorSkipped > 0)
      human(`- ${emulatorSkipped} emulator checks not applicable: the target is not the emulator (they check its own choices)\n`)
    human(`${summaryText(report)}\n`)
    if (flags.reporter !== 'human') {
      const text = flags.reporter === 'json' ? `${JSON.stringify(report, null, 2)}\n` : junitXml(report)
      if (flags.output === undefined) io.out(text)
      else if (!write('--output', flags.output, text)) return EXIT_CONFIG
    }
    if (flags.writeBaseline !== undefined) {
      if (!write('--write-baseline', flags.writeBaseline, `${JSON.stringify(baselineOf(report.scenarios), null, 2)}\n`)) return EXIT_CONFIG
      human(`baseline written to ${flags.writeBaseline}\n`)
    }
    const code = exitCodeOf(report)
    if (code === EXIT_CONFIG) io.err('presentation-conformance: no scenario was able to run\n')
    return code
  } catch (error) {
    if (error instanceof ConfigurationError) {
      io.err(`presentation-conformance: ${error.message}\n`)
      return EXIT_CONFIG
    }
    throw error
  }
}
