/**
 * A request is looked up in the mount table once, and its body's size is
 * checked once, whichever way it comes in (the socket-free fetch with a URL
 * or a `Request`, msw, the HTTP server, or a request value handed to
 * `handle()`): the way in resolves it, and the emulator, the API pipeline
 * and the control plane read that resolution from the request.
 */
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'

const ALICE = { authorization: 'Bearer pres_test_alice', 'content-type': 'application/json' }

let emulator: PresentationEmulator
let origin: string

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  origin = (await emulator.listen({ port: 0 })).origin
})
afterAll(() => emulator.close())

/** What one call did to the table's counts. */
async function counted(
  call: () => Promise<Response | { status: number }>,
): Promise<{ status: number; lookups: number; bodyChecks: number }> {
  const { counts } = emulator.emulator.mounts
  const before = { ...counts }
  const { status } = await call()
  return { status, lookups: counts.lookups - before.lookups, bodyChecks: counts.bodyChecks - before.bodyChecks }
}

/** One request three ways: to the API with a body, to the control plane with a body, and a page without one. */
const REQUESTS = [
  { name: 'the API', path: '/v1/projects', method: 'POST', body: '{"name":"Counted"}', status: 200 },
  {
    name: 'the control plane',
    path: '/_emulator/faults',
    method: 'POST',
    body: '{"operationId":"listTeams","status":500,"times":0}',
    status: 201,
  },
  { name: 'a page', path: '/editor/welcome-deck', method: 'GET', body: undefined, status: 200 },
] as const

describe.each(REQUESTS)('a request to $name', ({ path, method, body, status }) => {
  const bodyChecks = body === undefined ? 0 : 1
  const init = () => ({ method, headers: ALICE, ...(body === undefined ? {} : { body }) })

  it('through emulator.fetch with a URL and init: one lookup, one body check', async () => {
    expect(await counted(() => emulator.fetch(`http://127.0.0.1:4010${path}`, init()))).toEqual({ status, lookups: 1, bodyChecks })
  })

  it('through emulator.fetch with a Request: one lookup, one body check', async () => {
    const request = new Request(`http://127.0.0.1:4010${path}`, init())
    expect(await counted(() => emulator.fetch(request))).toEqual({ status, lookups: 1, bodyChecks })
  })

  it('through msw: one lookup, one body check', async () => {
    const server = setupServer(...emulator.handlersFor('https://counted.test/v1'))
    server.listen({ onUnhandledRequest: 'error' })
    try {
      expect(await counted(() => fetch(`https://counted.test${path}`, init()))).toEqual({ status, lookups: 1, bodyChecks })
    } finally {
      server.close()
    }
  })

  it('through the HTTP server: one lookup, one body check', async () => {
    expect(await counted(() => fetch(`${origin}${path}`, init()))).toEqual({ status, lookups: 1, bodyChecks })
  })

  it('handed to handle() as a value: one lookup, one body check', async () => {
    const value = { method, path, query: '', headers: ALICE, body: body === undefined ? null : new TextEncoder().encode(body) }
    expect(await counted(() => emulator.handle(value))).toEqual({ status, lookups: 1, bodyChecks })
  })
})

describe('a body over its row’s limit', () => {
  it('is refused with 413 by the row, from the one check, whichever way it comes in', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) })
    const viaHandle = await counted(() =>
      emulator.handle({ method: 'POST', path: '/v1/projects', query: '', headers: ALICE, body: new TextEncoder().encode(big) }),
    )
    expect(viaHandle).toEqual({ status: 413, lookups: 1, bodyChecks: 1 })
    const viaFetch = await counted(() => emulator.fetch('http://127.0.0.1:4010/v1/projects', { method: 'POST', headers: ALICE, body: big }))
    expect(viaFetch).toEqual({ status: 413, lookups: 1, bodyChecks: 1 })
    const controlBody = JSON.stringify({ name: 'x'.repeat(128 * 1024) })
    const control = await counted(() => fetch(`${origin}/_emulator/accounts`, { method: 'POST', headers: ALICE, body: controlBody }))
    expect(control).toEqual({ status: 413, lookups: 1, bodyChecks: 1 })
  })
})
