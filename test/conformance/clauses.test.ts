/**
 * Coverage by clause: every checkable item of the spec (conformance/spec-items.ts)
 * has a check or a written reason it cannot be checked from outside, and
 * every check it names is one the kit really makes: the scenario's check is
 * recorded and holds against the emulator, the fact holds on the kit's or a
 * walk's exchanges, the response schema refuses an answer without the field,
 * the operation is answered with the status.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { type CheckRecord, FACTS, main, type Report, runConformance, SCENARIOS, SPEC_ITEMS } from '../../conformance/index.js'
import { runWalk } from '../../conformance/walk/walk.js'
import { CONTENTS_ANCHOR, REFERENCE_CLAUSES, refOf } from '../../conformance/reference.js'
import { createEmulator } from '../../src/index.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { manualClockOf } from './variants.js'
import { type OperationId, operations } from '../../src/schemas/index.js'

let report: Report
const checks: CheckRecord[] = []
const heldInWalks = new Set<string>()

beforeAll(async () => {
  report = await runConformance({ seed: 1, onCheck: (check) => checks.push(check) })
  // What a failed job shows, on a server whose jobs all fail (the emulator's magic prompt, applied to every job).
  const failing = createHookedEmulator(
    { clock: 'manual', rateLimit: 0 },
    {
      transformRequest: ({ request, operationId }) => {
        if (operationId !== 'generateProject' || request.body === null) return request
        const body = JSON.parse(new TextDecoder().decode(request.body))
        return { ...request, body: new TextEncoder().encode(JSON.stringify({ ...body, prompt: `emulator:fail ${body.prompt}` })) }
      },
    },
  )
  const failed = await runConformance({
    fetch: failing.fetch,
    baseUrl: 'http://127.0.0.1:4010/v1',
    apiKey: 'pres_test_alice_acme',
    allowWrites: true,
    allowGeneration: true,
    clock: manualClockOf(failing),
    grep: /^generation\.lifecycle$/,
    seed: 1,
    onCheck: (check) => checks.push(check),
  })
  expect(failed.scenarios[0]!.outcome).toBe('pass')
  // Some facts are about sequences the kit's scenarios do not make (a copy's slide files, …): a walk makes them.
  await runWalk({
    seed: 1,
    runs: 40,
    onStep: (record) => {
      for (const id of record.target.held) heldInWalks.add(id)
    },
  })
}, 120_000)

describe('the spec’s checkable items', () => {
  it('have unique ids, and each a check or a reason it cannot be checked from outside', () => {
    expect(new Set(SPEC_ITEMS.map((i) => i.id)).size).toBe(SPEC_ITEMS.length)
    expect(SPEC_ITEMS.filter((i) => i.checks.length === 0 && i.unverifiable === undefined).map((i) => i.id)).toEqual([])
    // From the spec's structure: every numbered authentication rule, the limits rows, the transition rows, every
    // status of every endpoint the spec shows, the fields of every resource table.
    const ids = SPEC_ITEMS.map((i) => i.id)
    for (const n of [1, 2, 3, 4, 5, 6, 7, 8]) expect(ids).toContain(`auth.${n}`)
    expect(ids.filter((id) => id.startsWith('limits.')).length).toBe(9)
    expect(ids.filter((id) => id.startsWith('transition.')).length).toBe(8)
    expect(ids).toEqual(
      expect.arrayContaining([
        'status.renameProject.400',
        'status.renameProject.404',
        'status.generateProject.402',
        'status.generateProject.502',
      ]),
    )
    for (const resource of ['project', 'detail', 'job', 'template', 'team', 'slide', 'config', 'url', 'error'])
      expect(
        ids.some((id) => id.startsWith(`resource.${resource}.`)),
        resource,
      ).toBe(true)
  })

  it('name only scenarios and facts the kit has (facts the spec requires, not learned or never-judged ones)', () => {
    const scenarios = new Set(SCENARIOS.map((s) => s.id))
    const specFacts = new Set(FACTS.filter((f) => f.basis === 'spec').map((f) => f.id))
    for (const item of SPEC_ITEMS) {
      for (const check of item.checks) {
        if ('scenario' in check) expect(scenarios.has(check.scenario), `${item.id}: ${check.scenario}`).toBe(true)
        if ('fact' in check) expect(specFacts.has(check.fact), `${item.id}: ${check.fact}`).toBe(true)
      }
    }
  })

  it('every scenario check they name is made, and holds, against the emulator', () => {
    const missing: string[] = []
    for (const item of SPEC_ITEMS) {
      for (const check of item.checks) {
        if (!('scenario' in check)) continue
        const result = report.scenarios.find((s) => s.id === check.scenario)!
        const made = checks.filter((c) => c.scenario === check.scenario && (check.check === undefined || check.check.test(c.message)))
        if (result.outcome !== 'pass' || made.length === 0 || !made.every((c) => c.ok))
          missing.push(`${item.id}: ${check.scenario} ${check.check ?? ''} (${result.outcome}, ${made.length} checks)`)
      }
    }
    expect(missing).toEqual([])
  })

  it('every fact they name is judged, and holds, on the kit’s exchanges or a walk’s', () => {
    const missing: string[] = []
    for (const item of SPEC_ITEMS) {
      for (const check of item.checks) {
        if (!('fact' in check)) continue
        const fact = FACTS.find((f) => f.id === check.fact)!
        const judged = checks.filter((c) => c.message.startsWith(fact.statement))
        if (!judged.every((c) => c.ok) || (judged.length === 0 && !heldInWalks.has(fact.id))) missing.push(`${item.id}: ${fact.id}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('every operation × status they name is answered in a run against the emulator', () => {
    const missing: string[] = []
    for (const item of SPEC_ITEMS) {
      for (const check of item.checks) {
        if (!('status' in check)) continue
        const [operationId, status] = check.status
        const row = report.coverage.find((r) => r.operationId === operationId && r.status === status)
        if (row?.state !== 'exercised') missing.push(`${item.id}: ${operationId} ${status}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('every field they name is required by the response schema: the answer without it, or with another type, is refused', async () => {
    const answers = await realAnswers()
    const weak: string[] = []
    for (const item of SPEC_ITEMS) {
      for (const check of item.checks) {
        if (!('shape' in check)) continue
        const answer = answers.get(check.shape)
        expect(answer, `no answer of ${check.shape}`).toBeDefined()
        const schema = operations[check.shape].response
        expect(schema.safeParse(answer).success, `${check.shape} answers what its schema accepts`).toBe(true)
        for (const change of ['remove', 'retype'] as const) {
          const changed = structuredClone(answer)
          if (!alter(changed, check.field, change)) weak.push(`${item.id}: ${check.shape} has no ${check.field} to ${change}`)
          else if (schema.safeParse(changed).success)
            weak.push(`${item.id}: ${check.shape} accepts ${check.field} ${change === 'remove' ? 'removed' : 'of another type'}`)
        }
      }
    }
    expect(weak).toEqual([])
  })
})

describe('presentation-conformance coverage', () => {
  it('prints every item with its checks or its reason', async () => {
    let out = ''
    expect(await main(['node', 'presentation-conformance', 'coverage'], { out: (t) => void (out += t), err: () => undefined })).toBe(0)
    expect(out).toMatch(/^The spec’s checkable items: \d+, of which \d+ are checked/)
    for (const item of SPEC_ITEMS) expect(out).toContain(`${item.id}: ${item.text}`)
    expect(out).toContain('  – auth.4: 4. keys are made in the dashboard by a signed-in user; the value is shown once')
    expect(out).toContain('      not checkable from outside: the dashboard is outside the API')
    let json = ''
    await main(['node', 'presentation-conformance', 'coverage', '--reporter', 'json'], {
      out: (t) => void (json += t),
      err: () => undefined,
    })
    expect(JSON.parse(json)).toMatchObject({ format: 'presentation-conformance/spec-items@1', items: expect.any(Array) })
    expect(
      await main(['node', 'presentation-conformance', 'coverage', '--reporter', 'xml'], { out: () => undefined, err: () => undefined }),
    ).toBe(2)
  })
})

/** Splits `files.slide\.tsx` and `projects[].slug` into segments (an escaped dot stays in its segment). */
function segments(field: string): string[] {
  return field.split(/(?<!\\)\./).map((s) => s.replace(/\\\./g, '.'))
}

/** Removes the field, or gives it a value of another type, in the answer (each item of an array). False when it is not there. */
function alter(answer: unknown, field: string, change: 'remove' | 'retype'): boolean {
  const path = segments(field)
  const visit = (value: unknown, at: number): boolean => {
    const segment = path[at]!
    const many = segment.endsWith('[]')
    const key = many ? segment.slice(0, -2) : segment
    const holder = value as Record<string, unknown>
    if (typeof holder !== 'object' || holder === null || !(key in holder)) return false
    if (at === path.length - 1 && !many) {
      if (change === 'remove') delete holder[key]
      else holder[key] = otherType(holder[key])
      return true
    }
    if (many) {
      const list = holder[key]
      if (!Array.isArray(list) || list.length === 0) return false
      return list.every((element) => visit(element, at + 1))
    }
    return visit(holder[key], at + 1)
  }
  return visit(answer, 0)
}

function otherType(value: unknown): unknown {
  if (typeof value === 'string') return 42
  if (value === null) return 42
  if (typeof value === 'number' || typeof value === 'boolean') return 'not of its type'
  if (Array.isArray(value)) return { not: 'an array' }
  return 'not an object'
}

/** One real 200 answer of each operation, from the emulator's seeded world. */
async function realAnswers(): Promise<Map<OperationId, unknown>> {
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0, timeScale: 0 })
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
      method,
      headers: { authorization: 'Bearer pres_test_alice_acme', 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    expect(response.status, `${method} ${path}`).toBe(200)
    return (await response.json()) as Record<string, any>
  }
  const answers = new Map<OperationId, unknown>()
  answers.set('listTeams', await send('GET', '/teams'))
  const templates = await send('GET', '/projects/templates')
  answers.set('listTemplates', templates)
  const list = await send('GET', '/projects?limit=5')
  answers.set('listProjects', list)
  const slug = list.projects[0].slug as string
  answers.set('getProject', await send('GET', `/projects/${slug}`))
  answers.set('getProjectConfig', await send('GET', `/projects/${slug}/config`))
  const slides = await send('GET', `/projects/${slug}/slides`)
  answers.set('listSlides', slides)
  const created = await send('POST', '/projects', { name: 'Answers' })
  answers.set('createProject', created)
  const mine = created.projectSlug as string
  // A project of Acme's: its URL configuration lists Acme's domain too.
  answers.set('getProjectUrl', await send('GET', `/projects/${mine}/url`))
  answers.set('renameProject', await send('PATCH', `/projects/${mine}`, { name: 'Answers again' }))
  answers.set('updateProjectConfig', await send('PUT', `/projects/${mine}/config`, { config: { layout: 'CARD' } }))
  answers.set('duplicateProject', await send('POST', `/projects/${mine}/duplicate`))
  answers.set('publishProject', await send('POST', `/projects/${mine}/publish`))
  answers.set('unpublishProject', await send('DELETE', `/projects/${mine}/publish`))
  const params = `/projects/${slug}/slides/${slides.slides[0].id}`
  answers.set('updateSlide', await send('PUT', params, { files: { 'slide.content.json': '{"title":"A","blocks":[]}' } }))
  answers.set('startSlideEditing', await send('POST', `${params}/editing`, { agentName: 'Test' }))
  answers.set('stopSlideEditing', await send('DELETE', `${params}/editing`))
  const job = await send('POST', '/projects/generate', { prompt: 'Answers', templateId: templates.templates[0].id })
  answers.set('generateProject', job)
  answers.set('getJobStatus', await send('GET', `/projects/jobs/${job.jobId}`))
  await emulator.close()
  return answers
}

describe('the clauses of the checks the kit made', () => {
  it('each have a section of their own in the shipped reference (a finding’s ref)', () => {
    const clauses = [...new Set(checks.map((check) => check.clause))]
    expect(clauses.length).toBeGreaterThan(30)
    expect(clauses.filter((clause) => !REFERENCE_CLAUSES.includes(clause))).toEqual([])
    expect(clauses.filter((clause) => refOf(clause).endsWith(`#${CONTENTS_ANCHOR}`))).toEqual([])
  })
})
