import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseRawResponse, rawConnect } from '../security/raw.js'
import { CaseWorld, count, counts, expectErrorShape, FUZZ_FIXTURES, params, runs, timeout } from './properties.js'

/**
 * Issue 11: the HTTP share of the fuzzing, for what only node:http sees:
 * request lines, framing (Content-Length, chunked, both, neither), bodies
 * at the limits ± 1, odd and oversized headers, Host and Origin, Expect,
 * pipelining. Every case goes over a raw socket to a real server.
 *
 * Properties: a request that is complete gets exactly one HTTP answer
 * (never a hang, never a reset without a status); no 5xx; every error has
 * the spec's body and code; an error changes no state; the server keeps
 * serving. Every case starts from the same world (`CaseWorld`).
 */

let emulator: PresentationEmulator
let server: RunningServer
let world: CaseWorld

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0, fixtures: FUZZ_FIXTURES })
  // Short bounds: a request the client never finishes is answered 408 (or closed) within about a second.
  server = await emulator.listen({ port: 0, headersTimeoutMs: 1_000, requestTimeoutMs: 1_500 })
  world = await CaseWorld.take(emulator)
})
afterAll(async () => {
  await emulator.close()
  console.info(`[fuzz] HTTP: ${[...counts].map(([name, n]) => `${name} ${n}`).join(', ')}`)
})

const TARGETS = [
  '/v1/teams',
  '/v1/projects',
  '/v1/projects/welcome-deck/config',
  '/v1/projects?limit=1&limit=2',
  '/_emulator/health',
  '/_emulator/reset',
  '/_emulator/accounts',
  '/_emulator/state',
  '/editor/welcome-deck',
  '/sites/welcome-deck.sites.localhost/',
  '/_emulator',
  '*',
  'http://127.0.0.1/v1/teams',
  '/v1/../_emulator/state',
  '/%',
  '/v1/projects/%E0%A4%A',
  `/v1/${'a'.repeat(9_000)}`,
  '/v1/projects/\u00e9',
  '',
]
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'get', 'CONNECT', 'TRACE', 'G ET', 'X'.repeat(60)]
const VERSIONS = ['HTTP/1.1', 'HTTP/1.1', 'HTTP/1.1', 'HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 ', 'HTTX/1.1']

/** Body sizes at the limits: none, small, the no-body limit ± 1, the API limit ± 1. */
const SIZES = [0, 2, 1023, 1024, 1025, 64 * 1024 + 1, 1024 * 1024, 1024 * 1024 + 1, 3 * 1024 * 1024]

type Framing = 'length' | 'chunked' | 'both' | 'none' | 'short-length' | 'bad-length' | 'double-length' | 'bad-chunk'

interface RawCase {
  method: string
  target: string
  version: string
  host: 'own' | 'foreign' | 'missing' | 'twice'
  auth: string | undefined
  origin: string | undefined
  expect: boolean
  framing: Framing
  size: number
  json: boolean
  extra: string[]
  pipelined: boolean
}

const rawCase: fc.Arbitrary<RawCase> = fc.record({
  method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PUT') }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
  target: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...TARGETS.slice(0, 11)) },
    { weight: 1, arbitrary: fc.constantFrom(...TARGETS) },
  ),
  version: fc.oneof({ weight: 8, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom(...VERSIONS) }),
  host: fc.oneof(
    { weight: 8, arbitrary: fc.constant('own' as const) },
    { weight: 1, arbitrary: fc.constantFrom('foreign' as const, 'missing' as const, 'twice' as const) },
  ),
  auth: fc.constantFrom(undefined, 'Bearer pres_test_alice', 'Bearer pres_test_alice', 'Bearer pres_nope', 'Bearer \u00ff'),
  origin: fc.constantFrom(undefined, undefined, undefined, 'http://evil.example', 'null'),
  expect: fc.boolean(),
  framing: fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom<Framing>('length', 'chunked', 'none') },
    { weight: 1, arbitrary: fc.constantFrom<Framing>('both', 'short-length', 'bad-length', 'double-length', 'bad-chunk') },
  ),
  size: fc.constantFrom(...SIZES),
  json: fc.boolean(),
  extra: fc.oneof(
    { weight: 3, arbitrary: fc.constant<string[]>([]) },
    {
      weight: 1,
      arbitrary: fc.array<string>(
        fc.constantFrom(
          `X-Big: ${'b'.repeat(20_000)}`,
          'X-Fold: a\r\n folded',
          'X-Space : v',
          'X-Nul: a\u0000b',
          'Content-Type: text/plain',
          'Content-Type: application/json',
          'Sec-Fetch-Site: cross-site',
          'Transfer-Encoding: gzip, chunked',
          'Connection: keep-alive, Upgrade',
          'Upgrade: websocket',
          ': no-name',
          'X-Utf8: \u00e9t\u00e9',
        ),
        { maxLength: 2 },
      ),
    },
  ),
  pipelined: fc.boolean(),
})

function encode(c: RawCase, port: number): { bytes: Buffer; complete: boolean } {
  const body =
    c.json && c.size >= 2
      ? Buffer.from(`{"name":"${'x'.repeat(Math.max(0, c.size - 11))}"}`.slice(0, c.size).padEnd(c.size, ' '))
      : Buffer.alloc(c.size, 0x20)
  const head = [`${c.method} ${c.target} ${c.version}`]
  if (c.host === 'own' || c.host === 'twice') head.push(`Host: 127.0.0.1:${port}`)
  if (c.host === 'foreign') head.push('Host: evil.example')
  if (c.host === 'twice') head.push('Host: other.example')
  if (c.auth !== undefined) head.push(`Authorization: ${c.auth}`)
  if (c.origin !== undefined) head.push(`Origin: ${c.origin}`)
  if (c.expect && c.size > 0) head.push('Expect: 100-continue')
  head.push(...c.extra)
  let payload = Buffer.alloc(0)
  let complete = true
  switch (c.framing) {
    case 'length':
      head.push(`Content-Length: ${body.length}`)
      payload = body
      break
    case 'short-length':
      // Declares more than it sends: the request is never complete (the server may time it out, 408).
      head.push(`Content-Length: ${body.length + 10}`)
      payload = body
      complete = false
      break
    case 'bad-length':
      head.push('Content-Length: -1')
      break
    case 'double-length':
      head.push(`Content-Length: ${body.length}`, `Content-Length: ${body.length + 1}`)
      payload = body
      break
    case 'chunked':
    case 'both': {
      head.push('Transfer-Encoding: chunked')
      if (c.framing === 'both') head.push(`Content-Length: ${body.length}`)
      const chunks: Buffer[] = []
      for (let offset = 0; offset < body.length; offset += 64 * 1024) {
        const part = body.subarray(offset, offset + 64 * 1024)
        chunks.push(Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n'))
      }
      chunks.push(Buffer.from('0\r\n\r\n'))
      payload = Buffer.concat(chunks)
      break
    }
    case 'bad-chunk':
      head.push('Transfer-Encoding: chunked')
      payload = Buffer.from('zz\r\nhello\r\n0\r\n\r\n')
      break
    case 'none':
      break
  }
  head.push('Connection: close')
  const request = Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), payload])
  // Pipelining: a second, plain request right behind the first (the server answers at least the first).
  const bytes = c.pipelined
    ? Buffer.concat([request, Buffer.from(`GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)])
    : request
  return { bytes, complete }
}

/** The final response of a raw exchange (after any `100 Continue`). */
function finalResponse(text: string) {
  const stripped = text.replace(/^(HTTP\/1\.1 100 Continue\r\n\r\n)+/, '')
  const response = parseRawResponse(stripped)
  const length = Number(response.headers['content-length'] ?? response.body.length)
  return { ...response, body: response.body.slice(0, length) }
}

describe('fuzz: raw HTTP requests', () => {
  it(
    'every complete request gets one answer, no 5xx, errors with the error body that change nothing, and the server keeps serving',
    async () => {
      await fc.assert(
        fc.asyncProperty(rawCase, async (c) => {
          const { bytes, complete } = encode(c, server.port)
          const context = `${c.method} ${c.target.slice(0, 60)} ${c.version} host=${c.host} framing=${c.framing} size=${c.size} extra=${c.extra.map((e) => e.slice(0, 20)).join('|')} expect=${c.expect}`
          const conn = await rawConnect(server.port)
          conn.socket.write(bytes)
          const { text, closed } = await conn.closed()
          conn.socket.destroy()
          expect(closed, `the server neither answered nor closed: ${context}`).toBe(true)
          const response = finalResponse(text)
          count(response.status === 0 ? 'closed without an answer' : String(response.status))
          if (response.status === 0) {
            // Only a request the client never finished may go unanswered.
            expect(complete, `no answer to a complete request (received ${JSON.stringify(text.slice(0, 100))}): ${context}`).toBe(false)
          } else {
            expect(response.status, `${response.status} ${response.body} for ${context}`).toBeLessThan(500)
            if (response.status >= 400) {
              expectErrorShape(
                { status: response.status, headers: response.headers, body: c.method === 'HEAD' ? '{"error":"x"}' : response.body },
                context,
              )
            }
          }
          const health = await fetch(`${server.origin}/_emulator/health`)
          expect(health.status, `the server stopped serving after ${context}`).toBe(200)
          const unchanged = await world.after()
          if (response.status >= 400) expect(unchanged, `state changed by a ${response.status}: ${context}`).toBe(true)
        }),
        params(runs(150)),
      )
    },
    timeout(240_000),
  )
})
