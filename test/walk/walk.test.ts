/**
 * Model-based walks, the fast part (`npm test`): every seeded sequence
 * defect is found within the default run count at one seed and shrunk to at
 * most 6 steps; the emulator and every spec-legal server (as deployments)
 * diverge nowhere. The sweep over seeds 1 to 10 is `npm run test:walks`.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { main } from '../../conformance/cli.js'
import { contains } from '../../conformance/facts/compare.js'
import type { WalkStep } from '../../conformance/walk/steps.js'
import { DEFAULT_RUNS, DEFAULT_STEPS, firstDivergence, runWalk, shrink } from '../../conformance/walk/walk.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { manualClockOf, SPEC_LEGAL_SERVERS } from '../conformance/variants.js'
import { SEQUENCE_DEFECTS, sequenceDefectEmulator, walkDefect } from './sequence-defects.js'

const BASE = 'http://127.0.0.1:4010/v1'

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(['node', 'presentation-conformance', 'walk', ...args], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
  })
  return { code, out, err }
}

const divergences = (result: Awaited<ReturnType<typeof runWalk>>) =>
  result.counterexample?.steps.map((s) => [s.description, s.divergence, s.target.exchanges.map((e) => e.response.body.slice(0, 200))]) ?? []

describe('a walk finds each sequence defect within the default run count and shrinks it', () => {
  it('has at least twelve sequence defects, a duplicate sharing slide files and a republish that does nothing among them', () => {
    expect(SEQUENCE_DEFECTS.length).toBeGreaterThanOrEqual(12)
    expect(SEQUENCE_DEFECTS.map((d) => d.name)).toEqual(
      expect.arrayContaining(['a duplicate shares its slides’ files with its source', 'a republish does nothing']),
    )
    expect(new Set(SEQUENCE_DEFECTS.map((d) => d.name)).size).toBe(SEQUENCE_DEFECTS.length)
  })

  it.each(SEQUENCE_DEFECTS.map((defect) => [defect.name, defect] as const))(
    '%s (seed 1)',
    async (_, defect) => {
      const result = await walkDefect(defect, 1)
      const ce = result.counterexample
      expect(ce, `not found in ${result.runs} runs`).toBeDefined()
      expect(result.runs).toBeLessThanOrEqual(DEFAULT_RUNS)
      expect(ce!.steps.length, ce!.steps.map((s) => s.description).join(' → ')).toBeLessThanOrEqual(6)
      const last = ce!.steps.at(-1)!
      expect(last.divergence).toBeDefined()
      // Each curl reads the key of the side that sent it, never a key written out.
      const variable = { main: '$PRESENTATION_API_KEY', other: '$PRESENTATION_OTHER_TEAM_KEY' } as Record<string, string>
      for (const step of ce!.steps) {
        step.target.curls.forEach((curl, i) => {
          const key = step.target.exchanges[i]!.key
          if (key === 'none') expect(curl).not.toContain('Authorization')
          else expect(curl).toContain(`Authorization: Bearer ${variable[key]}"`)
        })
      }
      // The saved steps replay to the same divergence.
      const again = await runWalk({
        fetch: sequenceDefectEmulator(defect).fetch,
        baseUrl: BASE,
        controlUrl: 'http://127.0.0.1:4010/_emulator',
        allowWrites: true,
        replay: ce!.replay,
      })
      expect(again.counterexample?.steps.at(-1)?.divergence?.fact).toBe(last.divergence!.fact)
    },
    120_000,
  )
})

describe('a walk on a busy account', () => {
  it('finds the run’s own projects however many others come first in the list, and judges the whole list', async () => {
    // Oldest first, 150 older projects: a walk's projects are beyond the pages its own projects fill, so
    // the list step walks on in pages of 100. This server leaves published projects out of published=true
    // whenever their name says "Walk start": only a walk to the end of the list shows it.
    const emulator = createHookedEmulator(
      { clock: 'manual', rateLimit: 0 },
      {
        wrapOperation: ((id: string, handler: (ctx: any) => Promise<any>) =>
          id !== 'listProjects'
            ? handler
            : async (ctx: any) => {
                const page = await handler({ ...ctx, query: { ...ctx.query, limit: 1_000, cursor: undefined } })
                const all = [...page.projects]
                  .sort((a: any, b: any) => (a.id < b.id ? -1 : 1))
                  .filter((p: any) => ctx.query.published !== 'true' || !p.name.includes('Walk start'))
                const offset = Number(ctx.query.cursor ?? 0)
                const projects = all.slice(offset, offset + ctx.query.limit)
                const next = offset + ctx.query.limit
                return next < all.length ? { projects, nextCursor: String(next) } : { projects }
              }) as never,
      },
    )
    const account = await emulator.control.createAccount({ name: 'busy' })
    const headers = { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' }
    for (let i = 0; i < 150; i++) {
      const made = await emulator.fetch(`${BASE}/projects`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Older project ${i}` }),
      })
      const { projectSlug } = (await made.json()) as { projectSlug: string }
      await emulator.fetch(`${BASE}/projects/${projectSlug}/publish`, { method: 'POST', headers })
    }
    const replay: WalkStep[] = [
      { op: 'publish', p: 0 },
      { op: 'list', published: true, limit: 5 },
    ]
    const result = await runWalk({ fetch: emulator.fetch, baseUrl: BASE, apiKey: account.apiKey, allowWrites: true, replay })
    const last = result.counterexample?.steps.at(-1)
    expect(last?.divergence).toMatchObject({ fact: 'list.membership', target: 'not listed', predicted: 'listed' })
    expect(last?.target.exchanges.some((e) => e.request.url.includes('limit=100'))).toBe(true)
    expect(result.unchecked).toEqual({})
  })
})

describe('a walk over a faithful server finds nothing', () => {
  it('finds nothing on the emulator over HTTP (--target http)', async () => {
    const result = await runWalk({ target: 'http', runs: 40, steps: 30, seed: 3 })
    expect(divergences(result)).toEqual([])
    expect(result.runs).toBe(40)
    expect(result.stepsRun).toBeGreaterThan(300)
    expect(result.requests).toBeGreaterThan(result.stepsRun)
  })

  it.each(SPEC_LEGAL_SERVERS.map((server) => [server.name, server] as const))(
    'finds nothing on %s, walked as a deployment with generation (its own choices learned)',
    async (_, legal) => {
      const server = legal.make()
      let generated = 0
      const fetch: typeof server.fetch = async (input, init) => {
        const response = await server.fetch(input, init)
        if (String(input instanceof Request ? input.url : input).endsWith('/projects/generate') && response.status === 200) generated++
        return response
      }
      const result = await runWalk({
        fetch,
        baseUrl: BASE,
        apiKey: legal.keys.main,
        otherTeamKey: legal.keys.other,
        allowWrites: true,
        allowGeneration: true,
        clock: manualClockOf(server),
        runs: 30,
        // A seed whose walk tries more generations than the cap (which seeds do moves whenever the motifs change).
        seed: 12,
      })
      expect(divergences(result)).toEqual([])
      expect(result.target).toMatchObject({ kind: 'deployment', controlPlane: false })
      // However many runs, generations stay within the cap, and the result counts them.
      expect(generated).toBe(2)
      expect(result.generations).toEqual({ started: 2, cap: 2 })
    },
    120_000,
  )

  it('holds no target to the oracle’s credits or to slides the spec leaves to the generator', async () => {
    // A server whose projects show no slides, on an account with one credit: the second generation
    // answers 402, and there is nothing to copy or edit. Both are the server's business.
    const emulator = createHookedEmulator(
      { clock: 'manual', rateLimit: 0 },
      { wrapOperation: ((id: string, handler: unknown) => (id === 'listSlides' ? async () => ({ slides: [] }) : handler)) as never },
    )
    const account = await emulator.control.createAccount({ name: 'few credits', credits: 1 })
    const target = {
      fetch: emulator.fetch,
      baseUrl: BASE,
      apiKey: account.apiKey,
      allowWrites: true,
      allowGeneration: true,
      maxGenerations: 3,
      clock: manualClockOf(emulator),
    }
    // A generated project without slides, a second generation refused, nothing to copy: none diverges, each is said.
    const replay: WalkStep[] = [
      { op: 'generate', prompt: 'A short deck about tides' },
      { op: 'updateSlide', p: 'last', slide: 0, file: 'slide.content.json', text: '{"title":"One","blocks":[]}' },
      { op: 'generate', prompt: 'Three slides on compost' },
      { op: 'copySlides' },
    ]
    const replayed = await runWalk({ ...target, replay })
    expect(divergences(replayed)).toEqual([])
    expect(Object.keys(replayed.unchecked).sort()).toEqual([
      'the generated project has no slides on the target: the oracle did not run this step',
      'the target has no credits left for a generation (402): the oracle did not run this step',
      'the target has no project with slides to copy: the oracle did not run this step',
    ])
    const walked = await runWalk({ ...target, runs: 40, seed: 8 })
    expect(divergences(walked)).toEqual([])
  })
})

describe('the walk’s comparison and shrinking', () => {
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

  it('shrinks by removing steps, keeping each on the project it acted on, then pointing steps at earlier projects', async () => {
    // A "defect" that needs a rename of project 0 followed by a read of project 0, among noise.
    const ran = [
      { step: { op: 'duplicate', p: 0 }, at: 0, made: 1 },
      { step: { op: 'rename', p: 'twin', name: 'A' }, at: 0, made: undefined },
      { step: { op: 'detail', p: 'last' }, at: 1, made: undefined },
      { step: { op: 'teams' }, at: undefined, made: undefined },
      { step: { op: 'detail', p: 'prev' }, at: 0, made: undefined },
    ] as const
    let replays = 0
    const result = await shrink(
      ran.map((r) => ({ ...r, step: { ...r.step } as WalkStep })),
      async (candidate) => {
        replays++
        const renamedAt = candidate.findIndex((s) => s.op === 'rename' && s.p === 0)
        const readAt = candidate.findIndex((s, i) => i > renamedAt && s.op === 'detail' && s.p === 0)
        if (renamedAt < 0 || readAt < 0) return undefined
        return candidate.slice(0, readAt + 1).map((step) => ({ step, at: 'p' in step ? Number(step.p) : undefined, made: undefined }))
      },
      100,
    )
    expect(result.steps).toEqual([
      { op: 'rename', p: 0, name: 'A' },
      { op: 'detail', p: 0 },
    ])
    expect(result.replays).toBe(replays)
  })
})

describe('presentation-conformance walk', () => {
  it('states its defaults: the run count detection is counted in, the time budget only an upper bound', async () => {
    expect([DEFAULT_RUNS, DEFAULT_STEPS]).toEqual([100, 30])
    const help = await cli('--help')
    const flat = help.out.replace(/\s+/g, ' ')
    expect(flat).toMatch(/--runs <n> sequences to try \(detection is counted in runs[^)]*\) \(default: 100\)/)
    expect(flat).toMatch(/--time-budget <duration> an upper bound: stop starting runs after this long/)
    expect(help.out).toMatch(/--max-generations <n>/)
  })

  it('exits 1 on a divergence, saves a replay file and a curl script, and replays it', async () => {
    const defect = SEQUENCE_DEFECTS.find((d) => d.name.startsWith('a second rename'))!
    const server = await sequenceDefectEmulator(defect).listen({ port: 0 })
    const dir = mkdtempSync(join(tmpdir(), 'pe-walk-'))
    const file = join(dir, 'ce.json')
    try {
      const target = ['--base-url', `${server.origin}/v1`, '--control-url', `${server.origin}/_emulator`, '--allow-writes']
      const found = await cli(...target, '--steps', '10', '--seed', '11', '--counterexample', file)
      expect(found.code).toBe(1)
      // The start line names the seed and the walk's fresh run id; the summary follows.
      expect(found.out).toMatch(
        /^presentation-conformance walk · seed 11 · run [a-z0-9]{6} \(what it creates is named conformance-[a-z0-9]{6}-…\)\n/,
      )
      expect(found.out).toMatch(
        /^walk · deployment \S+ · seed 11 · \d+ run\(s\) of at most 10 steps \(a scheduled motif's on top\) · \d+ steps · \d+ requests · /m,
      )
      expect(found.out).toMatch(/DIVERGENCE after [2-6] step\(s\) \(found in run \d+; shrunk from \d+ steps in \d+ replays/)
      expect(found.out).toContain(`--replay ${file}`)
      // Every step shows its request (with its body), the answer and the facts that held, in bounded lines.
      const counterexample = found.out.slice(found.out.indexOf('DIVERGENCE'), found.out.indexOf('Replay it'))
      const blocks = counterexample.split(/\n(?=[ ✗] +\d+\. )/).slice(1)
      expect(blocks.length).toBeGreaterThanOrEqual(2)
      for (const block of blocks) {
        expect(block).toMatch(/\n {8}(GET|POST|PUT|PATCH|DELETE) \/projects\S*( \{.*\})?\n {10}→ \d{3} \S/)
        if (block !== blocks.at(-1)) expect(block).toMatch(/\n {8}held: status \d{3}, json\.body/)
        for (const line of block.split('\n')) expect(line.length).toBeLessThanOrEqual(260)
      }
      expect(blocks.some((block) => /PATCH \/projects\/\S+ \{"name":/.test(block))).toBe(true)
      // The diverging step names the fact, what the spec requires, what the target answered, and the clause.
      expect(blocks.at(-1)).toMatch(
        /\n {8}✗ [\w.-]+( \(.*\))?: the spec requires .*; the target answered .*\n {10}.* — (Endpoints|Resources) › /,
      )
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
      expect(result).toMatchObject({ requests: expect.any(Number), generations: { started: 0, cap: 0 } })
      const scriptFile = file.replace(/\.json$/, '.sh')
      const script = readFileSync(scriptFile, 'utf8')
      // No slug of the walk's own run is written into the script: each is read from an answer.
      for (const slug of result.createdProjects) expect(script).not.toContain(slug)
      const run = promisify(execFile)
      const { stdout } = await run('bash', [scriptFile], { env: { ...process.env, PRESENTATION_API_KEY: 'pres_test_alice_acme' } })
      // The script made its own projects and acted on them, as the walk did.
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
      ['unknown-ref.json', JSON.stringify({ format, seed: 1, steps: [{ op: 'detail', p: 'first' }] }), /steps\[0\]\.p: /],
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
    expect((await cli('--max-generations', '-1')).code).toBe(2)
    const readOnly = await cli('--base-url', 'http://127.0.0.1:1/v1', '--api-key', 'x')
    expect(readOnly.code).toBe(2)
  })
})
