import { describe, expect, it } from 'vitest'
import { expectError, harnessPerTest, WAYS, type Harness } from '../support/harness.js'

const TOKEN = 'admin-s3cret'

interface Call {
  method: string
  path: string
  json?: unknown
  /** The success status with the token. */
  status: number
}

/** Every control-plane route (section 5 of the contract) and the dashboard, with input that succeeds. */
async function everyRoute(h: Harness): Promise<Call[]> {
  const auth = { key: TOKEN }
  const job = async () => (await h.api('POST', '/projects/generate', { json: { prompt: 'x' } })).body.jobId as string
  const [completeId, failId] = [await job(), await job()]
  const state = (await h.control('GET', '/state', auth)).body
  const fault = (await h.control('POST', '/faults', { ...auth, json: { operationId: 'getProject', status: 500 } })).body.faultId
  return [
    { method: 'GET', path: '', status: 200 },
    { method: 'GET', path: '/dashboard/fragment', status: 200 },
    { method: 'GET', path: '/health', status: 200 },
    { method: 'GET', path: '/state', status: 200 },
    { method: 'PUT', path: '/state', json: state, status: 200 },
    { method: 'POST', path: '/accounts', json: {}, status: 201 },
    { method: 'POST', path: '/teams', json: { name: 'T', memberUserIds: ['usr_bob'] }, status: 201 },
    { method: 'POST', path: '/keys', json: { userId: 'usr_bob' }, status: 201 },
    { method: 'GET', path: '/keys/key_bob', status: 200 },
    { method: 'DELETE', path: '/keys/key_bob', status: 200 },
    { method: 'PUT', path: '/teams/team_bob/credits', json: { credits: 5 }, status: 200 },
    { method: 'POST', path: '/templates', json: { teamId: 'team_bob', name: 'T' }, status: 201 },
    { method: 'POST', path: '/projects/welcome-deck/collaborators', json: { userId: 'usr_bob' }, status: 200 },
    { method: 'GET', path: '/clock', status: 200 },
    { method: 'POST', path: '/clock/advance', json: { ms: 1 }, status: 200 },
    { method: 'POST', path: `/jobs/${completeId}/complete`, status: 200 },
    { method: 'POST', path: `/jobs/${failId}/fail`, json: {}, status: 200 },
    { method: 'GET', path: '/faults', status: 200 },
    { method: 'POST', path: '/faults', json: { operationId: 'listTeams', status: 500 }, status: 201 },
    { method: 'DELETE', path: `/faults/${fault}`, status: 200 },
    { method: 'DELETE', path: '/faults', status: 200 },
    { method: 'GET', path: '/requests', status: 200 },
    { method: 'DELETE', path: '/requests', status: 200 },
    { method: 'POST', path: '/reset', status: 200 },
  ]
}

describe.each(WAYS)('control plane: admin token (%s)', (way) => {
  const h = harnessPerTest(way, { adminToken: TOKEN })

  it('answers 401 with the error body on every control-plane route without the token, changing nothing', async () => {
    const calls = await everyRoute(h)
    const before = (await h.control('GET', '/state', { key: TOKEN })).text
    const faults = (await h.control('GET', '/faults', { key: TOKEN })).text
    const journal = (await h.control('GET', '/requests', { key: TOKEN })).text
    for (const call of calls) {
      for (const key of [null, 'wrong-token', 'pres_test_alice', `${TOKEN}x`]) {
        const reply = await h.control(call.method, call.path, { key, json: call.json })
        expectError(reply, 401, 'UNAUTHORIZED')
        expect(reply.body.hint).toMatch(/admin token/)
      }
    }
    expect((await h.control('GET', '/state', { key: TOKEN })).text).toBe(before)
    expect((await h.control('GET', '/faults', { key: TOKEN })).text).toBe(faults)
    expect((await h.control('GET', '/requests', { key: TOKEN })).text).toBe(journal)
  })

  it('answers every control-plane route with the token', async () => {
    for (const call of await everyRoute(h)) {
      const reply = await h.control(call.method, call.path, { key: TOKEN, json: call.json })
      expect(reply.status, `${call.method} ${call.path}: ${reply.text.slice(0, 200)}`).toBe(call.status)
    }
  })

  it('answers an unknown control-plane path 401 without the token, so routes are not revealed', async () => {
    expectError(await h.control('GET', '/no-such-route'), 401, 'UNAUTHORIZED')
    expectError(await h.control('GET', '/no-such-route', { key: TOKEN }), 404, 'NOT_FOUND')
  })

  it('takes the token as ?token= on the dashboard only', async () => {
    const page = await h.control('GET', `?token=${TOKEN}`)
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expectError(await h.control('GET', `/health?token=${TOKEN}`), 401, 'UNAUTHORIZED')
  })

  it('leaves /v1 alone: API keys work without the admin token, and the admin token is no API key', async () => {
    expect((await h.api('GET', '/projects')).status).toBe(200)
    expect((await h.api('GET', '/teams', { key: 'pres_test_bob' })).status).toBe(200)
    expectError(await h.api('GET', '/projects', { key: TOKEN }), 401, 'UNAUTHORIZED')
  })

  it('does not gate the in-process control functions', async () => {
    expect(h.emulator.control.health().status).toBe('ok')
    expect((await h.emulator.control.createAccount()).apiKey).toMatch(/^pres_/)
  })
})
