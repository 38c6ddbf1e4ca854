/**
 * The one reporter syntax of both bins (`presentation-conformance` and its
 * commands, `presentation-emulator check`), beside the one exit-code table
 * (`exit-codes.ts`): `--reporter NAME` writes the report in that format to
 * stdout, `--reporter NAME=FILE` to a file (`--output FILE` is the same, the
 * older spelling), and the flag repeats where a command writes several
 * reports in one run (`--reporter junit=r.xml --reporter markdown`). A
 * machine-readable report owns stdout when it has no file; a command's lines
 * for people then go to stderr. Two reports on stdout, two on one file, an
 * unknown name: usage errors, found before anything runs.
 */
import { accessSync, constants, statSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { InvalidArgumentError, Option } from 'commander'

/** Where a command writes: the CLI's two streams (tests pass their own). */
export interface Io {
  out: (text: string) => void
  err: (text: string) => void
}

export type ReporterName = 'human' | 'json' | 'junit' | 'markdown' | 'sarif'

/** A parsed `--reporter`: the format, and the file when it goes to one. */
export interface Reporter<Name extends ReporterName = ReporterName> {
  name: Name
  file?: string
}

const listed = (names: readonly string[]) => (names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}`)

/** Parses `NAME` or `NAME=FILE`, NAME one of `names`; a repeated flag adds to the ones before it. */
export function parseReporter<Name extends ReporterName>(names: readonly Name[]) {
  return (value: string, previous: Reporter<Name>[] = []): Reporter<Name>[] => {
    const at = value.indexOf('=')
    const name = (at < 0 ? value : value.slice(0, at)) as Name
    const file = at < 0 ? undefined : value.slice(at + 1)
    if (!names.includes(name)) throw new InvalidArgumentError(`must be ${listed(names)}, optionally =FILE (json=report.json)`)
    if (file === '') throw new InvalidArgumentError(`names no file after ${name}=`)
    if (file !== undefined && name === 'human') throw new InvalidArgumentError('human is printed, not written to a file')
    return [...previous, file === undefined ? { name } : { name, file }]
  }
}

/** What the reporter options parse. */
export interface ReporterFlags<Name extends ReporterName = ReporterName> {
  reporter?: Reporter<Name>[]
  output?: string
}

/** A command's reporters: its `--reporter` and `--output` options, and how its flags are read. */
export interface Reporters<Name extends ReporterName> {
  /** The options to add to a command (made afresh each time). */
  options(): Option[]
  /** The one reporter the flags ask for (`--output` folded in), or an error message (two reporters, flags that do not go together). */
  from(flags: ReporterFlags<Name>): Reporter<Name> | undefined | string
  /** Every reporter the flags ask for (`--output` folded in; the fallback when none), or an error message. */
  all(flags: ReporterFlags<Name>): Reporter<Name>[] | string
}

const spelled = (reporter: Reporter) => (reporter.file === undefined ? reporter.name : `${reporter.name}=${reporter.file}`)

/**
 * The reporters of a command that reports in `names` (`what` says what it
 * reports); `fallback` is the reporter without the flag (none when omitted).
 */
export function reporters<Name extends ReporterName>(names: readonly Name[], what: string, fallback?: Name): Reporters<Name> {
  const machine = names.filter((name) => name !== 'human')
  const all = ({ reporter, output }: ReporterFlags<Name>): Reporter<Name>[] | string => {
    let list = [...(reporter ?? [])]
    if (output !== undefined) {
      const open = list.filter((r) => r.name !== 'human' && r.file === undefined)
      if (open.length === 0) {
        const filed = list.find((r) => r.file !== undefined)
        if (filed !== undefined && filed.file !== output)
          return `--reporter ${filed.name}=${filed.file} and --output ${output} name two files: give one`
        if (filed === undefined) return `--output needs --reporter ${listed(machine)} (or --reporter NAME=FILE alone)`
      } else if (open.length > 1)
        return `--output names one file for ${open.map(spelled).join(' and ')}: give each its own (--reporter NAME=FILE)`
      else list = list.map((r) => (r === open[0] ? { name: r.name, file: output } : r))
    }
    if (list.length === 0 && fallback !== undefined) list = [{ name: fallback }]
    const onStdout = list.filter((r) => r.name !== 'human' && r.file === undefined)
    if (onStdout.length > 1)
      return `--reporter ${onStdout.map((r) => r.name).join(' and --reporter ')} would both write to stdout: give all but one a file (NAME=FILE)`
    const files = new Map<string, Reporter<Name>>()
    for (const r of list) {
      if (r.file === undefined) continue
      const before = files.get(resolve(r.file))
      if (before !== undefined) return `--reporter ${spelled(before)} and --reporter ${spelled(r)} write to one file: give each its own`
      files.set(resolve(r.file), r)
    }
    // `human` twice, or beside others, is still the one human report.
    return list.filter((r, i) => r.name !== 'human' || list.findIndex((o) => o.name === 'human') === i)
  }
  return {
    options() {
      const repeat = machine.length > 1 ? '; repeat it for several reports in one run' : ''
      const described = `${what}: ${listed(names)}; =FILE writes it to a file${repeat}${fallback === undefined ? '' : ` (default: ${fallback})`}`
      const reporter = new Option('--reporter <name[=file]>', described).argParser(parseReporter(names))
      return [reporter, new Option('--output <file>', 'write the report to a file: the same as --reporter NAME=FILE')]
    },
    all,
    from(flags) {
      const list = all(flags)
      if (typeof list === 'string') return list
      if (list.length > 1) return `takes one --reporter (got ${list.map(spelled).join(', ')})`
      return list[0]
    },
  }
}

/** The flag that named a reporter's file, as a message names it. */
export const fileFlag = (flags: ReporterFlags): string => (flags.output !== undefined ? '--output' : '--reporter')

/**
 * Where a command writes: `lines`, its lines for people (stderr when a
 * machine-readable report owns stdout), `write`, which writes one
 * reporter's report to its file or stdout and answers an error message when
 * the file could not be written, and `report`, the same for the command's
 * one machine-readable reporter (none: nothing written).
 */
export function reportStreams(
  reporter: Reporter | readonly Reporter[] | undefined,
  io: Io,
): {
  lines: (text: string) => void
  write: (reporter: Reporter, text: string) => string | undefined
  report: (text: string) => string | undefined
} {
  const list: readonly Reporter[] = reporter === undefined ? [] : Array.isArray(reporter) ? reporter : [reporter as Reporter]
  const ownsStdout = list.some((r) => r.name !== 'human' && r.file === undefined)
  const write = (r: Reporter, text: string) => {
    if (r.file === undefined) {
      io.out(text)
      return undefined
    }
    try {
      writeFileSync(r.file, text)
      return undefined
    } catch (error) {
      return `could not write ${r.file}: ${(error as Error).message}`
    }
  }
  return {
    lines: ownsStdout ? io.err : io.out,
    write,
    report: (text) => {
      const machine = list.find((r) => r.name !== 'human')
      return write(machine ?? { name: 'human' }, text)
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

/** Text as XML 1.0 holds it in an attribute or element (the JUnit reports of both bins): characters it cannot hold at all become U+FFFD. */
export const escapeXml = (text: string) =>
  text
    // Characters XML 1.0 cannot hold at all.
    .replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
