import { describe, expect, it } from 'vitest'
import { HealthResponse } from '../../src/control/schemas.js'
import { VERSION } from '../../src/version.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { createAccount, expectBadInput, generate, stateText } from './support.js'

describe.each(WAYS)('control plane: health, reset and routing (%s)', (way) => {
  const h = harnessPerTest(way, { rateLimit: 3 })

  it('answers health with status ok and the package version', async () => {
    const reply = await h.control('GET', '/health')
    expect(reply.status).toBe(200)
    expect(expectSchema(HealthResponse, reply.body)).toEqual({ status: 'ok', version: VERSION })
    expect(reply.headers['content-type']).toMatch(/^application\/json/)
  })

  it('resets to the seeded world, clearing the clock, faults, journal and rate-limit windows', async () => {
    const seeded = await stateText(h)
    const start = (await h.control('GET', '/clock')).body.now

    // Change everything reset is meant to undo.
    const created = await h.api('POST', '/projects', { json: { name: 'Scratch' } })
    expect(created.status).toBe(200)
    const job = await generate(h, 'pres_test_alice')
    const account = await createAccount(h)
    expect((await h.control('PUT', '/teams/team_bob/credits', { json: { credits: 7 } })).status).toBe(200)
    expect((await h.control('POST', '/clock/advance', { json: { ms: 5_000 } })).status).toBe(200)
    expect((await h.control('POST', '/faults', { json: { operationId: 'listTeams', status: 500, times: 0 } })).status).toBe(201)
    expectError(await h.api('GET', '/teams'), 500, 'INTERNAL_ERROR')
    // Alice has used her 3 requests of the window: the next one is refused.
    expectError(await h.api('GET', '/teams'), 429, 'RATE_LIMITED')

    const reset = await h.control('POST', '/reset')
    expect(reset.status).toBe(200)
    expect(reset.body).toEqual({ reset: true, now: start })

    expect(await stateText(h)).toBe(seeded)
    expect((await h.control('GET', '/clock')).body.now).toBe(start)
    expect((await h.control('GET', '/faults')).body).toEqual({ faults: [] })
    expect((await h.control('GET', '/requests')).body).toEqual({ requests: [] })

    // The rate window is fresh and the fault is gone: the first request of a new window.
    const teams = await h.api('GET', '/teams')
    expect(teams.status).toBe(200)
    expect(teams.headers['x-ratelimit-remaining']).toBe('2')
    // What was created before the reset no longer exists.
    expectError(await h.api('GET', `/projects/${created.body.projectSlug}`), 404, 'NOT_FOUND')
    expectError(await h.api('GET', `/projects/jobs/${job.jobId}`), 404, 'NOT_FOUND')
    expectError(await h.api('GET', '/teams', { key: account.apiKey }), 401, 'UNAUTHORIZED')
  })

  it('answers 404 with the error body for an unknown control-plane path', async () => {
    const reply = await h.control('GET', '/no-such-thing')
    expectError(reply, 404, 'NOT_FOUND')
  })

  it('answers 405 with Allow for a known control-plane path with another method', async () => {
    const reply = await h.control('PATCH', '/faults')
    expectError(reply, 405, 'METHOD_NOT_ALLOWED')
    expect(reply.headers.allow).toBe('GET, HEAD, POST, DELETE')
  })

  it('answers 400 to a body that is not valid JSON, and to a JSON body that is not an object', async () => {
    const malformed = await h.control('POST', '/accounts', { raw: '{"name":' })
    expectBadInput(malformed, /not valid JSON/)
    const array = await h.control('POST', '/accounts', { json: [] })
    expectBadInput(array, 'the body must be a JSON object')
    const nul = await h.control('POST', '/clock/advance', { raw: 'null' })
    expectBadInput(nul, 'the body must be a JSON object')
    expect((await h.control('GET', '/state')).body.users).toHaveLength(2)
  })

  it('never rate-limits control-plane calls', async () => {
    for (let i = 0; i < 6; i++) {
      const reply = await h.control('GET', '/health')
      expect(reply.status).toBe(200)
      expect(reply.headers['x-ratelimit-limit']).toBeUndefined()
    }
  })
})

describe('control plane in process: health and reset', () => {
  const h = harnessPerTest('fetch', { rateLimit: 2 })

  it('answers health with status ok and the package version', () => {
    expect(h.emulator.control.health()).toEqual({ status: 'ok', version: VERSION })
  })

  it('resets to the seeded world, clearing the clock, faults, journal and rate-limit windows', async () => {
    const { control } = h.emulator
    const seeded = JSON.stringify(await control.getState())
    await control.createAccount({ name: 'Temp' })
    await control.advanceClock({ ms: 90_000 })
    await h.api('GET', '/teams')
    await h.api('GET', '/teams')
    expectError(await h.api('GET', '/teams'), 429, 'RATE_LIMITED')
    control.addFault({ operationId: '*', status: 503, times: 0 })

    const answer = await control.reset()
    expect(answer).toEqual({ reset: true, now: '2026-01-01T00:00:00.000Z' })
    expect(JSON.stringify(await control.getState())).toBe(seeded)
    expect(control.clock().now).toBe('2026-01-01T00:00:00.000Z')
    expect(control.listFaults().faults).toEqual([])
    expect(control.listRequests().requests).toEqual([])
    // A new window: the first request of it, answered (no fault left either).
    const first = await h.api('GET', '/teams')
    expect(first.status).toBe(200)
    expect(first.headers['x-ratelimit-remaining']).toBe('1')
  })
})
