import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseRawResponse, rawConnect } from './raw.js'

/**
 * Issue 11, finding 2: 413 was not early. A 50 MiB upload to PUT /config was
 * read to the end before the 413; above ~65 MiB the connection was reset
 * with no status; the control plane buffered up to 256 MiB on every route.
 */

const MiB = 1024 * 1024
let emulator: PresentationEmulator
let server: RunningServer

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
  server = await emulator.listen({ port: 0 })
})
afterAll(() => emulator.close())

interface Upload {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
  /** Body bytes the client had handed to the socket when the status arrived. */
  sentWhenAnswered: number
}

/**
 * Streams `total` bytes of body (in 64 KiB chunks, respecting backpressure)
 * while reading, as curl and fetch do, and reports when the answer came.
 * `declare` sends a Content-Length; otherwise the body is chunked.
 */
function upload(method: string, path: string, total: number, declare: boolean, headers: Record<string, string> = {}): Promise<Upload> {
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        headers: {
          authorization: 'Bearer pres_test_alice',
          'content-type': 'application/json',
          ...(declare ? { 'content-length': String(total) } : {}),
          ...headers,
        },
      },
      (res) => {
        answered = true
        const sentWhenAnswered = sent
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body, sentWhenAnswered }))
        res.on('error', reject)
      },
    )
    req.on('error', (error) => {
      if (!answered) reject(error)
    })
    const chunk = Buffer.alloc(64 * 1024, 0x20)
    const pump = () => {
      while (!answered && sent < total) {
        const size = Math.min(chunk.length, total - sent)
        sent += size
        if (!req.write(size === chunk.length ? chunk : chunk.subarray(0, size))) {
          req.once('drain', pump)
          return
        }
      }
      if (!answered) req.end()
    }
    pump()
  })
}

describe('early 413 over HTTP', () => {
  it('answers a Content-Length over the limit before reading a byte of the body, with Connection: close and the error body', async () => {
    const conn = await rawConnect(server.port)
    conn.socket.write(
      `PUT /v1/projects/welcome-deck/config HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer pres_test_alice\r\nContent-Type: application/json\r\nContent-Length: ${50 * MiB}\r\n\r\n`,
    )
    // Not a byte of the body is sent: the answer must come anyway.
    const text = await conn.waitFor(/\r\n\r\n\{.*\}$/s)
    const response = parseRawResponse(text)
    expect(response.status).toBe(413)
    expect(response.headers.connection).toBe('close')
    expect(response.headers['x-service-error-code']).toBe('PAYLOAD_TOO_LARGE')
    expect(JSON.parse(response.body)).toEqual({ error: 'Request body too large', hint: `the limit is ${MiB} bytes` })
    conn.socket.destroy()
    // The journal says how large the refused body was, and that none of it was kept.
    const entry = emulator.control.listRequests({ operationId: 'updateProjectConfig', status: '413' }).requests[0]!
    expect(entry.request).toMatchObject({ body: null, bodySize: 50 * MiB, bodyTruncated: true })
  })

  it('keeps the pipeline order: an oversized upload with a bad key is 401, on an unknown path 404, both early', async () => {
    const unauthorized = await upload('PUT', '/v1/projects/welcome-deck/config', 50 * MiB, true, { authorization: 'Bearer pres_nope' })
    expect(unauthorized.status).toBe(401)
    expect(unauthorized.sentWhenAnswered).toBeLessThan(50 * MiB)
    const missing = await upload('PUT', '/v1/nowhere', 50 * MiB, true)
    expect(missing.status).toBe(404)
  })

  it('answers a 50 MiB upload to PUT /config with 413 long before it is sent (declared length)', async () => {
    const reply = await upload('PUT', '/v1/projects/welcome-deck/config', 50 * MiB, true)
    expect(reply.status).toBe(413)
    expect(reply.headers['x-service-error-code']).toBe('PAYLOAD_TOO_LARGE')
    expect(reply.sentWhenAnswered).toBeLessThan(20 * MiB)
  })

  it('counts a chunked body as it streams and answers 413 once it passes the limit', async () => {
    const reply = await upload('PUT', '/v1/projects/welcome-deck/config', 200 * MiB, false)
    expect(reply.status).toBe(413)
    expect(reply.headers.connection).toBe('close')
    expect(JSON.parse(reply.body).error).toBe('Request body too large')
    // The socket buffers hold a few MiB; the point is that nowhere near 200 MiB was taken.
    expect(reply.sentWhenAnswered).toBeLessThan(20 * MiB)
  })

  it('gives a status, not a reset, to uploads past the old 65 MiB cut-off', async () => {
    for (const declare of [true, false]) {
      const reply = await upload('POST', '/v1/projects', 120 * MiB, declare)
      expect(reply.status).toBe(413)
    }
  })

  it('lets a client that writes its whole (oversized) body before reading still read the 413', async () => {
    const conn = await rawConnect(server.port)
    const size = 4 * MiB
    conn.socket.write(
      `POST /v1/projects HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer pres_test_alice\r\nContent-Length: ${size}\r\n\r\n`,
    )
    conn.socket.write(Buffer.alloc(size, 0x20))
    const { text, closed } = await conn.closed()
    expect(closed).toBe(true)
    expect(parseRawResponse(text).status).toBe(413)
  })

  it('reads a body just under the limit as before', async () => {
    // Exactly 1 MiB of spaces: read in full, and blank counts as no body, so the project is created.
    const reply = await upload('POST', '/v1/projects', MiB, true)
    expect(reply.status).toBe(200)
    expect(JSON.parse(reply.body).projectSlug).toMatch(/^untitled/)
  })
})

describe('control-plane body limits, per route', () => {
  it('reads no body on routes that take none: POST /reset with 2 KiB is 413, with {} it resets', async () => {
    const big = await upload('POST', '/_emulator/reset', 2048, true, { authorization: '' })
    expect(big.status).toBe(413)
    expect(JSON.parse(big.body).hint).toBe('the limit is 1024 bytes')
    const small = await emulator.fetch('http://127.0.0.1:4010/_emulator/reset', { method: 'POST', body: '{}' })
    expect(small.status).toBe(200)
  })

  it('takes small bodies on routes that take one (64 KiB), and a large one only on PUT /state', async () => {
    const accounts = await upload('POST', '/_emulator/accounts', 100 * 1024, true, { authorization: '' })
    expect(accounts.status).toBe(413)
    expect(JSON.parse(accounts.body).hint).toBe(`the limit is ${64 * 1024} bytes`)
    const state = await upload('PUT', '/_emulator/state', 8 * MiB, true, { authorization: '' })
    expect(state.status).toBe(400) // read in full: spaces are not JSON
    const huge = await upload('PUT', '/_emulator/state', 300 * MiB, true, { authorization: '' })
    expect(huge.status).toBe(413)
    expect(huge.sentWhenAnswered).toBeLessThan(20 * MiB)
  })
})

describe('the socket-free fetch honours the same per-route limits', () => {
  /** A body stream that would produce `total` bytes, counting what is actually pulled. */
  function endless(total: number) {
    const counter = { pulled: 0 }
    const chunk = new Uint8Array(64 * 1024).fill(0x20)
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.pulled >= total) return controller.close()
        counter.pulled += chunk.length
        controller.enqueue(chunk)
      },
    })
    return { stream, counter }
  }

  it('stops reading a streamed body once it passes the limit', async () => {
    const { stream, counter } = endless(1024 * MiB)
    const reply = await emulator.fetch('http://127.0.0.1:4010/v1/projects', {
      method: 'POST',
      headers: { authorization: 'Bearer pres_test_alice' },
      body: stream,
      duplex: 'half',
    } as RequestInit)
    expect(reply.status).toBe(413)
    expect(counter.pulled).toBeLessThan(4 * MiB)
  })

  it('refuses a body on a control-plane route that takes none', async () => {
    const reset = await emulator.fetch('http://127.0.0.1:4010/_emulator/jobs/job_x/complete', { method: 'POST', body: ' '.repeat(5000) })
    expect(reset.status).toBe(413)
    expect(reset.headers.get('x-service-error-code')).toBe('PAYLOAD_TOO_LARGE')
  })
})
