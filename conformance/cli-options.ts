/**
 * The command-line flags the suite (`cli.ts`) and the walks (`walk/cli.ts`)
 * share: what to run against, and the value parsers they use. A module of
 * its own, so neither CLI imports the other.
 */
import { type Command, InvalidArgumentError, Option } from 'commander'
import type { TargetOptions } from './target.js'

export function integer(name: string, min: number, max: number) {
  return (value: string) => {
    if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`)
    return Number(value)
  }
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
      new Option('--control-url <url>', 'the emulator control plane of the target (http://host:4010/_emulator)')
        .env('CONFORMANCE_CONTROL_URL')
        .argParser(url),
    )
    .addOption(new Option('--admin-token <token>', 'the control plane’s admin token').env('CONFORMANCE_ADMIN_TOKEN'))
    .option('--allow-writes', 'against a deployment: run scenarios that create and change projects')
    .option('--allow-generation', 'against a deployment: run scenarios that start generation jobs (spends credits)')
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
    ...(flags.controlUrl === undefined ? {} : { controlUrl: flags.controlUrl }),
    ...(flags.adminToken === undefined ? {} : { adminToken: flags.adminToken }),
    allowWrites: flags.allowWrites === true,
    allowGeneration: flags.allowGeneration === true,
  }
}
