/**
 * `presentation-conformance coverage`: the spec's checkable items, each with
 * how the kit checks it or why it cannot be checked from outside. Runs
 * nothing. Exit 0; 2 on a bad flag.
 */
import { Command, CommanderError, Option } from 'commander'
import { VERSION } from '../src/client/index.js'
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

export function coverageMain(argv: readonly string[], io: { out: (text: string) => void; err: (text: string) => void }): number {
  const command = new Command('presentation-conformance coverage')
    .description(
      'The spec’s checkable items (every field, status, authentication rule, limit and transition), each with how the kit checks it or why it cannot be checked from outside.',
    )
    .version(VERSION)
    .addOption(new Option('--reporter <name>', 'human or json').choices(['human', 'json']).default('human'))
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
  try {
    command.parse([...argv], { from: 'node' })
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2
    throw error
  }
  const { reporter } = command.opts<{ reporter: 'human' | 'json' }>()
  io.out(reporter === 'json' ? `${JSON.stringify(coverageListJson(), null, 2)}\n` : `${coverageListText()}\n`)
  return 0
}
