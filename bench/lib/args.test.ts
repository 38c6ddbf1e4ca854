import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { notBuilt, parseArgs, UsageError } from './args.js'

describe('parseArgs', () => {
  it('reads the usual run', () => {
    expect(parseArgs([], '/x')).toEqual({ quick: false, only: undefined, against: undefined })
    expect(parseArgs(['--quick', '--only=http,msw'], '/x')).toEqual({ quick: true, only: ['http', 'msw'], against: undefined })
  })

  it('reads --against=DIR and --against DIR, resolving a relative DIR against the directory npm was started in', () => {
    expect(parseArgs(['--against=/tmp/before'], '/x').against).toBe('/tmp/before')
    expect(parseArgs(['--against', '../before', '--only=http'], '/work/here')).toEqual({
      quick: false,
      only: ['http'],
      against: '/work/before',
    })
  })

  it('refuses --against without a directory', () => {
    expect(() => parseArgs(['--against'], '/x')).toThrow(UsageError)
    expect(() => parseArgs(['--against='], '/x')).toThrow(UsageError)
    expect(() => parseArgs(['--against', '--quick'], '/x')).toThrow(/needs a directory/)
  })

  it('refuses --only names --against does not compare, naming them', () => {
    expect(() => parseArgs(['--against=/b', '--only=http,msw'], '/x')).toThrow(
      'bench: --only=msw: --against compares startup, browser, http, fetch, render',
    )
    expect(parseArgs(['--against=/b', '--only=startup,browser,http,fetch'], '/x').only).toHaveLength(4)
  })
})

describe('notBuilt', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pe-args-'))

  it('says which is missing, and how to build it', () => {
    expect(notBuilt(join(dir, 'nowhere'))).toMatch(/no such directory; .*git worktree add .* && \(cd .* && npm ci\)$/)
    expect(notBuilt(dir)).toBe(
      `bench: --against=${dir}: no ${dir}/bin/presentation-emulator.js, so not a built checkout of this project; build it: (cd ${dir} && npm ci), which runs \`npm run build\``,
    )
    mkdirSync(join(dir, 'bin'))
    writeFileSync(join(dir, 'bin', 'presentation-emulator.js'), '')
    expect(notBuilt(dir)).toMatch(/no .*\/dist\/node\/index\.js, so not a built checkout of this project; build it: \(cd .* && npm ci\)/)
  })

  it('accepts a built checkout', () => {
    mkdirSync(join(dir, 'dist', 'node'), { recursive: true })
    writeFileSync(join(dir, 'dist', 'node', 'index.js'), '')
    expect(notBuilt(dir)).toBeUndefined()
  })
})
