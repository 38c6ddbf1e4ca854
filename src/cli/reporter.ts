/**
 * The one reporter syntax of both bins (`presentation-conformance` and its
 * commands, `presentation-emulator check`), beside the one exit-code table
 * (`exit-codes.ts`): `--reporter NAME` writes the report in that format to
 * stdout, `--reporter NAME=FILE` to a file (`--output FILE` is the same, the
 * older spelling). A machine-readable report (json, junit) owns stdout when
 * it has no file; a command's lines for people then go to stderr.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { InvalidArgumentError, Option } from 'commander'

/** Where a command writes: the CLI's two streams (tests pass their own). */
export interface Io {
  out: (text: string) => void
  err: (text: string) => void
}

export type ReporterName = 'human' | 'json' | 'junit'

/** A parsed `--reporter`: the format, and the file when it goes to one. */
export interface Reporter<Name extends ReporterName = ReporterName> {
  name: Name
  file?: string
}

const listed = (names: readonly string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`)

/** Parses `NAME` or `NAME=FILE`, NAME one of `names`. */
export function parseReporter<Name extends ReporterName>(names: readonly Name[]) {
  return (value: string): Reporter<Name> => {
    const at = value.indexOf('=')
    const name = (at < 0 ? value : value.slice(0, at)) as Name
    const file = at < 0 ? undefined : value.slice(at + 1)
    if (!names.includes(name)) throw new InvalidArgumentError(`must be ${listed(names)}, optionally =FILE (json=report.json)`)
    if (file === '') throw new InvalidArgumentError(`names no file after ${name}=`)
    if (file !== undefined && name === 'human') throw new InvalidArgumentError('human is printed, not written to a file')
    return file === undefined ? { name } : { name, file }
  }
}

/** What the reporter options parse. */
export interface ReporterFlags<Name extends ReporterName = ReporterName> {
  reporter?: Reporter<Name>
  output?: string
}

/** A command's reporters: its `--reporter` and `--output` options, and how its flags are read. */
export interface Reporters<Name extends ReporterName> {
  /** The options to add to a command (made afresh each time). */
  options(): Option[]
  /** The reporter the flags ask for (`--output` folded in), or an error message for flags that do not go together. */
  from(flags: ReporterFlags<Name>): Reporter<Name> | undefined | string
}

/**
 * The reporters of a command that reports in `names` (`what` says what it
 * reports); `fallback` is the reporter without the flag (none when omitted).
 */
export function reporters<Name extends ReporterName>(names: readonly Name[], what: string, fallback?: Name): Reporters<Name> {
  const machine = names.filter((name) => name !== 'human')
  return {
    options() {
      const reporter = new Option('--reporter <name[=file]>', `${what}: ${listed(names)}; =FILE writes it to a file`).argParser(
        parseReporter(names),
      )
      if (fallback !== undefined) reporter.default({ name: fallback }, fallback)
      return [reporter, new Option('--output <file>', 'write the report to a file: the same as --reporter NAME=FILE')]
    },
    from({ reporter, output }) {
      if (output === undefined) return reporter
      if (reporter === undefined || reporter.name === 'human')
        return `--output needs --reporter ${listed(machine)} (or --reporter NAME=FILE alone)`
      if (reporter.file !== undefined && reporter.file !== output)
        return `--reporter ${reporter.name}=${reporter.file} and --output ${output} name two files: give one`
      return { name: reporter.name, file: output }
    },
  }
}

/** The flag that named a reporter's file, as a message names it. */
export const fileFlag = (flags: ReporterFlags): string => (flags.output !== undefined ? '--output' : '--reporter')

/**
 * Where a command writes: `lines`, its lines for people (stderr when a
 * machine-readable report owns stdout), and `report`, which writes the
 * report to its file or stdout and answers an error message when the file
 * could not be written.
 */
export function reportStreams(
  reporter: Reporter | undefined,
  io: Io,
): { lines: (text: string) => void; report: (text: string) => string | undefined } {
  const ownsStdout = reporter !== undefined && reporter.name !== 'human' && reporter.file === undefined
  return {
    lines: ownsStdout ? io.err : io.out,
    report: (text) => {
      if (reporter?.file === undefined) {
        io.out(text)
        return undefined
      }
      try {
        writeFileSync(reporter.file, text)
        return undefined
      } catch (error) {
        return `could not write ${reporter.file}: ${(error as Error).message}`
      }
    },
  }
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

/** The first of `files` (flag, path) that cannot be written, as `flag: why`, or undefined. */
export function firstUnwritable(files: ReadonlyArray<readonly [string, string | undefined]>): string | undefined {
  for (const [flag, file] of files) {
    const problem = file === undefined ? undefined : unwritable(file)
    if (problem !== undefined) return `${flag}: ${problem}`
  }
  return undefined
}
