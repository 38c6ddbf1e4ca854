import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseRawResponse, rawConnect } from '../security/raw.js'

/**
 * Found by the HTTP fuzzing of issue 11 (seed 20261123, case 128): a
 * CONNECT request got no answer at all. node:http hands CONNECT to a
 * 'connect' listener and, with none, drops the socket. It is now a 405
 * with the error body.
 */

let emulator: PresentationEmulator
let server: RunningServer
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual' })
  server = await emulator.listen({ port: 0 })
})
afterAll(() => emulator.close())

it('answers CONNECT with 405 and the error body instead of dropping the connection', async () => {
  for (const target of ['127.0.0.1:443', 'http://127.0.0.1/v1/teams']) {
    const conn = await rawConnect(server.port)
    conn.socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Length: 2\r\n\r\n{}`)
    const { text, closed } = await conn.closed()
    expect(closed).toBe(true)
    const response = parseRawResponse(text)
    expect(response.status).toBe(405)
    expect(response.headers['x-service-error-code']).toBe('METHOD_NOT_ALLOWED')
    expect(JSON.parse(response.body).error).toBe('Method not allowed')
  }
  expect((await fetch(`${server.origin}/_emulator/health`)).status).toBe(200)
})
