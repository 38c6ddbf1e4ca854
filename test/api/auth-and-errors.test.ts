import { describe, expect, it } from 'vitest'
import { expectError, harnessPerTest, TEST_DEFAULTS, WAYS } from '../support/harness.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import { worldOf } from '../support/state.js'

describe.each(WAYS)('authentication and error handling (%s)', (way) => {
  const h = harnessPerTest(way)

  it.each([
    ['no Authorization header', { key: null }],
    ['a non-bearer scheme', { key: null, headers: { authorization: 'Basic cHJlczp4' } }],
    ['a bearer without a token', { key: null, headers: { authorization: 'Bearer ' } }],
    ['a key without the pres_ prefix', { key: 'test_alice' }],
    ['an unknown key with the prefix', { key: 'pres_unknown' }],
    ['a revoked key', { key: 'pres_test_revoked' }],
  ])('answers 401 with the error body to %s', async (_, options) => {
    const reply = await h.api('GET', '/projects', options)
    expectError(reply, 401, 'UNAUTHORIZED')
    expect(reply.body.hint).toBeTypeOf('string')
    expect(reply.headers['x-ratelimit-limit']).toBeUndefined()
  })

  it('authenticates before routing, so an unknown path without a key is 401', async () => {
    expectError(await h.api('GET', '/nowhere', { key: null }), 401, 'UNAUTHORIZED')
  })

  it('accepts the bearer scheme case-insensitively', async () => {
    const reply = await h.api('GET', '/teams', { key: null, headers: { authorization: 'bearer pres_test_alice' } })
    expect(reply.status).toBe(200)
  })

  it('answers 404 with the error body to an unknown path under /v1', async () => {
    const reply = await h.api('GET', '/projects/welcome-deck/nothing-here')
    expectError(reply, 404, 'NOT_FOUND')
    expectError(await h.api('GET', ''), 404, 'NOT_FOUND')
  })

  it('answers 405 with an Allow header to a known path with the wrong method', async () => {
    const reply = await h.api('DELETE', '/projects/welcome-deck')
    expectError(reply, 405, 'METHOD_NOT_ALLOWED')
    expect(reply.headers.allow).toBe('GET, HEAD, PATCH')
    const publish = await h.api('PUT', '/projects/welcome-deck/publish')
    expect(publish.headers.allow).toBe('POST, DELETE')
  })

  it('does not read /projects/templates as a project slug', async () => {
    const reply = await h.api('GET', '/projects/templates', { key: 'pres_test_alice_acme' })
    expect(reply.status).toBe(200)
    expect(reply.body.templates).toHaveLength(3)
  })

  it('answers 400 to malformed JSON with a hint saying so, and creates nothing', async () => {
    const before = (await worldOf(h.emulator)).recordsText()
    const reply = await h.api('POST', '/projects', { raw: '{"name": "x",' })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toMatch(/not valid JSON/)
    expect((await worldOf(h.emulator)).recordsText()).toBe(before)
  })

  it('answers 400 to a JSON body that is not an object', async () => {
    const reply = await h.api('PATCH', '/projects/welcome-deck', { json: ['Renamed'] })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toBe('must be an object, got an array')
  })

  it('answers 413 to a body over 1 MiB and changes nothing', async () => {
    const before = (await worldOf(h.emulator)).recordsText()
    const reply = await h.api('POST', '/projects', { raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }) })
    expectError(reply, 413, 'PAYLOAD_TOO_LARGE')
    expect((await worldOf(h.emulator)).recordsText()).toBe(before)
  })

  it('accepts a body just under 1 MiB as far as validation', async () => {
    const reply = await h.api('POST', '/projects', { raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 20) }) })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toMatch(/^name: must be at most 200 characters/)
  })

  it('decodes percent-encoded path segments and rejects malformed ones', async () => {
    expect((await h.api('GET', '/projects/welcome%2Ddeck')).status).toBe(200)
    expectError(await h.api('GET', '/projects/%E0%A4%A'), 400, 'VALIDATION_ERROR')
  })

  it('answers a CORS preflight without authentication', async () => {
    const reply = await h.api('OPTIONS', '/projects', { key: null })
    expect(reply.status).toBe(204)
    expect(reply.headers['access-control-allow-origin']).toBe('*')
    expect(reply.headers['access-control-allow-headers']).toContain('authorization')
  })

  it('answers every request with an X-Request-Id that the journal records', async () => {
    const reply = await h.api('GET', '/teams')
    const [latest] = h.emulator.control.listRequests({ limit: 1 }).requests
    expect(reply.headers['x-request-id']).toBe(latest?.id)
    expect(latest).toMatchObject({
      method: 'GET',
      path: '/v1/teams',
      operationId: 'listTeams',
      status: 200,
      keyId: 'key_alice',
      userId: 'usr_alice',
    })
  })
})

describe('unexpected failures', () => {
  it('answers 500 INTERNAL_ERROR with the error body and reports the error, without crashing', async () => {
    const errors: unknown[] = []
    // An operation that throws what no handler expects (as a bug would).
    const emulator = createHookedEmulator(
      { ...TEST_DEFAULTS, onError: (error) => errors.push(error) },
      {
        wrapOperation: ((id: string, handler: unknown) =>
          id === 'listTeams'
            ? () => {
                throw new TypeError('a bug')
              }
            : handler) as never,
      },
    )
    const teams = (key: string) =>
      emulator.fetch('http://127.0.0.1:4010/v1/teams', { headers: { authorization: `Bearer ${key}` } }).then(async (response) => {
        const text = await response.text()
        return { status: response.status, headers: Object.fromEntries(response.headers), text, body: JSON.parse(text) }
      })
    const before = (await worldOf(emulator)).doc
    expectError(await teams('pres_test_alice'), 500, 'INTERNAL_ERROR')
    expect(errors).toEqual([new TypeError('a bug')])
    // The emulator keeps answering, and nothing changed.
    expect((await emulator.fetch('http://127.0.0.1:4010/v1/projects', { headers: { authorization: 'Bearer pres_test_bob' } })).status).toBe(
      200,
    )
    expect((await worldOf(emulator)).doc).toEqual(before)
    await emulator.close()
  })
})
