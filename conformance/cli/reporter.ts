/**
 * The reporters of every `presentation-conformance` command: the one
 * reporter syntax both bins share (`src/cli/reporter.ts`, re-exported here),
 * and the start every command against a target shares.
 */
import type { Command } from 'commander'
import {
  fileFlag,
  firstUnwritable,
  type Io,
  type Reporter,
  type ReporterFlags,
  type ReporterName,
  type Reporters,
} from '../../src/cli/reporter.js'
import type { TargetOptions } from '../target.js'
import { parseArgv, type TargetFlags, targetOptionsFrom, usageError } from './options.js'

export {
  fileFlag,
  parseReporter,
  type Reporter,
  type ReporterFlags,
  type ReporterName,
  type Reporters,
  reporters,
  reportStreams,
} from '../../src/cli/reporter.js'

/** What a command against a target starts from: its flags, its target, its reporter, and how it reports a usage error. */
export interface TargetCommandStart<Flags, Name extends ReporterName> {
  flags: Flags
  target: TargetOptions
  reporter: Reporter<Name> | undefined
  /** Every reporter the flags ask for: the one `reporter`, or (`many`) each `--reporter` given. */
  reports: Reporter<Name>[]
  /** Reports a usage error; answers its exit code. */
  fail(message: string): number
}

/**
 * The start every command against a target shares: its argv parsed, its
 * target and reporter read from the flags, and every file it will write
 * (its report's, and `files`) checked writable. Answers the exit code
 * instead when any of it is a usage error (reported to `io`) or `--help`.
 */
export function startTargetCommand<Flags extends TargetFlags & ReporterFlags<Name>, Name extends ReporterName>(
  spec: {
    name: string
    command: Command
    reporters: Reporters<Name>
    files: (flags: Flags) => ReadonlyArray<readonly [string, string | undefined]>
    /** Whether the command writes several reports in one run (a repeated `--reporter`). */
    many?: boolean
  },
  argv: readonly string[],
  io: Io,
): TargetCommandStart<Flags, Name> | number {
  const flags = parseArgv<Flags>(spec.command, argv, io)
  if (typeof flags === 'number') return flags
  const fail = (message: string) => usageError(io, spec.name, message)
  const target = targetOptionsFrom(flags)
  if (typeof target === 'string') return fail(target)
  const reports = spec.many === true ? spec.reporters.all(flags) : spec.reporters.from(flags)
  if (typeof reports === 'string') return fail(reports)
  const list = reports === undefined ? [] : Array.isArray(reports) ? reports : [reports]
  const unwritable = firstUnwritable([...list.map((r) => [fileFlag(flags), r.file] as const), ...spec.files(flags)])
  if (unwritable !== undefined) return fail(unwritable)
  return { flags, target, reporter: list.find((r) => r.name !== 'human') ?? list[0], reports: list, fail }
}
