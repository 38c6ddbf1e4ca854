import { describe, expect, it } from 'vitest'
import { RETRY_NOW } from '../../src/core/rate-limiter.js'
import { ListFaultsResponse } from '../../src/control/schemas.js'
import { defaultErrorCode } from '../../src/core/errors.js'
import { expectError, expectSchema, harnessPerTest, startHarness, WAYS } from '../support/harness.js'
import { creditsOf, expectBadInput, expectUnknown, rejection, stateText } from './support.js'

describe.each(WAYS)('control plane: faults (%s)', (way) => {
  const h = harnessPerTest(way)

  const addFault = async (json: Record<string, unknown>): Promise<string> => {
    const reply = await h.control('POST', '/faults', { json })
    expect(reply.status, reply.text).toBe(201)
    expect(reply.body).toEqual({ faultId: expect.any(String) })
    return reply.body.faultId
  }
  const faults = async () => expectSchema(ListFaultsResponse, (await h.control('GET', '/faults')).body).faults

  it('fires a fault once by default, with the error body and code, then answers normally', async () => {
    await addFault({ operationId: 'getProject', status: 500 })
    const broken = await h.api('GET', '/projects/welcome-deck')
    expectError(broken, 500, 'INTERNAL_ERROR')
    expect(broken.body).toEqual({ error: 'Internal server error', hint: expect.stringMatching(/^injected by fault /) })
    expect((await h.api('GET', '/projects/welcome-deck')).status).toBe(200)
    expect(await faults()).toEqual([])
  })

  it('fires a fault with times 2 exactly twice, then answers normally', async () => {
    const id = await addFault({ operationId: 'listProjects', status: 503, times: 2 })
    expectError(await h.api('GET', '/projects'), 503, 'HTTP_503')
    expect(await faults()).toEqual([expect.objectContaining({ id, times: 2, remaining: 1, hits: 1 })])
    expectError(await h.api('GET', '/projects'), 503, 'HTTP_503')
    expect(await faults()).toEqual([])
    expect((await h.api('GET', '/projects')).status).toBe(200)
    expect((await h.api('GET', '/projects')).status).toBe(200)
  })

  it('fires a fault with times 0 until it is removed', async () => {
    const id = await addFault({ operationId: 'listTeams', status: 502, times: 0 })
    for (let i = 0; i < 4; i++) expectError(await h.api('GET', '/teams'), 502, 'DISPATCH_FAILED')
    expect(await faults()).toEqual([expect.objectContaining({ id, times: 0, remaining: null, hits: 4 })])

    const removed = await h.control('DELETE', `/faults/${id}`)
    expect(removed.status).toBe(200)
    expect(removed.body).toEqual({ removed: 1 })
    expect((await h.api('GET', '/teams')).status).toBe(200)
  })

  it('breaks only the operation named, and every operation with "*"', async () => {
    await addFault({ operationId: 'getProject', status: 500, times: 0 })
    expect((await h.api('GET', '/projects')).status).toBe(200)
    expect((await h.api('GET', '/teams')).status).toBe(200)
    expect((await h.api('GET', '/projects/welcome-deck')).status).toBe(500)

    await h.control('DELETE', '/faults')
    await addFault({ operationId: '*', status: 500, times: 3 })
    expect((await h.api('GET', '/projects')).status).toBe(500)
    expect((await h.api('GET', '/teams')).status).toBe(500)
    expect((await h.api('POST', '/projects', { json: { name: 'x' } })).status).toBe(500)
    expect((await h.api('GET', '/teams')).status).toBe(200)
  })

  it('fires the first matching fault in the order they were added', async () => {
    await addFault({ operationId: '*', status: 500 })
    await addFault({ operationId: 'listTeams', status: 404 })
    expect((await h.api('GET', '/teams')).status).toBe(500)
    expect((await h.api('GET', '/teams')).status).toBe(404)
  })

  it('breaks only the calls made with the given API key', async () => {
    const id = await addFault({ operationId: 'listTeams', status: 500, apiKey: 'pres_test_bob', times: 0 })
    expect((await h.api('GET', '/teams', { key: 'pres_test_alice' })).status).toBe(200)
    expect((await h.api('GET', '/teams', { key: 'pres_test_alice_acme' })).status).toBe(200)
    expectError(await h.api('GET', '/teams', { key: 'pres_test_bob' }), 500, 'INTERNAL_ERROR')
    expect(await faults()).toEqual([expect.objectContaining({ id, apiKey: 'pres_test_bob', hits: 1 })])
  })

  it('answers a custom error text and code', async () => {
    await addFault({ operationId: 'getProject', status: 503, error: 'Down for maintenance', code: 'MAINTENANCE' })
    const reply = await h.api('GET', '/projects/welcome-deck')
    expectError(reply, 503, 'MAINTENANCE')
    expect(reply.body.error).toBe('Down for maintenance')
  })

  it.each([400, 401, 402, 404, 405, 413, 429, 500, 502, 503, 504, 418])(
    'answers a %i fault with the default code for that status',
    async (status) => {
      await addFault({ operationId: 'listTeams', status })
      const reply = await h.api('GET', '/teams')
      expectError(reply, status, defaultErrorCode(status))
      expect(reply.body.error.length).toBeGreaterThan(0)
    },
  )

  it('answers a 401 fault with the error body, like a real authentication failure', async () => {
    await addFault({ operationId: 'getProject', status: 401 })
    const reply = await h.api('GET', '/projects/welcome-deck')
    expectError(reply, 401, 'UNAUTHORIZED')
    expect(reply.body.error).toBe('Authentication required')
  })

  it('changes no state: a 500 fault on createProject creates no project', async () => {
    const before = await stateText(h)
    await addFault({ operationId: 'createProject', status: 500 })
    expectError(await h.api('POST', '/projects', { json: { name: 'Ghost' } }), 500, 'INTERNAL_ERROR')
    await h.control('DELETE', '/faults')
    expect(await stateText(h)).toBe(before)
    const list = await h.api('GET', '/projects?limit=100')
    expect(list.body.projects.map((p: { name: string }) => p.name)).not.toContain('Ghost')
  })

  it('changes no state: a 502 fault on generate charges nothing and starts no job', async () => {
    const before = await stateText(h)
    await addFault({ operationId: 'generateProject', status: 502, times: 2 })
    for (let i = 0; i < 2; i++) {
      expectError(await h.api('POST', '/projects/generate', { json: { prompt: 'x' } }), 502, 'DISPATCH_FAILED')
    }
    expect(await stateText(h)).toBe(before)
    expect(await creditsOf(h, 'team_alice')).toBe(20)
  })

  it('answers before validating: a fault fires even for an invalid body', async () => {
    await addFault({ operationId: 'createProject', status: 500 })
    expectError(await h.api('POST', '/projects', { json: { name: '' } }), 500, 'INTERNAL_ERROR')
    expectError(await h.api('POST', '/projects', { json: { name: '' } }), 400, 'VALIDATION_ERROR')
  })

  it('is not consumed by a call that fails authentication', async () => {
    const id = await addFault({ operationId: 'listTeams', status: 500 })
    expectError(await h.api('GET', '/teams', { key: 'pres_test_revoked' }), 401, 'UNAUTHORIZED')
    expectError(await h.api('GET', '/teams', { key: null }), 401, 'UNAUTHORIZED')
    expect(await faults()).toEqual([expect.objectContaining({ id, hits: 0, remaining: 1 })])
  })

  it('waits delayMs and then runs the operation normally when no status is given', async () => {
    const id = await addFault({ operationId: 'listTeams', delayMs: 5, times: 0 })
    const reply = await h.api('GET', '/teams')
    expect(reply.status).toBe(200)
    expect(reply.body.teams.length).toBe(2)
    expect(await faults()).toEqual([expect.objectContaining({ id, status: null, delayMs: 5, hits: 1 })])
  })

  it('waits delayMs before answering the fault’s status', async () => {
    await addFault({ operationId: 'getProject', status: 504, delayMs: 40 })
    const reply = await h.api('GET', '/projects/welcome-deck')
    expectError(reply, 504, 'HTTP_504')
    const [entry] = (await h.control('GET', '/requests?limit=1')).body.requests
    // Timers may fire a hair early; the delay is real time as the emulator measured it.
    expect(entry.durationMs).toBeGreaterThanOrEqual(38)
  })

  it('journals a faulted call with its status', async () => {
    await addFault({ operationId: 'getProject', status: 500 })
    await h.api('GET', '/projects/welcome-deck')
    const [entry] = (await h.control('GET', '/requests')).body.requests
    expect(entry).toMatchObject({ operationId: 'getProject', status: 500, keyId: 'key_alice' })
  })

  it('lists faults with every field, removes one, and clears all', async () => {
    const first = await addFault({ operationId: 'getProject', status: 500 })
    const second = await addFault({
      operationId: '*',
      status: 429,
      times: 0,
      error: 'Slow down',
      code: 'SLOW',
      delayMs: 1,
      apiKey: 'pres_test_bob',
    })
    expect(await faults()).toEqual([
      {
        id: first,
        operationId: 'getProject',
        status: 500,
        times: 1,
        remaining: 1,
        error: null,
        code: null,
        delayMs: 0,
        apiKey: null,
        retryAfter: null,
        hits: 0,
      },
      {
        id: second,
        operationId: '*',
        status: 429,
        times: 0,
        remaining: null,
        error: 'Slow down',
        code: 'SLOW',
        delayMs: 1,
        apiKey: 'pres_test_bob',
        retryAfter: null,
        hits: 0,
      },
    ])
    expect((await h.control('DELETE', `/faults/${first}`)).body).toEqual({ removed: 1 })
    expect((await faults()).map((f) => f.id)).toEqual([second])
    expectUnknown(await h.control('DELETE', `/faults/${first}`))

    await addFault({ operationId: 'listTeams', status: 500 })
    const cleared = await h.control('DELETE', '/faults')
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ removed: 2 })
    expect(await faults()).toEqual([])
    expect((await h.api('GET', '/teams', { key: 'pres_test_bob' })).status).toBe(200)
  })

  it('sends its own Retry-After with any status, a 429 included', async () => {
    const id = await addFault({ operationId: 'listTeams', status: 503, retryAfter: 2 })
    const unavailable = await h.api('GET', '/teams')
    expectError(unavailable, 503, 'HTTP_503')
    expect(unavailable.headers['retry-after']).toBe('2')
    expect(await faults()).toEqual([])
    await addFault({ operationId: 'listTeams', status: 429, retryAfter: 0 })
    const limited = await h.api('GET', '/teams')
    expectError(limited, 429, 'RATE_LIMITED')
    expect(limited.headers).toMatchObject({ 'retry-after': '0', 'x-ratelimit-remaining': '0' })
    expect(id).toMatch(/^flt_/)
    // Without retryAfter a status other than 429 carries none.
    await addFault({ operationId: 'listTeams', status: 503 })
    expect((await h.api('GET', '/teams')).headers['retry-after']).toBeUndefined()
  })

  it('answers 404 to removing an unknown fault', async () => {
    expectUnknown(await h.control('DELETE', '/faults/flt_999'))
  })

  it.each([
    [{ status: 500 }, /^operationId: /],
    [{ operationId: 'deleteEverything', status: 500 }, /^operationId: must be one of/],
    [{ operationId: 'listTeams' }, /give a status to answer, a delayMs to wait, or both/],
    [{ operationId: 'listTeams', status: 200 }, /^status: must be at least 400/],
    [{ operationId: 'listTeams', status: 600 }, /^status: must be at most 599/],
    [{ operationId: 'listTeams', status: 500.5 }, /^status: /],
    [{ operationId: 'listTeams', status: 500, times: -1 }, /^times: must be at least 0/],
    [{ operationId: 'listTeams', status: 500, code: 'lower-case' }, /^code: must be UPPER_SNAKE_CASE/],
    [{ operationId: 'listTeams', status: 500, error: '' }, /^error: must not be empty/],
    [{ operationId: 'listTeams', status: 500, delayMs: -1 }, /^delayMs: must be at least 0/],
    [{ operationId: 'listTeams', status: 500, delayMs: 120_001 }, /^delayMs: must be at most 120000/],
    [{ operationId: 'listTeams', status: 500, apiKey: '' }, /^apiKey: must not be empty/],
    [{ operationId: 'listTeams', status: 500, when: 'now' }, /unknown key "when"/],
    [{ operationId: 'listTeams', delayMs: 5, retryAfter: 1 }, /^retryAfter: is sent with an error: give a status too/],
    [{ operationId: 'listTeams', status: 503, retryAfter: -1 }, /^retryAfter: must be at least 0/],
    [{ operationId: 'listTeams', status: 503, retryAfter: 1.5 }, /^retryAfter: /],
    [{ operationId: 'listTeams', status: 503, retryAfter: 86_401 }, /^retryAfter: must be at most 86400/],
  ])('rejects fault %j with 400 and adds nothing', async (json, hint) => {
    expectBadInput(await h.control('POST', '/faults', { json }), hint)
    expect(await faults()).toEqual([])
    expect((await h.api('GET', '/teams')).status).toBe(200)
  })
})

describe('control plane: a 429 fault with the rate limit off', () => {
  it('still carries X-RateLimit-* headers (limit 0) and Retry-After', async () => {
    const h = await startHarness('fetch', { rateLimit: 0 })
    await h.control('POST', '/faults', { json: { operationId: 'listProjects', status: 429 } })
    const reply = await h.api('GET', '/projects')
    expectError(reply, 429, 'RATE_LIMITED')
    expect(reply.headers).toMatchObject({ 'x-ratelimit-limit': '0', 'x-ratelimit-remaining': '0', 'retry-after': RETRY_NOW })
    expect(reply.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-01-01T00:01:00.000Z') / 1000))
    await h.close()
  })
})

describe.each(WAYS)('control plane: a 429 fault with a rate limit on (%s)', (way) => {
  const h = harnessPerTest(way, { rateLimit: 10 })

  it('carries the X-RateLimit-* headers and Retry-After', async () => {
    await h.control('POST', '/faults', { json: { operationId: 'listProjects', status: 429 } })
    const reply = await h.api('GET', '/projects')
    expectError(reply, 429, 'RATE_LIMITED')
    expect(reply.headers['x-ratelimit-limit']).toBe('10')
    expect(reply.headers['x-ratelimit-remaining']).toBe('0')
    expect(reply.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-01-01T00:01:00.000Z') / 1000))
    // The manual clock's "retry now" (see rate-limit.test.ts).
    expect(reply.headers['retry-after']).toBe(RETRY_NOW)
  })

  it('matches a fault by key id as well as by key value', async () => {
    await h.control('POST', '/faults', { json: { operationId: 'listTeams', status: 503, apiKey: 'key_bob' } })
    expect((await h.api('GET', '/teams')).status).toBe(200)
    expectError(await h.api('GET', '/teams', { key: 'pres_test_bob' }), 503, 'HTTP_503')
  })

  it('counts the faulted call against the rate window', async () => {
    await h.control('POST', '/faults', { json: { operationId: 'listTeams', status: 500 } })
    await h.api('GET', '/teams')
    const next = await h.api('GET', '/teams')
    expect(next.headers['x-ratelimit-remaining']).toBe('8')
  })
})

describe('control plane in process: faults', () => {
  const h = harnessPerTest('fetch')

  it('adds, lists, fires, removes and clears faults', async () => {
    const control = h.emulator.control
    const { faultId } = control.addFault({ operationId: 'listTeams', status: 500, times: 2 })
    expect(control.listFaults().faults).toEqual([expect.objectContaining({ id: faultId, remaining: 2, hits: 0 })])
    expect((await h.api('GET', '/teams')).status).toBe(500)
    expect(control.listFaults().faults).toEqual([expect.objectContaining({ id: faultId, remaining: 1, hits: 1 })])
    expect(control.removeFault(faultId)).toEqual({ removed: 1 })
    expect((await h.api('GET', '/teams')).status).toBe(200)

    control.addFault({ operationId: '*', status: 503, times: 0 })
    control.addFault({ operationId: 'getProject', delayMs: 1 })
    expect(control.clearFaults()).toEqual({ removed: 2 })
    expect(control.listFaults().faults).toEqual([])
  })

  it('throws a 400 ServiceError for a bad fault and a 404 for an unknown one', async () => {
    const control = h.emulator.control
    expect(await rejection(() => control.addFault({ operationId: 'listTeams' }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    // @ts-expect-error an unknown operation id does not compile in-process, and is a 400 at run time
    const unknownOperation = () => control.addFault({ operationId: 'nope', status: 500 })
    expect(await rejection(unknownOperation)).toMatchObject({ status: 400 })
    expect(await rejection(() => control.removeFault('flt_404'))).toMatchObject({ status: 404, code: 'NOT_FOUND' })
    expect(control.listFaults().faults).toEqual([])
  })

  it('gives a listed fault as a copy that cannot change the registered one', () => {
    const control = h.emulator.control
    control.addFault({ operationId: 'listTeams', status: 500 })
    const [listed] = control.listFaults().faults
    listed!.remaining = 99
    expect(control.listFaults().faults[0]!.remaining).toBe(1)
  })
})
