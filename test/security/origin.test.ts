import { afterAll, beforeAll, describe, expect } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { ensureBuilt, it } from '../support/cli.js'
import { parseRawResponse, rawConnect } from './raw.js'

/**
 * Issue 11, finding 3: any web page could drive the control plane. It
 * answered every origin with `Access-Control-Allow-Origin: *` (so a page
 * could read GET /_emulator/state and every API key in it), a plain form
 * post reset the world, and a DNS-rebinding page reached it under a
 * foreign Host.
 */

const EVIL = 'http://evil.example'
const APP = 'http://localhost:3000'

describe('cross-origin reads and writes (every way in)', () => {
  let emulator: PresentationEmulator
  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', allowedOrigins: [APP] })
    await emulator.ready()
  })
  afterAll(() => emulator.close())
  const call = (path: string, init: RequestInit = {}) => emulator.fetch(`http://127.0.0.1:4010${path}`, init)
  const stateText = async () => (await call('/_emulator/state')).text()

  it('grants no CORS to a foreign origin on the control plane, the dashboard and the pages', async () => {
    for (const path of [
      '/_emulator/state',
      '/_emulator',
      '/_emulator/dashboard/fragment',
      '/editor/welcome-deck',
      '/sites/welcome-deck.sites.localhost/',
    ]) {
      const reply = await call(path, { headers: { origin: EVIL } })
      expect(reply.status, path).toBe(200)
      expect(reply.headers.get('access-control-allow-origin'), path).toBeNull()
    }
  })

  it('refuses a foreign preflight on the control plane with 403 and no CORS headers', async () => {
    const reply = await call('/_emulator/reset', { method: 'OPTIONS', headers: { origin: EVIL, 'access-control-request-method': 'POST' } })
    expect(reply.status).toBe(403)
    expect(reply.headers.get('access-control-allow-origin')).toBeNull()
    expect(reply.headers.get('x-service-error-code')).toBe('FORBIDDEN')
  })

  it('refuses a plain form post from a foreign page (no preflight) and changes nothing', async () => {
    await call('/_emulator/accounts', { method: 'POST', body: '{}' })
    const before = await stateText()
    const reply = await call('/_emulator/reset', {
      method: 'POST',
      headers: { origin: EVIL, 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' },
      body: 'a=1',
    })
    expect(reply.status).toBe(403)
    expect(reply.headers.get('x-service-error-code')).toBe('FORBIDDEN')
    expect(await reply.json()).toEqual({
      error: 'Forbidden',
      hint: `requests from ${EVIL} may not change the emulator; allow it with --allowed-origin ${EVIL} (allowedOrigins in code)`,
    })
    expect(await stateText()).toBe(before)
  })

  it('refuses Sec-Fetch-Site: cross-site and Origin: null writes too', async () => {
    expect((await call('/_emulator/faults', { method: 'DELETE', headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403)
    expect((await call('/_emulator/faults', { method: 'DELETE', headers: { origin: 'null' } })).status).toBe(403)
  })

  it('keeps requests without Origin working (curl, scripts, the README examples)', async () => {
    expect((await call('/_emulator/faults', { method: 'DELETE' })).status).toBe(200)
    expect((await call('/_emulator/faults', { method: 'DELETE', headers: { 'sec-fetch-site': 'none' } })).status).toBe(200)
  })

  it('lets an allowed origin (--allowed-origin) read and write, with its origin echoed', async () => {
    const preflight = await call('/_emulator/accounts', {
      method: 'OPTIONS',
      headers: { origin: APP, 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP)
    const created = await call('/_emulator/accounts', {
      method: 'POST',
      headers: { origin: APP, 'sec-fetch-site': 'same-site' },
      body: '{}',
    })
    expect(created.status).toBe(201)
    expect(created.headers.get('access-control-allow-origin')).toBe(APP)
    expect(created.headers.get('vary')).toBe('Origin')
  })

  it('keeps /v1 open to every origin (bearer keys, no cookies)', async () => {
    const reply = await call('/v1/teams', { headers: { origin: EVIL, authorization: 'Bearer pres_test_alice' } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('access-control-allow-origin')).toBe('*')
    const preflight = await call('/v1/teams', { method: 'OPTIONS', headers: { origin: EVIL } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('over HTTP, bound to loopback', () => {
  let emulator: PresentationEmulator
  let server: RunningServer
  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', allowedHosts: ['emulator'], publicUrl: 'http://decks.test:8080' })
    server = await emulator.listen({ port: 0 })
  })
  afterAll(() => emulator.close())

  async function rawGet(path: string, headers: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const conn = await rawConnect(server.port)
    conn.socket.write(`GET ${path} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`)
    const { text } = await conn.closed()
    return parseRawResponse(text)
  }

  it('refuses a foreign Host (DNS rebinding) with 403 and the error body, on every path', async () => {
    for (const path of ['/_emulator/state', '/_emulator', '/editor/welcome-deck', '/v1/teams']) {
      const reply = await rawGet(path, 'Host: evil.example:4010\r\nAuthorization: Bearer pres_test_alice\r\n')
      expect(reply.status, path).toBe(403)
      expect(reply.headers['x-service-error-code']).toBe('FORBIDDEN')
      expect(JSON.parse(reply.body).error).toBe('Forbidden')
    }
  })

  it('accepts loopback names, the --public-url host and --allowed-host names', async () => {
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      'app.localhost',
      '[::1]:4010',
      'emulator:4010',
      'EMULATOR',
      'decks.test:8080',
    ]) {
      const reply = await rawGet('/_emulator/health', `Host: ${host}\r\n`)
      expect(reply.status, host).toBe(200)
    }
  })

  it("lets the dashboard's own fetch (Origin matching the Host) change state, and refuses a rebinding page's", async () => {
    const own = `http://127.0.0.1:${server.port}`
    const ok = await fetch(`${own}/_emulator/accounts`, {
      method: 'POST',
      headers: { origin: own, 'content-type': 'application/json' },
      body: '{}',
    })
    expect(ok.status).toBe(201)
    const foreign = await fetch(`${own}/_emulator/accounts`, { method: 'POST', headers: { origin: 'http://127.0.0.1:9999' }, body: '{}' })
    expect(foreign.status).toBe(403)
  })

  it("does not trust the default base URL's origin (127.0.0.1:4010) once it listens elsewhere: another page could be served there", async () => {
    expect(server.port).not.toBe(4010)
    const reply = await fetch(`http://127.0.0.1:${server.port}/_emulator/reset`, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4010' },
    })
    expect(reply.status).toBe(403)
    expect(reply.headers.get('x-service-error-code')).toBe('FORBIDDEN')
  })
})

describe("a base URL given explicitly stays the emulator's own origin when it listens", () => {
  it("lets a page on the base URL's origin (the app the handlers serve) change state", async () => {
    const emulator = createEmulator({ clock: 'manual', baseUrl: 'http://localhost:5173/api/v1' })
    const server = await emulator.listen({ port: 0 })
    try {
      const reply = await fetch(`http://127.0.0.1:${server.port}/_emulator/accounts`, {
        method: 'POST',
        headers: { origin: 'http://localhost:5173', 'content-type': 'application/json' },
        body: '{}',
      })
      expect(reply.status).toBe(201)
    } finally {
      await emulator.close()
    }
  })
})

describe('the CLI', () => {
  beforeAll(() => ensureBuilt())

  it('warns when listening on a non-loopback address without --admin-token, and not with one', async ({ cli }) => {
    const open = await cli.start(['--host', '0.0.0.0', '--quiet'])
    await open.waitForStderr(/warning: listening on 0\.0\.0\.0 without --admin-token/)
    const guarded = await cli.start(['--host', '0.0.0.0', '--quiet', '--admin-token', 'secret'])
    const local = await cli.start(['--quiet'])
    // The warning is written at start, if at all: all of stderr is in once the process has exited.
    for (const server of [guarded, local]) {
      expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
      expect(server.stderr).toBe('')
    }
  })

  it('takes --allowed-host and --allowed-origin, repeated or from their env vars (the docker compose setup)', async ({ cli }) => {
    const server = await cli.start(['--quiet', '--allowed-host', 'emulator', '--allowed-host', 'other'], {
      env: { PRESENTATION_EMULATOR_ALLOWED_ORIGIN: 'http://localhost:3000,http://app.test' },
    })
    const get = async (host: string) => {
      const conn = await rawConnect(server.port)
      conn.socket.write(`GET /_emulator/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)
      return parseRawResponse((await conn.closed()).text).status
    }
    expect(await get('emulator:4010')).toBe(200)
    expect(await get('other')).toBe(200)
    expect(await get('evil.example')).toBe(403)
    for (const origin of ['http://localhost:3000', 'http://app.test']) {
      const reply = await server.request('POST', '/_emulator/accounts', { key: null, json: {}, headers: { origin } })
      expect(reply.status).toBe(201)
      expect(reply.headers.get('access-control-allow-origin')).toBe(origin)
    }
    expect((await server.request('POST', '/_emulator/accounts', { key: null, json: {}, headers: { origin: EVIL } })).status).toBe(403)
  })

  it('refuses a bad --allowed-origin / --allowed-host with exit 2', async ({ cli }) => {
    expect((await cli.run(['--allowed-origin', 'ftp://x'])).code).toBe(2)
    expect((await cli.run(['--allowed-host', 'a b'])).code).toBe(2)
  })
})
