/**
 * The kit's top, untangled (issue 35): no import cycle in the kit (its CLIs
 * included: a command module never imports the dispatcher or another
 * command), and the pieces every command shares exist once: the option
 * parsers, `summarize`, and the exit-code table both bins use. Imports are
 * read with TypeScript's own pre-processor (static, dynamic, type-only and
 * re-exports), as the rooms' test reads them.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../../src/cli/exit-codes.js'

const ROOT = resolve(import.meta.dirname, '..', '..')

const KIT = readdirSync(join(ROOT, 'conformance'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .map((file) => join('conformance', file))
  .sort()

const text = (file: string) => readFileSync(join(ROOT, file), 'utf8')

/** Each relative import of `file`, as the path of the `.ts` it names (from the root). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(text(file), true, true)
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)).replace(/\.js$/, '.ts'))
}

/** The kit's import graph: each module, the kit's modules it imports. */
function kitGraph(): Map<string, string[]> {
  const kit = new Set(KIT)
  return new Map(KIT.map((file) => [file, importsOf(file).filter((path) => kit.has(path))]))
}

/** The first import cycle found by a depth-first search, as a path that ends where it starts, or undefined. */
function firstCycle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const done = new Set<string>()
  const path: string[] = []
  const onPath = new Set<string>()
  const visit = (node: string): string[] | undefined => {
    if (onPath.has(node)) return [...path.slice(path.indexOf(node)), node]
    if (done.has(node)) return undefined
    path.push(node)
    onPath.add(node)
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next)
      if (cycle !== undefined) return cycle
    }
    path.pop()
    onPath.delete(node)
    done.add(node)
    return undefined
  }
  for (const node of graph.keys()) {
    const cycle = visit(node)
    if (cycle !== undefined) return cycle
  }
  return undefined
}

/** Where a declaration matching `pattern` is made, among the kit's modules (and `also`). */
function declaredIn(pattern: RegExp, also: readonly string[] = []): string[] {
  return [...KIT, ...also].filter((file) => pattern.test(text(file)))
}

const COMMAND_MODULES = ['conformance/walk/cli.ts', 'conformance/proxy/cli.ts', 'conformance/replay/cli.ts', 'conformance/coverage.ts']

describe('the kit’s imports', () => {
  it('are read (a check that reads nothing passes everything)', () => {
    const graph = kitGraph()
    expect(graph.get('conformance/cli.ts')).toEqual(expect.arrayContaining(['conformance/cli/commands.ts', 'conformance/cli/suite.ts']))
    // Dynamic imports count: the table loads each command when it runs.
    expect(graph.get('conformance/cli/commands.ts')).toEqual(expect.arrayContaining(COMMAND_MODULES))
    // Type-only imports count too.
    expect(graph.get('conformance/walk/sides.ts')).toContain('conformance/context.ts')
  })

  it('the search finds a cycle where there is one', () => {
    expect(
      firstCycle(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['b']],
        ]),
      ),
    ).toEqual(['b', 'c', 'b'])
    expect(
      firstCycle(
        new Map([
          ['a', ['b']],
          ['b', []],
        ]),
      ),
    ).toBeUndefined()
  })

  it('have no cycle anywhere in the kit, its CLIs included', () => {
    expect(firstCycle(kitGraph())).toBeUndefined()
  })

  it('the dispatcher is the top: no module of the kit imports it, and no command imports another', () => {
    const graph = kitGraph()
    const importers = [...graph].filter(([, imports]) => imports.includes('conformance/cli.ts')).map(([file]) => file)
    expect(importers.filter((file) => file !== 'conformance/index.ts')).toEqual([])
    for (const command of COMMAND_MODULES) {
      const others = graph
        .get(command)!
        .filter((path) => [...COMMAND_MODULES, 'conformance/cli/commands.ts', 'conformance/cli/suite.ts'].includes(path))
      expect(others, command).toEqual([])
    }
  })
})

describe('what every command shares exists once', () => {
  it('the option parsers, in conformance/cli/options.ts', () => {
    for (const name of [
      'integer',
      'url',
      'apiBaseUrl',
      'duration',
      'pattern',
      'shard',
      'pairs',
      'addTargetOptions',
      'targetOptionsFrom',
      'parseArgv',
    ])
      expect(declaredIn(new RegExp(`^export function ${name}\\b|^function ${name}\\b`, 'm')), name).toEqual(['conformance/cli/options.ts'])
    // Every command parses its argv the same way: with parseArgv, or startTargetCommand (which calls it), declared once.
    expect(declaredIn(/^export function startTargetCommand\b/m)).toEqual(['conformance/cli/reporter.ts'])
    expect(text('conformance/cli/reporter.ts')).toMatch(/function startTargetCommand[\s\S]*parseArgv</)
    for (const command of [...COMMAND_MODULES, 'conformance/cli/suite.ts']) {
      expect(text(command), command).toMatch(/\bparseArgv\b|\bstartTargetCommand\b/)
      expect(text(command), command).not.toContain('CommanderError')
    }
  })

  it('the reporter syntax and the report files’ check, in src/cli/reporter.ts, which both bins use', () => {
    const emulatorCli = ['src/cli/main.ts', 'src/cli/check.ts', 'src/cli/reporter.ts']
    expect(declaredIn(/new Option\('--reporter\b/, emulatorCli)).toEqual(['src/cli/reporter.ts'])
    for (const name of ['parseReporter', 'reporters', 'reportStreams', 'unwritable', 'firstUnwritable'])
      expect(declaredIn(new RegExp(`^export function ${name}\\b|^function ${name}\\b`, 'm'), emulatorCli), name).toEqual([
        'src/cli/reporter.ts',
      ])
    expect(importsOf('conformance/cli/reporter.ts')).toContain('src/cli/reporter.ts')
  })

  it('summarize, in conformance/report/exchange.ts', () => {
    expect(declaredIn(/^export function summarize\b|^function summarize\b/m)).toEqual(['conformance/report/exchange.ts'])
    expect(declaredIn(/HEADERS_THAT_MATTER = /)).toEqual(['conformance/report/exchange.ts'])
  })

  it('the exit-code table, in src/cli/exit-codes.ts, which both bins use', () => {
    expect(EXIT).toEqual({ ok: 0, findings: 1, runtime: 1, usage: 2 })
    // No command keeps a number of its own for an exit code.
    expect(declaredIn(/\bconst EXIT_\w+\s*=\s*\d/, ['src/cli/main.ts'])).toEqual([])
    expect(importsOf('src/cli/main.ts')).toContain('src/cli/exit-codes.ts')
    for (const command of [...COMMAND_MODULES, 'conformance/cli/suite.ts', 'conformance/runner.ts'])
      expect(importsOf(command), command).toContain('src/cli/exit-codes.ts')
  })
})
