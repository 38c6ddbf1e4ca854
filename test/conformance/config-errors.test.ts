/**
 * Configuration errors exit 2 with a message naming the flag, before any
 * scenario runs: a bad pattern, a path the report cannot be written to, an
 * optional key the target refuses. And the end of a report says what the
 * flags left unrun, apart from what can never run against the target.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runConformance, SCENARIOS, type Scenario, summaryText } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'
import { kitCli } from '../support/kit-cli.js'

const cli = kitCli

let server: { origin: string; close(): Promise<void> }

beforeAll(async () => {
  server = await createEmulator({ rateLimit: 0 }).listen({ port: 0 })
})
afterAll(() => server.close())

const deployment = () => ['--base-url', `${server.origin}/v1`, '--api-key', 'pres_test_alice']

describe('flags that would have crashed or failed late', () => {
  it('an invalid --grep pattern exits 2 with a message, not a SyntaxError', async () => {
    const { code, err } = await cli('--grep', '(')
    expect(code).toBe(2)
    expect(err).toContain("option '--grep <pattern>' argument '(' is invalid")
    expect(err).toContain('must be a valid regular expression')
    expect(err).not.toMatch(/at \S+ \(/)
    // The programmatic entry refuses it as a configuration error too.
    await expect(runConformance({ grep: '(' })).rejects.toMatchObject({
      name: 'ConfigurationError',
      message: expect.stringContaining('--grep'),
    })
  })

  it('an --output or --write-baseline that cannot be written exits 2 before the run', async () => {
    const started = Date.now()
    const missing = await cli('--output', '/nonexistent/dir/x.json', '--reporter', 'json')
    expect(missing.code).toBe(2)
    expect(missing.err).toBe('presentation-conformance: --output: the directory /nonexistent/dir does not exist\n')
    expect(missing.out).toBe('')
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-out-'))
    const directory = await cli('--output', dir, '--reporter', 'junit')
    expect(directory.code).toBe(2)
    expect(directory.err).toContain(`--output: ${dir} is a directory`)
    const baseline = await cli('--write-baseline', '/nonexistent/baseline.json')
    expect(baseline.code).toBe(2)
    expect(baseline.err).toContain('--write-baseline: the directory /nonexistent does not exist')
    // Nothing ran: a whole in-process run takes longer than these checks.
    expect(Date.now() - started).toBeLessThan(5_000)
    // A file that exists and is writable is fine.
    const file = join(dir, 'report.json')
    writeFileSync(file, 'old')
    expect((await cli('--grep', '^teams\\.', '--reporter', 'json', '--output', file)).code).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8')).summary.passed).toBe(1)
  })

  it('names CONFORMANCE_BASE_URL when it, not a flag, clashes with --target', async () => {
    const saved = process.env.CONFORMANCE_BASE_URL
    process.env.CONFORMANCE_BASE_URL = 'http://127.0.0.1:1/v1'
    try {
      const { code, err } = await cli('--target', 'http')
      expect(code).toBe(2)
      expect(err).toContain('CONFORMANCE_BASE_URL is set in the environment')
    } finally {
      if (saved === undefined) delete process.env.CONFORMANCE_BASE_URL
      else process.env.CONFORMANCE_BASE_URL = saved
    }
    expect((await cli('--target', 'http', '--base-url', 'http://127.0.0.1:1/v1')).err).not.toContain('CONFORMANCE_BASE_URL')
  })

  it('a control plane that refuses the admin token exits 2 saying so', async () => {
    const guarded = await createEmulator({ rateLimit: 0, adminToken: 'right' }).listen({ port: 0 })
    try {
      const { code, err } = await cli(
        '--base-url',
        `${guarded.origin}/v1`,
        '--control-url',
        `${guarded.origin}/_emulator`,
        '--admin-token',
        'wrong',
      )
      expect(code).toBe(2)
      expect(err).toContain('refuses the --admin-token given (401)')
    } finally {
      await guarded.close()
    }
  })
})

describe('optional keys are checked before the run', () => {
  it('an --other-team-key or --no-credits-key the target refuses exits 2 naming the flag', async () => {
    const other = await cli(...deployment(), '--allow-writes', '--other-team-key', 'pres_bogus', '--no-credits-key', 'pres_bogus2')
    expect(other.code).toBe(2)
    expect(other.err).toBe(
      'presentation-conformance: the target rejects the key of --other-team-key (or CONFORMANCE_OTHER_TEAM_KEY): GET /teams answered 401\n',
    )
    expect(other.out).not.toContain('✗')
    const noCredits = await cli(...deployment(), '--other-team-key', 'pres_test_bob', '--no-credits-key', 'pres_bogus2')
    expect(noCredits.code).toBe(2)
    expect(noCredits.err).toContain('the key of --no-credits-key (or CONFORMANCE_NO_CREDITS_KEY)')
    const same = await cli(...deployment(), '--other-team-key', 'pres_test_alice')
    expect(same.code).toBe(2)
    expect(same.err).toContain('--other-team-key is the same key as --api-key')
  })

  it('spends one request per optional key, and none on the revoked key', async () => {
    const own = await createEmulator({ rateLimit: 0 }).listen({ port: 0 })
    try {
      // No scenario matches: the run costs only the preflight.
      const { code } = await cli(
        '--base-url',
        `${own.origin}/v1`,
        '--api-key',
        'pres_test_alice',
        '--other-team-key',
        'pres_test_bob',
        '--no-credits-key',
        'pres_test_alice_acme',
        '--revoked-key',
        'pres_test_revoked',
        '--grep',
        'matches-no-scenario',
      )
      expect(code).toBe(2)
      const { requests } = (await (await fetch(`${own.origin}/_emulator/requests`)).json()) as {
        requests: Array<{ operationId: string; status: number }>
      }
      // main, other-team, no-credits: one GET /teams each, all accepted.
      expect(requests.map((r) => `${r.operationId} ${r.status}`)).toEqual(['listTeams 200', 'listTeams 200', 'listTeams 200'])
    } finally {
      await own.close()
    }
  })
})

describe('one reporter syntax for every command', () => {
  it('--reporter NAME=FILE writes the report to the file (as --output FILE does); the lines for people stay on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-reporter-'))
    const suite = await cli('--grep', '^teams\\.', '--reporter', `json=${join(dir, 'report.json')}`)
    expect(suite.code).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.passed).toBe(1)
    expect(suite.out).toMatch(/^presentation-conformance \S+ · /)
    const coverage = await cli('coverage', '--reporter', `json=${join(dir, 'items.json')}`)
    expect(coverage).toMatchObject({ code: 0, out: '' })
    expect(JSON.parse(readFileSync(join(dir, 'items.json'), 'utf8')).format).toBe('presentation-conformance/spec-items@1')
  })

  it('refuses, with exit 2, a format the command does not write, a file for no report, and two files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-reporter-'))
    const sarifWalk = await cli('walk', '--reporter', 'sarif')
    expect(sarifWalk.code).toBe(2)
    expect(sarifWalk.err).toContain("argument 'sarif' is invalid. must be human, json, junit or markdown")
    for (const args of [
      ['--output', join(dir, 'x')],
      ['--reporter', 'human', '--output', join(dir, 'x')],
      ['coverage', '--output', join(dir, 'x')],
    ]) {
      const { code, err } = await cli(...args)
      expect(code, args.join(' ')).toBe(2)
      expect(err, args.join(' ')).toMatch(/: --output needs --reporter json/)
    }
    const two = await cli('--reporter', `json=${join(dir, 'a')}`, '--output', join(dir, 'b'))
    expect(two.code).toBe(2)
    expect(two.err).toContain('name two files')
    const human = await cli('--reporter', `human=${join(dir, 'a')}`)
    expect(human.code).toBe(2)
    expect(human.err).toContain('human is printed, not written to a file')
  })
})

describe('several reporters in one run (--reporter NAME[=FILE], repeatable)', () => {
  it('writes each report to its file in one run; the lines for people stay on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-reporters-'))
    const run = await cli(
      '--grep',
      '^teams\\.',
      '--reporter',
      `junit=${join(dir, 'r.xml')}`,
      '--reporter',
      `json=${join(dir, 'r.json')}`,
      '--reporter',
      `markdown=${join(dir, 'r.md')}`,
    )
    expect(run.code).toBe(0)
    expect(run.out).toMatch(/^presentation-conformance \S+ · /)
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))
    expect(json.summary.passed).toBe(1)
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain(`<testcase name="${json.scenarios[0].id}`)
    expect(readFileSync(join(dir, 'r.md'), 'utf8')).toMatch(/^## ✅ Presentation Service conformance: 1 passed, 0 failed/)
    // One machine report on stdout beside files: it owns stdout, the lines for people move to stderr.
    const mixed = await cli('--grep', '^teams\\.', '--reporter', 'json', '--reporter', `junit=${join(dir, 'm.xml')}`)
    expect(mixed.code).toBe(0)
    expect(JSON.parse(mixed.out).summary.passed).toBe(1)
    expect(mixed.err).toMatch(/^presentation-conformance \S+ · /)
    expect(readFileSync(join(dir, 'm.xml'), 'utf8')).toContain('<testsuites')
  })

  it('refuses bad input with exit 2 and one line, before any request is sent', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-reporters-'))
    // A target nothing listens on: had a request been sent, the error would be that it is unreachable.
    const nowhere = ['--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'k']
    const cases: Array<[string[], RegExp]> = [
      [['--reporter', 'yaml'], /argument 'yaml' is invalid\. must be human, json, junit, markdown or sarif/],
      [['--reporter', 'json', '--reporter', 'junit'], /--reporter json and --reporter junit would both write to stdout/],
      [['--reporter', `json=${join(dir, 'a')}`, '--reporter', `junit=${join(dir, 'a')}`], /write to one file/],
      [['--reporter', 'json', '--reporter', 'junit', '--output', join(dir, 'o')], /--output names one file for json and junit/],
      [
        ['--reporter', `json=${join(dir, 'ok.json')}`, '--reporter', 'junit=/nonexistent/dir/r.xml'],
        /--reporter: the directory \/nonexistent\/dir does not exist/,
      ],
    ]
    for (const [args, message] of cases) {
      const { code, out, err } = await cli(...nowhere, ...args)
      expect(code, args.join(' ')).toBe(2)
      expect(out, args.join(' ')).toBe('')
      expect(err, args.join(' ')).toMatch(message)
      expect(err.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    }
    // A command that writes one report takes one --reporter (the suite and the walk take several).
    const coverage = await cli('coverage', '--reporter', `json=${join(dir, 'c1')}`, '--reporter', `json=${join(dir, 'c2')}`)
    expect(coverage.code).toBe(2)
    expect(coverage.err).toContain('takes one --reporter')
  })
})

describe('the end of a report', () => {
  it('counts apart the emulator checks that can never run against a deployment', async () => {
    const { out } = await cli(...deployment(), '--grep', '^(projects|config|emulator)\\.')
    expect(out).toMatch(
      /!!! (\d+) of (\d+) scenarios were not applicable \(not counting 1[0-9] emulator checks, which run only against the emulator\)/,
    )
    const [, skipped, total] = /!!! (\d+) of (\d+)/.exec(out)!
    // The spec scenarios skipped for want of --allow-writes, out of the spec scenarios selected.
    expect(Number(skipped)).toBeLessThanOrEqual(Number(total))
    expect(Number(total)).toBeLessThan(15)
    // A run whose only skips are emulator checks is not "mostly skipped".
    const full = await cli(...deployment(), '--allow-writes', '--grep', '^(teams|projects\\.list$|emulator)\\.')
    expect(full.out).not.toContain('!!!')
    expect(full.out).toContain('emulator checks not applicable')
  })

  it('marks each skip with its kind, which the emulator-only line and summary.emulatorOnly count (not the reason’s words)', async () => {
    const applies: Scenario = {
      id: 'x.runtime-skip',
      title: 'finds it does not apply',
      kind: 'spec',
      needs: [],
      run: async (ctx) => ctx.skip('nothing to check here'),
    }
    const report = await runConformance({
      baseUrl: `${server.origin}/v1`,
      apiKey: 'pres_test_alice',
      scenarios: [...SCENARIOS.filter((s) => /^(projects|emulator)\./.test(s.id)), applies],
    })
    const skipped = report.scenarios.filter((r) => r.outcome === 'skip')
    expect(skipped.length).toBeGreaterThan(0)
    for (const r of skipped) {
      const scenario = [...SCENARIOS, applies].find((s) => s.id === r.id)!
      const expected = scenario.needs.includes('emulator')
        ? 'emulator-only'
        : scenario.needs.includes('seededWorld')
          ? 'kit-started-only'
          : r.id === applies.id
            ? 'not-applicable'
            : 'needs'
      expect(r.skip?.kind, r.id).toBe(expected)
      if (expected !== 'not-applicable') expect(r.skip?.needs?.length, r.id).toBeGreaterThan(0)
    }
    expect(report.scenarios.find((r) => r.id === applies.id)).toMatchObject({
      reason: 'nothing to check here',
      skip: { kind: 'not-applicable' },
    })
    expect(report.summary.emulatorOnly).toBe(skipped.filter((r) => r.skip?.kind.endsWith('-only')).length)
    expect(report.summary.emulatorOnly).toBeGreaterThan(0)
  })

  it('prints no "Projects this run created" heading when the run created nothing', async () => {
    const { code, out } = await cli(...deployment(), '--grep', '^teams\\.')
    expect(code).toBe(0)
    expect(out).not.toContain('Projects this run created')
    const report = await runConformance({ grep: '^teams\\.', seed: 1 })
    expect(report.createdProjects).toEqual([])
    expect(summaryText(report)).not.toContain('Projects this run created')
  })
})

describe('the list of projects a run created', () => {
  it('says the names carry the run prefix and the slugs are the server’s choice', async () => {
    const report = await runConformance({ grep: '^projects\\.rename$', seed: 1 })
    expect(report.createdProjects.length).toBeGreaterThan(0)
    const text = summaryText(report)
    expect(text).toContain(
      `Projects this run created, by slug (the API has no delete; their names start with "conformance-${report.runId}", their slugs are the server's choice):`,
    )
    for (const slug of report.createdProjects) expect(text).toContain(`  ${slug}`)
  })
})
