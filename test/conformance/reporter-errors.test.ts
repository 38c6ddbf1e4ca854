/**
 * Bad input for reporters, for the suite and the walk alike (issue 36): an
 * unknown reporter, an output path that cannot be written, two reports on
 * stdout. Each exits 2 with a one-line message, before any request reaches
 * the target (its journal stays empty). And the walk writes several reports
 * in one run, with its progress on stderr.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { walkJunit, walkMarkdown } from '../../conformance/walk/report.js'
import { createEmulator } from '../../src/index.js'
import { kitCli } from '../support/kit-cli.js'
import { SEQUENCE_DEFECTS, walkDefect } from '../walk/sequence-defects.js'

const cli = kitCli

let server: { origin: string; close(): Promise<void> }

beforeAll(async () => {
  server = await createEmulator({ rateLimit: 0 }).listen({ port: 0 })
})
afterAll(() => server.close())

async function journal(): Promise<unknown[]> {
  return ((await (await fetch(`${server.origin}/_emulator/requests`)).json()) as { requests: unknown[] }).requests
}

const dir = mkdtempSync(join(tmpdir(), 'pe-kit-reporter-errors-'))
const BAD: Array<[string, string[], RegExp]> = [
  ['an unknown reporter', ['--reporter', 'yaml'], /argument 'yaml' is invalid/],
  ['an output path that cannot be written', ['--reporter', `json=${join(dir, 'missing', 'r.json')}`], /missing/],
  ['a directory as the output path', ['--reporter', `junit=${dir}`], /is a directory/],
  ['two reports on stdout', ['--reporter', 'json', '--reporter', 'junit'], /would both write to stdout/],
  [
    'two reports on one file',
    ['--reporter', `json=${join(dir, 'same')}`, '--reporter', `markdown=${join(dir, 'same')}`],
    /write to one file/,
  ],
]

describe.each([
  ['the suite', [] as string[]],
  ['the walk', ['walk', '--allow-writes', '--runs', '1', '--steps', '3']],
])('%s refuses bad reporter input with exit 2, one line, before any request', (_, command) => {
  it.each(BAD)('%s', async (_what, flags, message) => {
    await fetch(`${server.origin}/_emulator/requests`, { method: 'DELETE' })
    const target = ['--base-url', `${server.origin}/v1`, '--control-url', `${server.origin}/_emulator`]
    const { code, out, err } = await cli(...command, ...target, ...flags)
    expect(code).toBe(2)
    expect(err).toMatch(message)
    expect(err.trimEnd().split('\n'), err).toHaveLength(1)
    expect(out).toBe('')
    expect(await journal()).toEqual([])
  })
})

describe('the walk writes several reports in one run', () => {
  it('json, junit and markdown to files, the lines for people on stdout, progress on stderr with --progress', async () => {
    const files = { json: join(dir, 'w.json'), junit: join(dir, 'w.xml'), markdown: join(dir, 'w.md') }
    const run = await cli(
      'walk',
      '--runs',
      '2',
      '--steps',
      '6',
      '--seed',
      '4',
      '--progress',
      '--reporter',
      `json=${files.json}`,
      '--reporter',
      `junit=${files.junit}`,
      '--reporter',
      `markdown=${files.markdown}`,
    )
    expect(run.code, run.err).toBe(0)
    expect(run.out).toContain('No divergence')
    expect(run.err).toContain('▸ run 1 of 2\n')
    expect(run.err).toContain('▸ run 2 of 2\n')
    const json = JSON.parse(readFileSync(files.json, 'utf8'))
    expect(json).toMatchObject({ format: 'presentation-conformance/walk@1', seed: 4, runs: 2 })
    const xml = readFileSync(files.junit, 'utf8')
    expect(xml).toContain('<testcase name="walk (seed 4, 2 of 2 runs)"')
    expect(xml).not.toContain('<failure')
    expect(readFileSync(files.markdown, 'utf8')).toMatch(/^## Walk: no divergence\n/)
  }, 60_000)

  it('without --progress and off a terminal, stderr stays quiet', async () => {
    const run = await cli('walk', '--runs', '1', '--steps', '3', '--seed', '4')
    expect(run.code).toBe(0)
    expect(run.err).toBe('')
  }, 60_000)

  it('a divergence reads in JUnit as one failing test case and in markdown as the fact with its steps and curls', async () => {
    const defect = SEQUENCE_DEFECTS.find((d) => d.name === 'a second rename changes the slug')!
    const result = await walkDefect(defect, 1)
    const d = result.counterexample!.steps.at(-1)!.divergence!
    const xml = walkJunit(result)
    expect(xml).toMatch(/<testsuites name="presentation-conformance walk" tests="1" failures="1" skipped="0"/)
    expect(xml).toContain(`type="divergence"`)
    expect(xml).toContain(d.fact)
    const markdown = walkMarkdown(result)
    expect(markdown).toMatch(/^## Walk: a divergence after \d+ step\(s\)\n/)
    expect(markdown).toContain(`| \`${d.fact}\` |`)
    expect(markdown).toContain('curl ')
    expect(markdown).not.toMatch(/pres_[a-z0-9]/)
  }, 60_000)
})
