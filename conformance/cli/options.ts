/**
 * The option parsers every command of `presentation-conformance` shares
 * (each throws commander's `InvalidArgumentError`, which the command prints
 * before exiting 2), the flags that say what to run against, and the one way
 * a command parses its argv and reports a usage error.
 */
import { type Command, CommanderError, InvalidArgumentError, Option } from 'commander'
import { EXIT } from '../../src/cli/exit-codes.js'
import type { Io } from '../../src/cli/reporter.js'
import type { TargetOptions } from '../target.js'

// Where a command writes, and whether a report's file can be written: shared with `presentation-emulator check`.
export { firstUnwritable, type Io, unwritable } from '../../src/cli/reporter.js'

/** A whole number from `min` to `max`; `name` is the flag the message names. */
export function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`)
    return Number(value)
  }
}

/** A regular expression (checked here, so a bad one is a flag error, not a crash mid-run). */
export function pattern(value: string): string {
  try {
    new RegExp(value, 'i')
  } catch (error) {
    throw new InvalidArgumentError(
      `must be a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`,
    )
  }
  return value
}

/** `i/n`: the i-th of n shards. */
export function shard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value)
  if (match === null || Number(match[1]) < 1 || Number(match[1]) > Number(match[2]))
    throw new InvalidArgumentError('must be i/n with 1 ≤ i ≤ n, such as 1/3')
  return { index: Number(match[1]), count: Number(match[2]) }
}

/** An absolute http(s) URL. */
export function url(value: string): string {
  try {
    const parsed = new URL(value)
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error()
    return value
  } catch {
    throw new InvalidArgumentError('must be an absolute http(s) URL')
  }
}

/** An API base URL: absolute http(s), its path ending in /v1. */
export function apiBaseUrl(value: string): string {
  const checked = url(value)
  if (!/\/v1\/?$/.test(new URL(checked).pathname)) throw new InvalidArgumentError('must be the target’s API base URL, ending in /v1')
  return checked
}

/** `5m`, `90s`, `1h`, `500ms` or a number of seconds; in milliseconds. */
export function duration(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim())
  if (match === null) throw new InvalidArgumentError('must be a duration such as 90s, 5m or 1h')
  const n = Number(match[1])
  const unit = match[2] ?? 's'
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!)
}

/** A repeatable `NAME=VALUE` flag, gathered into a map (`<NAME>` is read as NAME); `shape` is what the message asks for. */
export function pairs(shape: string) {
  return (value: string, previous: Map<string, string> = new Map()) => {
    const at = value.indexOf('=')
    if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError(`must be ${shape}`)
    previous.set(value.slice(0, at).replace(/^<|>$/g, ''), value.slice(at + 1))
    return previous
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
      new Option(
        '--other-team-template <id>',
        'the id of a template of the other team’s (not the main key’s team): another team’s template is 404 on generate',
      ).env('CONFORMANCE_OTHER_TEAM_TEMPLATE'),
    )
    .addOption(
      new Option('--control-url <url>', 'the emulator control plane of the target (http://host:4010/_emulator)')
        .env('CONFORMANCE_CONTROL_URL')
        .argParser(url),
    )
    .addOption(new Option('--admin-token <token>', 'the control plane’s admin token').env('CONFORMANCE_ADMIN_TOKEN'))
    .option('--allow-writes', 'against a deployment: run scenarios that create and change projects')
    .option('--allow-generation', 'against a deployment: run scenarios that start generation jobs (spends credits)')
    .option(
      '--allow-reset',
      'with --control-url: run the checks that reset the emulator (POST /_emulator/reset clears everyone’s state on it)',
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
  otherTeamTemplate?: string
  controlUrl?: string
  adminToken?: string
  allowWrites?: boolean
  allowGeneration?: boolean
  allowReset?: boolean
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
  if (flags.allowReset === true && flags.controlUrl === undefined) return '--allow-reset needs --control-url'
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
    ...(flags.otherTeamTemplate === undefined ? {} : { otherTeamTemplate: flags.otherTeamTemplate }),
    ...(flags.controlUrl === undefined ? {} : { controlUrl: flags.controlUrl }),
    ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
    allowWrites: flags.allowWrites === true,
    allowGeneration: flags.allowGeneration === true,
    ...(flags.allowReset === true ? { allowReset: true } : {}),
  }
}

/**
 * Parses `argv` (as `process.argv`: node, script, then the flags) with a
 * command that writes to `io` and never exits the process: the flags, or the
 * exit code when parsing ended the command (0 for `--help` and `--version`,
 * `EXIT.usage` for a bad flag, its message already printed).
 */
export function parseArgv<Flags extends object>(command: Command, argv: readonly string[], io: Io): Flags | number {
  command.exitOverride().configureOutput({ writeOut: io.out, writeErr: io.err })
  try {
    command.parse([...argv], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage
    throw error
  }
  return command.opts() as Flags
}

/**
 * A command's `--help` line on exit codes: the shared table's three codes
 * (`EXIT`), each with what it means for this command.
 */
export function exitCodesHelp(meaning: { ok: string; findings: string; usage: string }): string {
  return `Exit codes (every presentation-conformance command): ${EXIT.ok} ${meaning.ok}; ${EXIT.findings} ${meaning.findings}; ${EXIT.usage} ${meaning.usage}.`
}

/** Prints a usage or configuration error as `<command>: message` and answers `EXIT.usage`. */
export function usageError(io: Io, command: string, message: string): typeof EXIT.usage {
  io.err(`${command}: ${message}\n`)
  return EXIT.usage
}

/** `--run-id`: 1 to 12 characters of [a-z0-9] (every name a run creates starts with `conformance-<run id>`). */
export function runId(value: string): string {
  if (!/^[a-z0-9]{1,12}$/.test(value)) throw new InvalidArgumentError('must be 1 to 12 characters of a-z and 0-9')
  return value
}
