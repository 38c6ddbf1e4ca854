/**
 * `presentation-conformance coverage`: the spec's checkable items, each with
 * how the kit checks it or why it cannot be checked from outside. Runs
 * nothing. Exit 0; 2 on a bad flag.
 */
import { Command } from 'commander'
import { EXIT } from '../src/cli/exit-codes.js'
import { VERSION } from '../src/client/index.js'
import { exitCodesHelp, firstUnwritable, type Io, parseArgv, usageError } from './cli/options.js'
import { fileFlag, type ReporterFlags, reporters, reportStreams } from './cli/reporter.js'
import { type Check, SPEC_ITEMS, type SpecItem } from './spec-items.js'

/** A check in words: `scenario projects.rename (“keeps the slug”)`, `fact config.merge`, … */
export function checkText(check: Check): string {
  if ('scenario' in check)
    return `scenario ${check.scenario}${check.check === undefined ? '' : ` (“${check.check.source.replace(/^\^/, '').replace(/\\/g, '')}”)`}`
  if ('fact' in check) return `fact ${check.fact}`
  if ('shape' in check) return `the ${check.shape} answer’s ${check.field.replace(/\\/g, '')} (response.shape)`
  return `${check.status[0]} answered ${check.status[1]}`
}

/** The clause list as a person reads it: by section, each item with its checks or its reason. */
export function coverageListText(items: readonly SpecItem[] = SPEC_ITEMS): string {
  const out: string[] = []
  const checked = items.filter((i) => i.checks.length > 0).length
  const partly = items.filter((i) => i.checks.length > 0 && i.unverifiable !== undefined).length
  out.push(
    `The spec’s checkable items: ${items.length}, of which ${checked} are checked (${partly} of them only in part or only against the emulator) and ${items.length - checked} cannot be checked from outside.`,
  )
  let section = ''
  for (const item of items) {
    if (item.section !== section) {
      section = item.section
      out.push('', section)
    }
    const mark = item.checks.length === 0 ? '–' : item.unverifiable === undefined ? '✓' : '◐'
    out.push(`  ${mark} ${item.id}: ${item.text}`)
    if (item.checks.length > 0) out.push(`      checked by: ${item.checks.map(checkText).join('; ')}`)
    if (item.unverifiable !== undefined)
      out.push(`      ${item.checks.length === 0 ? 'not checkable from outside' : 'not checked'}: ${item.unverifiable}`)
  }
  out.push('', '✓ checked · ◐ checked in part, or only against the emulator · – not checkable from outside (the reason is given)')
  return out.join('\n')
}

/** The JSON form: every item, its checks as text. */
export function coverageListJson(items: readonly SpecItem[] = SPEC_ITEMS): unknown {
  return {
    format: 'presentation-conformance/spec-items@1',
    items: items.map((item) => ({
      id: item.id,
      section: item.section,
      text: item.text,
      checks: item.checks.map(checkText),
      ...(item.unverifiable === undefined ? {} : { unverifiable: item.unverifiable }),
    })),
  }
}

const NAME = 'presentation-conformance coverage'
const REPORTERS = reporters(['human', 'json'], 'the list', 'human')

export function coverageMain(argv: readonly string[], io: Io): number {
  const command = new Command(NAME)
    .description(
      'The spec’s checkable items (every field, status, authentication rule, limit and transition), each with how the kit checks it or why it cannot be checked from outside.',
    )
    .version(VERSION)
    .addHelpText(
      'after',
      `\n${exitCodesHelp({ ok: 'the list was printed', findings: 'never (it checks nothing)', usage: 'usage (bad flag)' })}`,
    )
  for (const option of REPORTERS.options()) command.addOption(option)
  const flags = parseArgv<ReporterFlags<'human' | 'json'>>(command, argv, io)
  if (typeof flags === 'number') return flags
  const reporter = REPORTERS.from(flags)
  if (typeof reporter === 'string') return usageError(io, NAME, reporter)
  const unwritable = firstUnwritable([[fileFlag(flags), reporter?.file]])
  if (unwritable !== undefined) return usageError(io, NAME, unwritable)
  const problem = reportStreams(reporter, io).report(
    reporter?.name === 'json' ? `${JSON.stringify(coverageListJson(), null, 2)}\n` : `${coverageListText()}\n`,
  )
  if (problem !== undefined) return usageError(io, NAME, `${fileFlag(flags)}: ${problem}`)
  return EXIT.ok
}
