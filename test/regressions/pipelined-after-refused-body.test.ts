import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseRawResponse, rawConnect } from '../security/raw.js'

/**
 * Found by `npm run fuzz -- --seed 20261124 --runs 2300` (the raw HTTP property, case 713): a chunked body
 * over a route's limit, sent with `Connection: close` and another request pipelined behind it, got no answer
 * at all. The bytes after the closing request made node:http report a client error while the 413 was still
 * being made, and that handler closed the connection before the answer went out.
 */

let emulator: PresentationEmulator
let server: RunningServer
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual' })
  server = await emulator.listen({ port: 0 })
})
afterAll(() => emulator.close())

const chunked = (body: Buffer) => Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])

it.for([
  // A page does not read bodies: it answers as to a GET without one.
  ['a page', '/sites/welcome-deck.sites.localhost/', 200],
  ['the control plane', '/_emulator/health', 413],
] as const)('answers a request whose chunked body is over the limit, with another pipelined behind it (%s)', async ([, target, status]) => {
  for (const expectContinue of [false, true]) {
    const conn = await rawConnect(server.port)
    conn.socket.write(
      Buffer.concat([
        Buffer.from(
          `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${expectContinue ? 'Expect: 100-continue\r\n' : ''}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
        ),
        chunked(Buffer.alloc(2_000, 0x20)),
        Buffer.from(`GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`),
      ]),
    )
    const { text, closed } = await conn.closed()
    expect(closed).toBe(true)
    const response = parseRawResponse(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))
    expect(response.status, text).toBe(status)
    if (status === 413) expect(response.headers['x-service-error-code']).toBe('PAYLOAD_TOO_LARGE')
    // One answer: the one asked for, not the pipelined request's.
    expect(text.match(/HTTP\/1\.1 [2-5]\d\d /g)).toHaveLength(1)
  }
})
