/**
 * Model-based walks: every seeded sequence defect is found and shrunk to at
 * most 6 steps within a bounded number of runs at a fixed seed; the emulator
 * itself and the spec-legal server (as a deployment) diverge nowhere.
 */
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { execFile } from 'node:child_process'
import { tmpdir } from 'node:os'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { main } from '../../conformance/cli.js'
import { firstDivergence, runWalk } from '../../conformance/walk/walk.js'
import { contains } from '../../conformance/walk/sides.js'
import { LIVE_KEYS, specLegalEmulator } from '../conformance/variants.js'
import { SEQUENCE_DEFECTS, sequenceDefectEmulator } from './sequence-defects.js'

const BASE = 'http://127.0.0.1:4010/v1'
const CONTROL = 'http://127.0.0.1:4010/_emulator'

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', 'walk', ...args], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  })
  return { code, out, err }
}

describe('a walk finds each sequence defect and shrinks it', () => {
  it.each(SEQUENCE_DEFECTS.map((defect) => [defect.name, defect] as const))(
    '%s',
    async (_, defect) => {
      const emulator = sequenceDefectEmulator(defect)
      const result = await runWalk({
        fetch: emulator.fetch,
        baseUrl: BASE,
        controlUrl: CONTROL,
        allowWrites: true,
        runs: 1000,
        steps: 20,
        seed: 6,
      })
      const ce = result.counterexample
      expect(ce, `not found in ${result.runs} runs`).toBeDefined()
      expect(ce!.steps.length, ce!.steps.map((s) => s.description).join(' → ')).toBeLessThanOrEqual(6)
      const last = ce!.steps.at(-1)!
      expect(last.divergence).toBeDefined()
      // Every step shows its request, and the sequence can be replayed.
      // Each curl reads the key of the side that sent it, never a key written out.
      const variable = { main: '$PRESENTATION_API_KEY', other: '$PRESENTATION_OTHER_TEAM_KEY' } as Record<string, string>
      for (const step of ce!.steps) {
        step.target.curls.forEach((curl, i) => {
          const key = step.target.exchanges[i]!.key
          if (key === 'none') expect(curl).not.toContain('Authorization')
          else expect(curl).toContain(`Authorization: Bearer ${variable[key]}"`)
        })
      }
      const again = await runWalk({
        fetch: sequenceDefectEmulator(defect).fetch,
        baseUrl: BASE,
        controlUrl: CONTROL,
        allowWrites: true,
        replay: ce!.replay,
      })
      expect(again.counterexample?.steps.at(-1)?.divergence?.fact).toBe(last.divergence!.fact)
    },
    60_000,
  )
})

describe('a walk on a busy account', () => {
  it('checks the list against the run’s own projects however many other projects the account holds', async () => {
    // 40 published projects before the walk starts: more than a list with limit 1 shows in the pages
    // the run's own projects fill, so the walk must look for them in pages of 100.
    const defect = SEQUENCE_DEFECTS.find((d) => d.name === 'an unpublished project stays in the published=true list')!
    const emulator = sequenceDefectEmulator(defect)
    const key = 'pres_test_alice_acme'
    const send = (path: string, method: string, body?: unknown) =>
      emulator.fetch(`${BASE}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    for (let i = 0; i < 40; i++) {
      const made = (await (await send('/projects', 'POST', { name: `Older project ${i}` })).json()) as { projectSlug: string }
      expect((await send(`/projects/${made.projectSlug}/publish`, 'POST')).status).toBe(200)
    }
    const replay = [
      { op: 'publish', p: 0 },
      { op: 'unpublish', p: 0 },
      { op: 'list', published: true, limit: 1 },
    ] as const
    const result = await runWalk({ fetch: emulator.fetch, baseUrl: BASE, apiKey: key, allowWrites: true, replay: [...replay] })
    const last = result.counterexample?.steps.at(-1)
    expect(last?.divergence).toEqual({ fact: 'listed', target: [true], predicted: [false] })
    expect(last?.target.exchanges.some((e) => e.request.url.includes('limit=100'))).toBe(true)
    expect(result.unchecked).toEqual({})
  })
})

describe('a walk over a faithful server finds nothing', () => {
  it('finds nothing on the emulator over HTTP (--target http)', async () => {
    const result = await runWalk({ target: 'http', runs: 60, steps: 30, seed: 3 })
    expect(result.counterexample?.steps.map((s) => [s.description, s.divergence]) ?? []).toEqual([])
    expect(result.runs).toBe(60)
    expect(result.stepsRun).toBeGreaterThan(300)
  })

  it('finds nothing on a spec-legal server that chose differently, walked as a deployment', async () => {
    const server = specLegalEmulator()
    const clock = {
      now: async () => server.emulator.clock.now(),
      sleep: async (ms: number) => void (await server.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })),
    }
    const result = await runWalk({
      fetch: server.fetch,
      baseUrl: BASE,
      apiKey: LIVE_KEYS.main,
      otherTeamKey: LIVE_KEYS.other,
      allowWrites: true,
      clock,
      runs: 25,
      steps: 25,
      seed: 8,
    })
    expect(result.counterexample?.steps.map((s) => [s.description, s.divergence, s.target.facts, s.predicted]) ?? []).toEqual([])
    expect(result.target).toMatchObject({ kind: 'deployment', controlPlane: false })
  })

  it('finds nothing on a spec-legal server whose generation does not publish, walked as a deployment with generation', async () => {
    // The spec leaves whether generation publishes to the server: the walk learns it, never predicts it.
    const server = specLegalEmulator()
    const clock = {
      now: async () => server.emulator.clock.now(),
      sleep: async (ms: number) => void (await server.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })),
    }
    let generated = 0
    const fetch: typeof server.fetch = async (input, init) => {
      const response = await server.fetch(input, init)
      if (String(input instanceof Request ? input.url : input).endsWith('/projects/generate') && response.status === 200) generated++
      return response
    }
    const result = await runWalk({
      fetch,
      baseUrl: BASE,
      apiKey: LIVE_KEYS.main,
      otherTeamKey: LIVE_KEYS.other,
      allowWrites: true,
      allowGeneration: true,
      clock,
      runs: 40,
      steps: 25,
      seed: 8,
    })
    expect(result.counterexample?.steps.map((s) => [s.description, s.divergence, s.target.facts, s.predicted]) ?? []).toEqual([])
    expect(generated).toBeGreaterThanOrEqual(5)
  })

  it('holds no target to the oracle’s credits or to slides the spec leaves to the generator', async () => {
    // A server whose projects show no slides, on an account with three credits: generation soon
    // answers 402, and there is nothing to copy or edit. Both are the server's business.
    const emulator = createHookedEmulator(
      { clock: 'manual', rateLimit: 0 },
      { wrapOperation: ((id: string, handler: unknown) => (id === 'listSlides' ? async () => ({ slides: [] }) : handler)) as never },
    )
    const account = await emulator.control.createAccount({ name: 'few credits', credits: 3 })
    const clock = {
      now: async () => emulator.emulator.clock.now(),
      sleep: async (ms: number) => void (await emulator.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })),
    }
    const result = await runWalk({
      fetch: emulator.fetch,
      baseUrl: BASE,
      apiKey: account.apiKey,
      allowWrites: true,
      allowGeneration: true,
      clock,
      runs: 40,
      steps: 25,
      seed: 8,
    })
    expect(result.counterexample?.steps.map((s) => [s.description, s.divergence, s.target.facts, s.predicted]) ?? []).toEqual([])
    const notes = Object.keys(result.unchecked).join('\n')
    expect(notes).toMatch(/no credits left/)
    expect(notes).toMatch(/no slides/)
  })
})

describe('the walk’s comparison', () => {
  it('compares only facts both sides state, the status first', () => {
    expect(firstDivergence({ status: 200, a: 1 }, { status: 200, a: 1, b: 2 })).toBeUndefined()
    expect(firstDivergence({ status: 404, a: 2 }, { status: 200, a: 1 })).toEqual({ fact: 'status', target: 404, predicted: 200 })
    expect(firstDivergence({ status: 200, a: 2 }, { status: 200, a: 1 })).toEqual({ fact: 'a', target: 2, predicted: 1 })
  })

  it('holds a deep merge to containing what was written, not to replacing', () => {
    expect(contains({ tokens: { palette: [1], fonts: [2] } }, { tokens: { palette: [1] } })).toBe(true)
    expect(contains({ tokens: { palette: [1, 3] } }, { tokens: { palette: [1] } })).toBe(false)
    expect(contains({ layout: 'CARD' }, { layout: 'SLIDES' })).toBe(false)
  })
})

describe('presentation-conformance walk', () => {
  it('exits 1 on a divergence, saves a replay file and a curl script, and replays it', async () => {
    const defect = SEQUENCE_DEFECTS.find((d) => d.name.startsWith('a second rename'))!
    const server = await sequenceDefectEmulator(defect).listen({ port: 0 })
    const dir = mkdtempSync(join(tmpdir(), 'pe-walk-'))
    const file = join(dir, 'ce.json')
    try {
      const target = ['--base-url', `${server.origin}/v1`, '--control-url', `${server.origin}/_emulator`, '--allow-writes']
      const found = await cli(...target, '--runs', '200', '--steps', '10', '--seed', '11', '--counterexample', file)
      expect(found.code).toBe(1)
      expect(found.out).toMatch(/DIVERGENCE after [2-6] step\(s\)/)
      expect(found.out).toContain('✗')
      expect(found.out).toContain(`--replay ${file}`)
      // Every step shows its request (with its body), the answer and what the model predicted, in bounded lines.
      const counterexample = found.out.slice(found.out.indexOf('DIVERGENCE'), found.out.indexOf('Replay it'))
      const blocks = counterexample.split(/\n(?=[ ✗] +\d+\. )/).slice(1)
      expect(blocks.length).toBeGreaterThanOrEqual(2)
      for (const block of blocks) {
        expect(block).toMatch(/\n {8}(GET|POST|PUT|PATCH|DELETE) \/projects\S*( \{.*\})?\n {10}→ \d{3} \S/)
        expect(block).toMatch(/\n {8}((predicted and seen|agreed): status \d{3}|✗ status: )/)
        for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(260)
      }
      expect(blocks.some((block) => /PATCH \/projects\/\S+ \{"name":/.test(block))).toBe(true)
      expect(blocks.at(-1)).toMatch(/\n {8}✗ \w+: the target’s is .*; the spec requires /)
      const saved = JSON.parse(readFileSync(file, 'utf8'))
      expect(saved).toMatchObject({ format: 'presentation-conformance/walk-replay@1', seed: 11 })
      expect(readFileSync(file.replace(/\.json$/, '.sh'), 'utf8')).toMatch(/^#!\/bin\/sh[\s\S]*call "\$PRESENTATION_API_KEY" PATCH/)
      const replayed = await cli(...target, '--replay', file, '--reporter', 'json')
      expect(replayed.code).toBe(1)
      expect(JSON.parse(replayed.out).counterexample.steps.length).toBe(saved.steps.length + 1)
    } finally {
      await server.close()
    }
  })

  it('writes a curl script that replays the sequence on projects it makes afresh', async () => {
    const defect = SEQUENCE_DEFECTS.find((d) => d.name.startsWith('a second rename'))!
    const server = await sequenceDefectEmulator(defect).listen({ port: 0 })
    const dir = mkdtempSync(join(tmpdir(), 'pe-walk-script-'))
    const file = join(dir, 'ce.json')
    try {
      const found = await cli(
        '--base-url',
        `${server.origin}/v1`,
        '--control-url',
        `${server.origin}/_emulator`,
        '--allow-writes',
        '--runs',
        '200',
        '--steps',
        '10',
        '--seed',
        '11',
        '--counterexample',
        file,
        '--reporter',
        'json',
        '--output',
        join(dir, 'result.json'),
      )
      expect(found.code).toBe(1)
      const result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8'))
      const scriptFile = file.replace(/\.json$/, '.sh')
      const script = readFileSync(scriptFile, 'utf8')
      // No slug of the walk's own run is written into the script: each is read from an answer.
      for (const slug of result.createdProjects) expect(script).not.toContain(slug)
      const run = promisify(execFile)
      const { stdout } = await run('bash', [scriptFile], { env: { ...process.env, PRESENTATION_API_KEY: 'pres_test_alice_acme' } })
      // The script made its own project and acted on it: the second rename moved its slug, so the step
      // after it finds nothing (404), as in the walk.
      const made = [...stdout.matchAll(/"projectSlug":"([^"]+)"/g)].map((m) => m[1]!)
      expect(made.length).toBeGreaterThan(0)
      for (const slug of made) expect(result.createdProjects).not.toContain(slug)
      const requests = [...stdout.matchAll(/^(GET|POST|PUT|PATCH|DELETE) (\S+) -> (\d+)$/gm)].map((m) => ({
        url: m[2]!,
        status: Number(m[3]),
      }))
      expect(requests.length).toBe(result.counterexample.steps.flatMap((s: any) => s.target.exchanges).length)
      expect(requests.slice(1).every((r) => made.some((slug) => r.url.includes(slug)) || !r.url.includes('/projects/'))).toBe(true)
      expect(requests.at(-1)!.status).toBe(result.counterexample.steps.at(-1).target.exchanges.at(-1).response.status)
      expect(stdout).toMatch(/diverged in the walk/)
    } finally {
      await server.close()
    }
  })

  it('refuses a malformed replay file with exit 2, naming the file and what is wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pe-walk-replay-'))
    const format = 'presentation-conformance/walk-replay@1'
    const cases: Array<[string, string, RegExp]> = [
      ['unknown-op.json', JSON.stringify({ format, seed: 1, steps: [{ op: 'foo' }] }), /steps\[0\]\.op: .*'create'/],
      [
        'rename-without-fields.json',
        JSON.stringify({ format, seed: 1, steps: [{ op: 'create', name: 'A' }, { op: 'rename' }] }),
        /steps\[1\]\.p: .*steps\[1\]\.name:/,
      ],
      ['not-json.json', 'steps: rename', /is not JSON/],
      ['a-step.json', JSON.stringify({ op: 'foo' }), /format: /],
      ['steps-not-a-list.json', JSON.stringify({ format, seed: 1, steps: { op: 'detail', p: 0 } }), /steps: .*array/],
      ['limit-out-of-bounds.json', JSON.stringify({ format, seed: 1, steps: [{ op: 'list', limit: 0 }] }), /steps\[0\]\.limit: /],
    ]
    for (const [name, text, problem] of cases) {
      const file = join(dir, name)
      writeFileSync(file, text)
      const run = await cli('--target', 'http', '--replay', file)
      expect(run.code, `${name}: ${run.err}`).toBe(2)
      expect(run.err).toContain(file)
      expect(run.err).toMatch(problem)
      expect(run.err).not.toMatch(/TypeError|at .*\.ts:\d+/)
    }
    // The library checks the steps it is given too.
    await expect(runWalk({ target: 'http', replay: [{ op: 'rename' }] as never })).rejects.toThrow(/not walk steps: step\[0\]\.p: /)
  })

  it('exits 0 with no divergence and 2 on a configuration error', async () => {
    expect((await cli('--target', 'http', '--runs', '3', '--steps', '5', '--seed', '1')).code).toBe(0)
    expect((await cli('--runs', '0')).code).toBe(2)
    expect((await cli('--time-budget', 'soon')).code).toBe(2)
    const readOnly = await cli('--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x')
    expect(readOnly.code).toBe(2)
  })
})
