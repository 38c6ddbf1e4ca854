import { describe, expect, it } from 'vitest'
import { ListRequestsResponse, WaitForRequestResponse } from '../../src/control/schemas.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
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
      query: '',
      operationId: 'createProject',
      status: 200,
      durationMs: expect.any(Number),
      keyId: 'key_alice_acme',
      userId: 'usr_alice',
      realTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      keyFingerprint: expect.stringMatching(/^fp_[0-9a-z]{12}$/),
      clientGone: false,
      request: {
        headers: expect.objectContaining({ authorization: 'Bearer <key_alice_acme>', 'content-type': 'application/json' }),
        body: '{"name":"Journaled"}',
        bodySize: 20,
        bodyTruncated: false,
      },
      response: {
        headers: expect.objectContaining({ 'content-type': 'application/json; charset=utf-8', 'x-request-id': entries[0]!.id }),
        body: expect.stringContaining('"projectSlug":"journaled'),
        bodySize: expect.any(Number),
        bodyTruncated: false,
      },
    })
    expect(entries[0]!.response.bodySize).toBe(entries[0]!.response.body!.length)
    expect(entries[1]).toMatchObject({ method: 'GET', path: '/v1/projects/welcome-deck', status: 404, keyId: 'key_bob', userId: 'usr_bob' })
    expect(entries[2]).toMatchObject({ time: '2026-01-01T00:00:00.000Z', status: 200 })
    expect(new Set(entries.map((e) => e.id)).size).toBe(3)
  })

  it('fingerprints the presented key one way, failed authentication included, and reads both clocks', async () => {
    const before = Date.now()
    await h.api('GET', '/teams')
    await h.api('GET', '/teams')
    await h.api('GET', '/teams', { key: 'pres_test_bob' })
    await h.api('GET', '/teams', { key: 'pres_not_a_key' })
    await h.api('GET', '/teams', { key: 'pres_not_a_key' })
    await h.api('GET', '/teams', { key: null })
    await h.control('POST', '/clock/advance', { json: { ms: 60_000 } })
    await h.api('GET', '/teams')
    const [after, none, bad2, bad1, bob, alice2, alice1] = await requests()
    expect(alice1!.keyFingerprint).toBe(alice2!.keyFingerprint)
    expect(after!.keyFingerprint).toBe(alice1!.keyFingerprint)
    expect(bob!.keyFingerprint).not.toBe(alice1!.keyFingerprint)
    expect(bad1!.status).toBe(401)
    expect(bad1!.keyId).toBeNull()
    expect(bad1!.keyFingerprint).toMatch(/^fp_/)
    expect(bad1!.keyFingerprint).toBe(bad2!.keyFingerprint)
    expect(bad1!.keyFingerprint).not.toBe(bob!.keyFingerprint)
    expect(none!.keyFingerprint).toBeNull()
    // The key never appears in what is listed.
    expect(JSON.stringify(await requests())).not.toContain('pres_not_a_key')
    // The emulator clock is manual here: it moved a minute, the real clock did not.
    expect(Date.parse(after!.time) - Date.parse(alice1!.time)).toBe(60_000)
    expect(Date.parse(alice1!.realTime)).toBeGreaterThanOrEqual(before - 1)
    expect(Date.parse(after!.realTime) - Date.parse(alice1!.realTime)).toBeLessThan(60_000)
  })

  it('journals the id it sent as X-Request-Id', async () => {
    const reply = await h.api('GET', '/teams')
    const [entry] = await requests()
    expect(reply.headers['x-request-id']).toBe(entry!.id)
  })

  it('journals a call that fails authentication with its operation, but without a key', async () => {
    await h.api('GET', '/teams', { key: null })
    await h.api('GET', '/teams', { key: 'pres_test_revoked' })
    const [revoked, missing] = await requests()
    expect(missing).toMatchObject({ path: '/v1/teams', operationId: 'listTeams', status: 401, keyId: null, userId: null })
    expect(missing!.request.headers.authorization).toBeUndefined()
    expect(revoked).toMatchObject({ operationId: 'listTeams', status: 401, keyId: null })
    expect(revoked!.request.headers.authorization).toBe('<redacted>')
    expect(JSON.stringify(await requests())).not.toContain('pres_test_revoked')
  })

  it('journals a call that matches no operation without one: an unknown path (404) or a wrong method (405)', async () => {
    await h.api('GET', '/nowhere')
    await h.api('DELETE', '/teams')
    const [wrongMethod, unknownRoute] = await requests()
    expect(unknownRoute).toMatchObject({ path: '/v1/nowhere', operationId: null, status: 404, keyId: 'key_alice' })
    expect(wrongMethod).toMatchObject({ path: '/v1/teams', method: 'DELETE', operationId: null, status: 405 })
  })

  it('journals a rate-limited call with its operation, so filtering by operation finds it', async () => {
    await h.control('POST', '/faults', { json: { operationId: 'generateProject', status: 429 } })
    await h.api('POST', '/projects/generate', { key: 'pres_test_alice_acme', json: { prompt: 'Otters' } })
    const [limited] = await requests('?operationId=generateProject&status=429')
    expect(limited).toMatchObject({ operationId: 'generateProject', status: 429, keyId: 'key_alice_acme' })
    expect(limited!.request.body).toBe('{"prompt":"Otters"}')
    expect(limited!.response.headers).toMatchObject({ 'x-service-error-code': 'RATE_LIMITED', 'x-ratelimit-remaining': '0' })
    expect(JSON.parse(limited!.response.body!)).toEqual({ error: 'Rate limit exceeded', hint: expect.stringMatching(/^injected by fault/) })
  })

  it('keeps the query string apart from the path', async () => {
    await h.api('GET', '/projects?limit=2&published=true')
    const [entry] = await requests()
    expect(entry).toMatchObject({ path: '/v1/projects', query: 'limit=2&published=true', operationId: 'listProjects' })
  })

  it('filters by status, status class, key and time, and cuts bodies at bodyLimit', async () => {
    await h.api('GET', '/teams')
    await h.control('POST', '/clock/advance', { json: { ms: 60_000 } })
    await h.api('GET', '/projects/nope', { key: 'pres_test_bob' })
    await h.api('GET', '/teams', { key: null })
    expect((await requests('?status=404')).map((e) => e.keyId)).toEqual(['key_bob'])
    expect((await requests('?status=4xx')).map((e) => e.status)).toEqual([401, 404])
    expect((await requests('?keyId=key_alice')).map((e) => e.operationId)).toEqual(['listTeams'])
    expect((await requests('?since=2026-01-01T00:01:00.000Z')).map((e) => e.status)).toEqual([401, 404])
    expect((await requests('?until=2026-01-01T00:00:59.999Z')).map((e) => e.status)).toEqual([200])
    expect((await requests(`?since=${Date.parse('2026-01-01T00:01:00.000Z')}&status=401`)).map((e) => e.status)).toEqual([401])
    // Any zone: the same instant written at +02:00.
    expect((await requests('?since=2026-01-01T02:01:00%2B02:00')).map((e) => e.status)).toEqual([401, 404])
    const [first] = await requests('?limit=1&status=200')
    expect(first!.response.body!.length).toBeGreaterThan(10)
    const [cut] = await requests('?limit=1&status=200&bodyLimit=10')
    expect(cut!.response).toMatchObject({
      body: first!.response.body!.slice(0, 10),
      bodyTruncated: true,
      bodySize: first!.response.bodySize,
    })
    const [after] = await requests(`?after=${first!.id}&limit=1`)
    expect(after!.status).toBe(401)
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
    ['?status=200x', /^status: must be a status \(429\) or a class \(4xx\)/],
    ['?status=6xx', /^status: must be a status/],
    ['?since=yesterday', /^since: must be an ISO 8601 date-time with its zone \(2026-01-01T00:00:00Z\) or epoch milliseconds/],
    ['?until=2026-13-45', /^until: must be an ISO 8601 date-time/],
    // V8's lenient Date.parse read these as dates: "hello 1" as 2001-01-01 and "-1" too.
    ['?until=hello%201', /^until: must be an ISO 8601 date-time/],
    ['?until=-1', /^until: must be an ISO 8601 date-time/],
    // A date-time without its zone would be read in the machine's own time zone.
    ['?since=2026-01-01T10:00:00', /^since: must be an ISO 8601 date-time with its zone/],
    ['?after=17', /^after: must be a request id/],
    ['?keyId=', /^keyId: must not be empty/],
    ['?bodyLimit=-1', /^bodyLimit: must be a whole number/],
    ['?bodyLimit=16777217', /^bodyLimit: must be at most 16777216/],
  ])('rejects the query %s with 400', async (query, hint) => {
    expectBadInput(await h.control('GET', `/requests${query}`), hint)
  })

  it('long-polls: GET /requests/wait answers the first matching request that arrives', async () => {
    const waiting = h.control('GET', '/requests/wait?operationId=createProject&keyId=key_bob&timeoutMs=60000')
    await h.api('POST', '/projects', { json: { name: 'Not this one' } })
    await h.api('GET', '/teams', { key: 'pres_test_bob' })
    await h.api('POST', '/projects', { key: 'pres_test_bob', json: { name: 'This one' } })
    const reply = await waiting
    expect(reply.status, reply.text).toBe(200)
    expect(expectSchema(WaitForRequestResponse, reply.body).request).toMatchObject({
      operationId: 'createProject',
      keyId: 'key_bob',
      request: { body: '{"name":"This one"}' },
    })
  })

  it('long-polls: answers at once when a matching request is already journaled', async () => {
    await h.api('GET', '/teams')
    const reply = await h.control('GET', '/requests/wait?operationId=listTeams&timeoutMs=0')
    expect(reply.status).toBe(200)
    expect(reply.body.request.operationId).toBe('listTeams')
  })

  it('long-polls: answers 408 WAIT_TIMEOUT when nothing matches in time', async () => {
    await h.api('GET', '/teams')
    const reply = await h.control('GET', '/requests/wait?operationId=generateProject&timeoutMs=50')
    expectError(reply, 408, 'WAIT_TIMEOUT')
    expect(reply.body).toEqual({
      error: 'No matching request',
      hint: 'no /v1 request matching operationId=generateProject arrived within 50 ms',
    })
  })

  it.each([
    ['?timeoutMs=60001', /^timeoutMs: must be at most 60000/],
    ['?timeoutMs=soon', /^timeoutMs: must be a whole number/],
    ['?status=abc', /^status: /],
  ])('long-polls: rejects the query %s with 400', async (query, hint) => {
    expectBadInput(await h.control('GET', `/requests/wait${query}`), hint)
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

  it('waits for a request: at once, later, or a 408 after timeoutMs', async () => {
    const control = h.emulator.control
    await h.api('GET', '/teams')
    expect(await control.waitForRequest({ operationId: 'listTeams' })).toMatchObject({ operationId: 'listTeams', status: 200 })
    const [first] = control.listRequests().requests
    const later = control.waitForRequest({ after: first!.id, status: '4xx' }, { timeoutMs: 60_000 })
    await h.api('GET', '/teams')
    await h.api('GET', '/projects/nope')
    expect(await later).toMatchObject({ operationId: 'getProject', status: 404, path: '/v1/projects/nope' })
    const timedOut = await rejection(() => control.waitForRequest({ operationId: 'generateProject' }, { timeoutMs: 10 }))
    expect(timedOut).toMatchObject({ status: 408, code: 'WAIT_TIMEOUT' })
    expect(await rejection(() => control.waitForRequest({}, { timeoutMs: 60_001 }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.waitForRequest({ since: 'never' }))).toMatchObject({ status: 400 })
  })

  it('accepts dates and numbers in filters', async () => {
    const control = h.emulator.control
    await h.api('GET', '/teams')
    expect(control.listRequests({ since: new Date('2026-01-01T00:00:00.000Z'), status: 200 }).requests).toHaveLength(1)
    expect(control.listRequests({ until: Date.parse('2025-12-31T23:59:59.999Z') }).requests).toHaveLength(0)
  })

  it('throws a 400 ServiceError for a bad query', async () => {
    const control = h.emulator.control
    expect(await rejection(() => control.listRequests({ limit: 0 }))).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
    expect(await rejection(() => control.listRequests({ limit: 1.5 }))).toMatchObject({ status: 400 })
    expect(await rejection(() => control.listRequests({ operationId: 'nope' }))).toMatchObject({ status: 400 })
  })
})
