import { describe, expect, it } from 'vitest'
import committed from '../../reference/openapi.json' with { type: 'json' }
import { harnessPerTest, type Harness, WAYS, type Way } from '../support/harness.js'

/**
 * HTTP as generic clients expect it (RFC 9110), through each way in: HEAD
 * wherever GET is answered, CORS preflights that allow the headers they ask
 * for, no conditional requests (the spec shows no 304 or 412), and a served
 * OpenAPI document that names the API it came from.
 */

interface Exchange {
  status: number
  headers: Headers
  text: string
}

/** A request to any path of the emulator's origin, the harness's way. */
function sender(h: Harness, way: Way) {
  return async (method: string, path: string, headers: Record<string, string> = {}): Promise<Exchange> => {
    const doFetch = way === 'fetch' ? h.emulator.fetch : globalThis.fetch
    const response = await doFetch(`${new URL(h.baseUrl).origin}${path}`, { method, headers })
    return { status: response.status, headers: response.headers, text: await response.text() }
  }
}

const KEY = { authorization: 'Bearer pres_test_alice' }
const bytes = (text: string) => new TextEncoder().encode(text).byteLength
/** The headers two answers to the same request may differ in. */
const PER_REQUEST = new Set(['x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'date', 'connection', 'keep-alive'])

function comparable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    if (!PER_REQUEST.has(name)) out[name] = value
  })
  return out
}

describe.each(WAYS)('HTTP semantics (%s)', (way) => {
  const h = harnessPerTest(way)
  const send = sender(h, way)
  const apiPath = (path: string) => `${new URL(h.baseUrl).pathname}${path}`

  describe('HEAD', () => {
    it.each([
      ['an API list', (): string => apiPath('/projects?limit=2'), KEY],
      ['an API read by slug', (): string => apiPath('/projects/welcome-deck'), KEY],
      ['an API 404', (): string => apiPath('/projects/no-such-deck'), KEY],
      ['an API 401', (): string => apiPath('/teams'), {}],
      ['an API path with no operation (its hint names the path and method)', (): string => apiPath('/projects//config'), KEY],
      ['the OpenAPI document', (): string => '/openapi.json', {}],
      ['an editor page', (): string => '/editor/welcome-deck', {}],
      ['a published site', (): string => '/sites/welcome-deck.sites.localhost/', {}],
      ['a control-plane read', (): string => '/_emulator/health', {}],
      ['the dashboard', (): string => '/_emulator', {}],
    ] as const)('answers %s as GET does, with its headers and Content-Length and no body', async (_, path, headers) => {
      const get = await send('GET', path(), headers)
      const head = await send('HEAD', path(), headers)
      expect(head.status).toBe(get.status)
      expect(head.text).toBe('')
      expect(Number(head.headers.get('content-length'))).toBe(bytes(get.text))
      expect(comparable(head.headers)).toEqual({ ...comparable(get.headers), 'content-length': String(bytes(get.text)) })
    })

    it('is the GET operation: journaled with its operation id, counted by the rate limit, subject to its faults', async () => {
      const fault = await h.control('POST', '/faults', { json: { operationId: 'getProject', status: 503 } })
      expect(fault.status, fault.text).toBe(201)
      const faulted = await send('HEAD', apiPath('/projects/welcome-deck'), KEY)
      expect(faulted.status).toBe(503)
      expect(faulted.headers.get('x-service-error-code')).toBe('HTTP_503')
      expect(faulted.text).toBe('')

      const [entry] = (await h.control('GET', '/requests?limit=1')).body.requests
      expect(entry).toMatchObject({ method: 'HEAD', operationId: 'getProject', status: 503 })
    })

    it('is listed in Allow beside GET, and nowhere else', async () => {
      const onGet = await send('DELETE', apiPath('/teams'), KEY)
      expect(onGet.status).toBe(405)
      expect(onGet.headers.get('allow')).toBe('GET, HEAD')
      const onPostOnly = await send('GET', apiPath('/projects/welcome-deck/duplicate'), KEY)
      expect(onPostOnly.status).toBe(405)
      expect(onPostOnly.headers.get('allow')).toBe('POST')
      const control = await send('PUT', '/_emulator/health')
      expect(control.status).toBe(405)
      expect(control.headers.get('allow')).toBe('GET, HEAD')
    })

    it('changes nothing where GET changes nothing: a HEAD on a write route is 405', async () => {
      const before = (await h.control('GET', '/state')).text
      const reply = await send('HEAD', apiPath('/projects/welcome-deck/duplicate'), KEY)
      expect(reply.status).toBe(405)
      expect(reply.headers.get('allow')).toBe('POST')
      expect((await h.control('GET', '/state')).text).toBe(before)
    })
  })

  describe('HEAD under a rate limit', () => {
    const limited = harnessPerTest(way, { rateLimit: 2 })
    const sendLimited = sender(limited, way)

    it('counts a HEAD like the GET it stands for', async () => {
      const path = `${new URL(limited.baseUrl).pathname}/teams`
      expect((await sendLimited('HEAD', path, KEY)).status).toBe(200)
      expect((await sendLimited('HEAD', path, KEY)).status).toBe(200)
      const third = await sendLimited('GET', path, KEY)
      expect(third.status).toBe(429)
      expect(third.headers.get('x-service-error-code')).toBe('RATE_LIMITED')
      const fourth = await sendLimited('HEAD', path, KEY)
      expect(fourth.status).toBe(429)
      expect(fourth.headers.get('retry-after')).not.toBeNull()
      expect(fourth.text).toBe('')
    })
  })

  describe('CORS preflight on /v1', () => {
    it('allows the request headers the preflight asks for, and says the answer varies with them', async () => {
      const reply = await send('OPTIONS', apiPath('/projects'), {
        origin: 'https://app.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, traceparent, X-Request-Id',
      })
      expect(reply.status).toBe(204)
      expect(reply.headers.get('access-control-allow-origin')).toBe('*')
      const allowed = (reply.headers.get('access-control-allow-headers') ?? '').split(', ')
      expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'traceparent', 'x-request-id']))
      expect(allowed).not.toContain('*')
      expect(reply.headers.get('vary')).toContain('Access-Control-Request-Headers')
    })

    it('leaves out what is not a header name, and allows the key and the body type without asking', async () => {
      const reply = await send('OPTIONS', apiPath('/projects'), {
        origin: 'https://app.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': '*, bad header, x-ok',
      })
      expect(reply.status).toBe(204)
      expect(reply.headers.get('access-control-allow-headers')).toBe('authorization, content-type, x-ok')
    })

    it('leaves the control plane its own guard: a foreign origin gets no CORS there', async () => {
      const reply = await send('OPTIONS', '/_emulator/state', {
        origin: 'https://app.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'traceparent',
      })
      expect(reply.status).toBe(403)
      expect(reply.headers.get('access-control-allow-origin')).toBeNull()
    })
  })

  describe('conditional requests (the spec shows no 304 or 412)', () => {
    it('sends no ETag and ignores If-None-Match and If-Match', async () => {
      const read = await send('GET', apiPath('/projects/welcome-deck'), KEY)
      expect(read.headers.get('etag')).toBeNull()
      const again = await send('GET', apiPath('/projects/welcome-deck'), { ...KEY, 'if-none-match': '*' })
      expect(again.status).toBe(200)
      expect(again.text).toBe(read.text)

      const renamed = await h.api('PATCH', '/projects/welcome-deck', {
        json: { name: 'Renamed under a stale If-Match' },
        headers: { 'if-match': '"not-the-current-version"' },
      })
      expect(renamed.status, renamed.text).toBe(200)
      expect((await h.api('GET', '/projects/welcome-deck')).body.name).toBe('Renamed under a stale If-Match')
    })
  })

  describe('the served OpenAPI document', () => {
    it('names the API it was served by in servers, and differs from the committed document in nothing else', async () => {
      const served = JSON.parse((await send('GET', '/openapi.json')).text)
      expect(served.servers).toEqual([{ url: h.baseUrl, description: expect.any(String) }])
      const { servers: _served, ...rest } = served
      const { servers: _committed, ...committedRest } = committed as Record<string, unknown>
      expect(rest).toEqual(committedRest)
      expect(Object.keys(served)).toEqual(Object.keys(committed))
    })
  })
})
