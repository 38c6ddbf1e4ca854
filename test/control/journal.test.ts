import { describe, expect, it } from 'vitest'
import { ListRequestsResponse } from '../../src/control/schemas.js'
import { expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { expectBadInput, rejection } from './support.js'

describe.each(WAYS)('control plane: request journal (%s)', (way) => {
  const h = harnessPerTest(way)

  const requests = async (query = '') => {
    const reply = await h.control('GET', `/requests${query}`)
    expect(reply.status, reply.text).toBe(200)
    return expectSchema(ListRequestsResponse, reply.body).requests
  }

  it('lists /v1 calls newest first with every field', async () => {
    await h.api('GET', '/teams')
    await h.control('POST', '/clock/advance', { json: { ms: 1_500 } })
    await h.api('GET', '/projects/welcome-deck', { key: 'pres_test_bob' })
    await h.api('POST', '/projects', { key: 'pres_test_alice_acme', json: { name: 'Journaled' } })

    const entries = await requests()
    expect(entries.map((e) => e.operationId)).toEqual(['createProject', 'getProject', 'listTeams'])
    expect(entries[0]).toEqual({
      id: expect.stringMatching(/^req_/),
      time: '2026-01-01T00:00:01.500Z',
      method: 'POST',
      path: '/v1/projects',
      operationId: 'createProject',
      status: 200,
      durationMs: expect.any(Number),
      keyId: 'key_alice_acme',
      userId: 'usr_alice',
    })
    expect(entries[1]).toMatchObject({ method: 'GET', path: '/v1/projects/welcome-deck', status: 404, keyId: 'key_bob', userId: 'usr_bob' })
    expect(entries[2]).toMatchObject({ time: '2026-01-01T00:00:00.000Z', status: 200 })
    expect(new Set(entries.map((e) => e.id)).size).toBe(3)
  })

  it('journals the id it sent as X-Request-Id', async () => {
    const reply = await h.api('GET', '/teams')
    const [entry] = await requests()
    expect(reply.headers['x-request-id']).toBe(entry!.id)
  })

  it('journals calls that fail authentication or match no route, without a key or operation', async () => {
    await h.api('GET', '/teams', { key: null })
    await h.api('GET', '/nowhere')
    const [unknownRoute, unauthenticated] = await requests()
    expect(unknownRoute).toMatchObject({ path: '/v1/nowhere', operationId: null, status: 404, keyId: 'key_alice' })
    expect(unauthenticated).toMatchObject({ path: '/v1/teams', operationId: null, status: 401, keyId: null, userId: null })
  })

  it('filters by operationId, limits the count, and combines both', async () => {
    for (let i = 0; i < 3; i++) {
      await h.api('GET', '/teams')
      await h.api('GET', '/projects')
    }
    expect((await requests('?operationId=listTeams')).map((e) => e.operationId)).toEqual(['listTeams', 'listTeams', 'listTeams'])
    expect(await requests('?limit=2')).toHaveLength(2)
    expect((await requests('?limit=2')).map((e) => e.operationId)).toEqual(['listProjects', 'listTeams'])
    const both = await requests('?operationId=listProjects&limit=2')
    expect(both).toHaveLength(2)
    expect(both.every((e) => e.operationId === 'listProjects')).toBe(true)
    expect(await requests('?operationId=generateProject')).toEqual([])
    expect(await requests('?limit=10000')).toHaveLength(6)
  })

  it.each([
    ['?limit=0', /^limit: must be at least 1/],
    ['?limit=10001', /^limit: must be at most 10000/],
    ['?limit=ten', /^limit: must be a whole number/],
    ['?limit=-1', /^limit: must be a whole number/],
    ['?operationId=deleteEverything', /^operationId: must be one of/],
    ['?operationId=*', /^operationId: /],
    ['?limit=1&limit=2', /^limit: given more than once/],
  ])('rejects the query %s with 400', async (query, hint) => {
    expectBadInput(await h.control('GET', `/requests${query}`), hint)
  })

  it('does not journal control-plane calls', async () => {
    await h.control('GET', '/health')
    await h.control('POST', '/accounts')
    await h.control('GET', '/faults')
    await h.control('GET', '/state')
    await h.control('GET', '/no-such-route')
    expect(await requests()).toEqual([])
  })

  it('clears the journal on DELETE, then records afresh', async () => {
    await h.api('GET', '/teams')
    await h.api('GET', '/teams')
    const cleared = await h.control('DELETE', '/requests')
    expect(cleared.status).toBe(200)
    expect(cleared.body).toEqual({ removed: 2 })
    expect(await requests()).toEqual([])
    await h.api('GET', '/projects')
    expect((await requests()).map((e) => e.operationId)).toEqual(['listProjects'])
  })
})

describe.each(WAYS)('control plane: a bounded request journal (%s)', (way) => {
  const h = harnessPerTest(way, { journalSize: 5 })

  it('keeps only the last journalSize calls', async () => {
    const ids: string[] = []
    for (let i = 0; i < 8; i++) ids.push((await h.api('GET', `/projects?limit=${i + 1}`)).headers['x-request-id']!)
    const entries = (await h.control('GET', '/requests')).body.requests as Array<{ id: string }>
    expect(entries.map((e) => e.id)).toEqual(ids.slice(3).reverse())
    expect((await h.control('GET', '/requests?limit=100')).body.requests).toHaveLength(5)
  })
})

describe('control plane in process: request journal', () => {
  const h = harnessPerTest('fetch')

  it('lists, filters, limits and clears', async () => {
    const control = h.emulator.control
    await h.api('GET', '/teams')
    await h.api('GET', '/projects')
    await h.api('GET', '/projects')
    expect(control.listRequests().requests.map((e) => e.operationId)).toEqual(['listProjects', 'listProjects', 'listTeams'])
    expect(control.listRequests({ operationId: 'listTeams' }).requests).toHaveLength(1)
    expect(control.listRequests({ limit: 1 }).requests).toHaveLength(1)
    expect(control.listRequests({ limit: '2' }).requests).toHaveLength(2)
    expect(control.clearRequests()).toEqual({ removed: 3 })
    expect(control.listRequests().requests).toEqual([])
  })

  it('throws a 400 ServiceError for a bad query', async () => {
    const control = h.emulator.control
    expect(await rejection(() => control.listRequests({ limit: 0 }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    expect(await rejection(() => control.listRequests({ limit: 1.5 }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.listRequests({ operationId: 'nope' }))).toMatchObject({ status: 400 })
  })
})
