/**
 * The house's rooms and the arrows allowed between them
 * (docs/maintainers/rooms.md): the core (`src/`) never imports the web room
 * (`web/`), but for the composition roots that hand the web's parts to the
 * emulator they build; neither does the conformance kit. Imports are read
 * with TypeScript's own pre-processor (static, dynamic and re-exports).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '..', '..')

/** The core's composition roots: the Node entry and the browser entry, each with the parts its environment has. */
const COMPOSITION_ROOTS = ['src/index.ts', 'src/browser.ts']

function sourceFiles(room: string): string[] {
  return readdirSync(join(ROOT, room), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|mts|mjs|js)$/.test(file) && !file.endsWith('.d.ts'))
    .map((file) => join(room, file))
}

/** Each relative import of `file`, as the path from the root it names. */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => relative(ROOT, resolve(ROOT, dirname(file), name)))
}

/** Every import from `room` into `target`, as `file -> imported`, but those of `allowed` files. */
function arrows(room: string, target: string, allowed: readonly string[] = []): string[] {
  return sourceFiles(room)
    .filter((file) => !allowed.includes(file))
    .flatMap((file) =>
      importsOf(file)
        .filter((path) => path === target || path.startsWith(`${target}/`))
        .map((path) => `${file} -> ${path}`),
    )
}

describe('the rooms of the house', () => {
  it('finds the imports it checks (a check that reads nothing passes everything)', () => {
    expect(importsOf('src/index.ts')).toContain('web/mounts.js')
    expect(arrows('web', 'src').length).toBeGreaterThan(10)
  })

  it('the core imports nothing of the web room, but for its composition roots', () => {
    expect(arrows('src', 'web', COMPOSITION_ROOTS)).toEqual([])
  })

  it('the conformance kit imports nothing of the web room', () => {
    expect(arrows('conformance', 'web')).toEqual([])
  })
})
