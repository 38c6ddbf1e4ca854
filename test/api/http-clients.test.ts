import http, { request as namedRequest } from 'node:http'
import axios from 'axios'
import got from 'got'
import ky from 'ky'
import { setupServer } from 'msw/node'
import { request as undiciRequest } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

/**
 * The table of HTTP clients × ways in (docs/guides/node-tests.md), as tests: each client calls
 * `GET /v1/teams` with Alice's key through msw's setupServer, the
 * socket-free fetch, and listen(). A client that cannot take a way in is
 * shown failing the way that page says it does.
 */

const HEADERS = { authorization: 'Bearer pres_test_alice' }
type Client = (url: string, fetchFn?: typeof fetch) => Promise<{ status: number; teams: number }>

const clients: Record<string, Client> = {
  fetch: async (url, fetchFn = fetch) => {
    const res = await fetchFn(url, { headers: HEADERS })
    return { status: res.status, teams: ((await res.json()) as { teams: unknown[] }).teams.length }
  },
  axios: async (url, fetchFn) => {
    const res = await axios.get(url, { headers: HEADERS, ...(fetchFn === undefined ? {} : { adapter: 'fetch', env: { fetch: fetchFn } }) })
    return { status: res.status, teams: res.data.teams.length }
  },
  ky: async (url, fetchFn) => {
    const res = await ky.get(url, { headers: HEADERS, ...(fetchFn === undefined ? {} : { fetch: fetchFn }) })
    return { status: res.status, teams: ((await res.json()) as { teams: unknown[] }).teams.length }
  },
  got: async (url) => {
    const res = await got(url, { headers: HEADERS, responseType: 'json', retry: { limit: 0 } })
    return { status: res.statusCode, teams: (res.body as { teams: unknown[] }).teams.length }
  },
  undici: async (url) => {
    const res = await undiciRequest(url, { headers: HEADERS })
    return { status: res.statusCode, teams: ((await res.body.json()) as { teams: unknown[] }).teams.length }
  },
  'node:http': (url) =>
    new Promise((resolve, reject) => {
      // Through the module object: msw patches http.request when setupServer listens (see the note in docs/guides/node-tests.md).
      const req = http.request(url, { headers: HEADERS }, (res) => {
        let text = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, teams: (JSON.parse(text) as { teams: unknown[] }).teams.length }))
      })
      req.on('error', reject)
      req.end()
    }),
}

const ANSWER = { status: 200, teams: 2 }

describe('through msw setupServer', () => {
  // Port 1 on loopback: nothing listens there, so a request msw did not take fails to connect.
  const emulator = createEmulator({ baseUrl: 'http://127.0.0.1:1/v1' })
  const server = setupServer(...emulator.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterAll(async () => {
    server.close()
    await emulator.close()
  })

  it.each(['fetch', 'axios', 'ky', 'got', 'node:http'])('%s is answered by the emulator', async (name) => {
    expect(await clients[name]!('http://127.0.0.1:1/v1/teams')).toEqual(ANSWER)
  })

  it('node:http through a named import (bound before msw patched the module) bypasses msw', async () => {
    const outcome = await new Promise<unknown>((resolve) => {
      const req = namedRequest('http://127.0.0.1:1/v1/teams', { headers: HEADERS }, () => resolve('answered'))
      req.on('error', resolve)
      req.end()
    })
    expect(outcome).toMatchObject({ code: 'ECONNREFUSED' })
  })

  it('undici.request() bypasses msw without a word, even with onUnhandledRequest: "error"', async () => {
    // msw patches the global fetch and node:http, not undici's own dispatcher: the request goes to the network.
    await expect(clients.undici!('http://127.0.0.1:1/v1/teams')).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect(emulator.control.listRequests().requests.filter((entry) => entry.operationId === 'listTeams')).toHaveLength(5)
  })
})

describe('through the socket-free fetch', () => {
  const emulator = createEmulator()
  afterAll(() => emulator.close())

  it.each(['fetch', 'axios', 'ky'])('%s takes emulator.fetch and is answered without a socket', async (name) => {
    expect(await clients[name]!('http://127.0.0.1:1/v1/teams', emulator.fetch)).toEqual(ANSWER)
  })
})

describe('through listen()', () => {
  const emulator = createEmulator()
  let origin = ''
  beforeAll(async () => {
    origin = (await emulator.listen({ port: 0 })).origin
  })
  afterAll(() => emulator.close())

  it.each(Object.keys(clients))('%s is answered over HTTP', async (name) => {
    expect(await clients[name]!(`${origin}/v1/teams`)).toEqual(ANSWER)
  })
})
