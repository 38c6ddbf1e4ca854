import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { XMLParser } from 'fast-xml-parser'
import { describe, expect, it } from 'vitest'
import { main, REPORT_FORMAT, runConformance, SCENARIOS, selectScenarios, type Report } from '../../conformance/index.js'
import { createEmulator } from '../../src/index.js'
import { brokenEmulator, DEFECTS } from './variants.js'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Runs the CLI in-process, capturing its output. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', ...args], { out: (t) => void (out += t), err: (t) => void (err += t) })
  return { code, out, err }
}

function expectAllPassed(report: Report): void {
  const bad = report.scenarios
    .filter((s) => s.outcome !== 'pass')
    .map(
      (s) =>
        `${s.id} ${s.outcome}: ${s.reason ?? s.failures.map((f) => `${f.clause}: ${f.message} (${f.expected} / ${f.actual})`).join('; ')}`,
    )
  expect(bad).toEqual([])
}

describe('the kit against the emulator', () => {
  it('passes every spec check and every emulator check in-process', async () => {
    const report = await runConformance({ seed: 1 })
    expectAllPassed(report)
    expect(report.summary).toMatchObject({ failed: 0, skipped: 0, total: SCENARIOS.length })
    expect(report.scenarios.some((s) => s.kind === 'emulator')).toBe(true)
    expect(report.target).toEqual({ kind: 'in-process', baseUrl: 'http://127.0.0.1:4010/v1', emulator: true, controlPlane: true })
    // Every operation × documented status is exercised (the 429s and 500s of every operation included).
    const notCovered = report.coverage.filter((row) => row.state !== 'exercised')
    expect(notCovered.map((r) => `${r.operationId} ${r.status}`)).toEqual([])
    expect(report.coverage.length).toBeGreaterThan(80)
    // Coverage comes from the exchanges: each exercised pair names the scenarios answered with it, and a
    // spec scenario declares in `covers` every pair it exercised (so a skipped one is reported as the
    // reason a pair went unexercised, never as "not covered").
    const undeclared: string[] = []
    for (const row of report.coverage) {
      expect(row.scenarios?.length, `${row.operationId} ${row.status}`).toBeGreaterThan(0)
      for (const id of row.scenarios ?? []) {
        const scenario = SCENARIOS.find((s) => s.id === id)!
        if (scenario.kind === 'spec' && !(scenario.covers ?? []).some(([op, status]) => op === row.operationId && status === row.status))
          undeclared.push(`${id}: ${row.operationId} ${row.status}`)
      }
    }
    expect(undeclared).toEqual([])
    expect(report.coverage.find((r) => r.operationId === 'updateSlide' && r.status === 400)?.scenarios).toContain('slides.update')
    expect(report.createdProjects.length).toBeGreaterThan(20)
  })

  it('runs against an in-process app’s fetch as a deployment, skipping what needs more with the reason', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    const report = await runConformance({
      fetch: emulator.fetch,
      baseUrl: 'http://127.0.0.1:4010/v1',
      apiKey: 'pres_test_alice_acme',
      seed: 3,
      grep: /^(auth|teams|templates|projects|slides)\./,
    })
    expect(report.target).toMatchObject({ kind: 'deployment', emulator: false, controlPlane: false })
    const skipped = report.scenarios.filter((s) => s.outcome === 'skip')
    expect(skipped.map((s) => s.id)).toEqual(expect.arrayContaining(['auth.revoked-key', 'projects.create', 'projects.rename']))
    expect(skipped.find((s) => s.id === 'projects.create')!.reason).toBe('creates or changes projects: pass --allow-writes')
    expect(skipped.find((s) => s.id === 'auth.revoked-key')!.reason).toBe('needs a revoked key: pass --revoked-key')
    expect(report.scenarios.filter((s) => s.outcome === 'fail')).toEqual([])
    expect(report.createdProjects).toEqual([])
    // What the skipped scenarios would have exercised is "skipped", with the scenario and its reason.
    const row = (op: string, status: number) => report.coverage.find((r) => r.operationId === op && r.status === status)!
    for (const [op, status] of [
      ['updateSlide', 400],
      ['updateSlide', 404],
      ['startSlideEditing', 400],
      ['startSlideEditing', 404],
      ['stopSlideEditing', 404],
      ['renameProject', 400],
    ] as const) {
      expect(row(op, status), `${op} ${status}`).toMatchObject({ state: 'skipped', reason: expect.stringContaining('pass --allow-writes') })
    }
    expect(row('listTeams', 200)).toMatchObject({ state: 'exercised', scenarios: expect.arrayContaining(['auth.valid-key', 'teams.list']) })
  })

  it('selects scenarios by grep and splits them into disjoint shards that cover all', () => {
    const all = SCENARIOS.map((s) => s.id)
    const shards = [1, 2, 3].map((index) => selectScenarios(SCENARIOS, undefined, { index, count: 3 }).map((s) => s.id))
    expect(shards.flat().sort()).toEqual([...all].sort())
    expect(new Set(shards.flat()).size).toBe(all.length)
    expect(selectScenarios(SCENARIOS, '^rate-limit').map((s) => s.id)).toEqual([
      'rate-limit.429',
      'rate-limit.per-user',
      'rate-limit.every-operation',
    ])
    expect(new Set(all).size).toBe(all.length)
  })
})

describe('the presentation-conformance CLI', () => {
  it('exits 0 and prints each scenario, the coverage and the seed to replay', async () => {
    const { code, out } = await cli('--grep', '^(teams|auth)\\.', '--seed', '42')
    expect(code).toBe(0)
    expect(out).toMatch(
      /^presentation-conformance \S+ · in-process emulator \(http:\/\/127\.0\.0\.1:4010\/v1\) · seed 42 · run \w+ · 6 scenarios/,
    )
    expect(out).toContain('✓ auth.missing-key')
    expect(out).toContain('Coverage (operation × documented status')
    expect(out).toContain('replay with --seed 42')
  })

  it('exits 2 on a configuration error: a bad flag, an unreachable target, a rejected key, nothing able to run', async () => {
    expect((await cli('--bogus')).code).toBe(2)
    expect((await cli('--shard', '4/3')).code).toBe(2)
    expect((await cli('--base-url', 'not a url')).code).toBe(2)
    expect((await cli('--target', 'http', '--base-url', 'http://127.0.0.1:1/v1')).code).toBe(2)
    const unreachable = await cli('--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x')
    expect(unreachable.code).toBe(2)
    expect(unreachable.err).toContain('unreachable')
    const server = await createEmulator({ rateLimit: 0 }).listen({ port: 0 })
    try {
      const rejected = await cli('--base-url', `${server.origin}/v1`, '--api-key', 'pres_no_such_key')
      expect(rejected.code).toBe(2)
      expect(rejected.err).toContain('rejects the API key')
      const nothing = await cli('--base-url', `${server.origin}/v1`, '--api-key', 'pres_test_alice', '--grep', '^emulator\\.')
      expect(nothing.code).toBe(2)
      expect(nothing.err).toContain('no scenario was able to run')
      // A deployment run with no writes says loudly that most scenarios did not run.
      const mostly = await cli(
        '--base-url',
        `${server.origin}/v1`,
        '--api-key',
        'pres_test_alice',
        '--grep',
        '^(projects|config|slides)\\.',
      )
      expect(mostly.out).toContain('this run proves little')
    } finally {
      await server.close()
    }
    expect((await cli('--grep', 'nothing-matches-this')).code).toBe(2)
  })

  it('exits 1 on a failure and writes JUnit XML that CI systems read', async () => {
    const defect = DEFECTS.find((d) => d.scenario === 'config.merge')!
    const emulator = brokenEmulator(defect)
    const server = await emulator.listen({ port: 0 })
    const dir = mkdtempSync(join(tmpdir(), 'pe-kit-'))
    try {
      const file = join(dir, 'junit.xml')
      const args = [
        '--base-url',
        `${server.origin}/v1`,
        '--control-url',
        `${server.origin}/_emulator`,
        '--no-emulator-checks',
        '--allow-writes',
        '--grep',
        '^config\\.',
        '--seed',
        '4',
      ]
      const { code, out } = await cli(...args, '--reporter', 'junit', '--output', file)
      expect(code).toBe(1)
      expect(out).toContain('✗ config.merge')
      expect(out).toContain('MUST  Endpoints › Projects › PUT /projects/{slug}/config (updateProjectConfig)')
      expect(out).toMatch(
        /reproduce: curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/v1\/projects\/[^']+\/config' -H "Authorization: Bearer \$PRESENTATION_API_KEY"/,
      )
      const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(readFileSync(file, 'utf8'))
      // The distinct problems open the file; then one test case per scenario.
      const suites = [xml.testsuites.testsuite].flat()
      expect(suites.map((s: any) => s.name)).toEqual(['distinct problems', 'spec checks'])
      expect(suites[1]).toMatchObject({ tests: '2', failures: '2' })
      expect(Number(xml.testsuites.failures)).toBe(2 + Number(suites[0].failures))
      const cases = [suites[1].testcase].flat()
      const failed = cases.find((c: any) => c.failure !== undefined && c.name.startsWith('config.merge'))
      expect(failed.name).toMatch(/^config\.merge — /)
      expect(failed.failure['#text']).toContain('a key the second body left out (layout) is kept')
      expect(failed.failure.message).toContain('updateProjectConfig')
    } finally {
      await server.close()
    }
  })

  it('writes a versioned JSON report', async () => {
    const { code, out } = await cli('--grep', '^teams\\.', '--reporter', 'json', '--seed', '9')
    expect(code).toBe(0)
    const report = JSON.parse(out) as Report
    expect(report.format).toBe(REPORT_FORMAT)
    expect(report).toMatchObject({ seed: 9, summary: { passed: 1, failed: 0, total: 1 } })
    expect(report.scenarios[0]).toMatchObject({ id: 'teams.list', kind: 'spec', outcome: 'pass' })
  })

  it('turns a run into a baseline: listed failures pass, new ones fail, fixed ones are stale', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-baseline-'))
    const baseline = join(dir, 'baseline.json')
    const defect = DEFECTS.find((d) => d.scenario === 'config.merge')!
    const broken = await brokenEmulator(defect).listen({ port: 0 })
    const healthy = await createEmulator({ clock: 'manual' }).listen({ port: 0 })
    const target = (server: { origin: string }) => [
      '--base-url',
      `${server.origin}/v1`,
      '--control-url',
      `${server.origin}/_emulator`,
      '--no-emulator-checks',
      '--allow-writes',
      '--seed',
      '1',
    ]
    try {
      // Replacing instead of merging breaks both config scenarios.
      expect((await cli(...target(broken), '--grep', '^config\\.', '--write-baseline', baseline)).code).toBe(1)
      const written = JSON.parse(readFileSync(baseline, 'utf8'))
      expect(written.format).toBe('presentation-conformance/baseline@1')
      expect(Object.keys(written.expectedFailures)).toEqual(['config.merge', 'config.bounds'])
      expect(written.expectedFailures['config.merge']).toEqual({
        clauses: ['Endpoints › Projects › PUT /projects/{slug}/config (updateProjectConfig)'],
      })
      const listed = await cli(...target(broken), '--grep', '^config\\.', '--expected-failures', baseline)
      expect(listed.code).toBe(0)
      expect(listed.out).toContain('○ config.merge')
      // A failure the baseline does not list fails the run.
      writeFileSync(
        baseline,
        JSON.stringify({ ...written, expectedFailures: { 'config.merge': written.expectedFailures['config.merge'] } }),
      )
      expect((await cli(...target(broken), '--grep', '^config\\.', '--expected-failures', baseline)).code).toBe(1)
      const stale = await cli(...target(healthy), '--grep', '^config\\.merge$', '--expected-failures', baseline)
      expect(stale.code).toBe(1)
      expect(stale.out).toContain('STALE')
      writeFileSync(baseline, '{"format":"nope"}')
      expect((await cli('--expected-failures', baseline)).code).toBe(2)
    } finally {
      await broken.close()
      await healthy.close()
    }
  })
})

describe('the kit judges from outside', () => {
  const files = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)))

  it('imports from src/ only its public entries: the package, the client and the schemas (and the exit codes and reporter syntax both bins share)', () => {
    // The exit-code table is a leaf of constants (it imports nothing), shared so both bins exit alike.
    // So is the one reporter syntax (src/cli/reporter.ts): it imports nothing of src/ either.
    const allowed = new Set(['src/index.js', 'src/client/index.js', 'src/schemas/index.js', 'src/cli/exit-codes.js', 'src/cli/reporter.js'])
    expect(readFileSync(join(root, 'src/cli/exit-codes.ts'), 'utf8')).not.toMatch(/^import /m)
    expect(readFileSync(join(root, 'src/cli/reporter.ts'), 'utf8')).not.toMatch(/^import .* from '\.\.?\//m)
    for (const file of files('conformance')) {
      const text = readFileSync(join(root, file), 'utf8')
      for (const match of text.matchAll(/from '((?:\.\.\/)+src\/[^']+)'|import\('((?:\.\.\/)+src\/[^']+)'/g)) {
        const target = relative(root, join(root, file, '..', (match[1] ?? match[2])!))
        expect(allowed.has(target), `${file} imports ${target}`).toBe(true)
      }
    }
  })

  it('is never imported by src/', () => {
    for (const file of files('src')) expect(readFileSync(join(root, file), 'utf8'), file).not.toMatch(/conformance\//)
  })
})
