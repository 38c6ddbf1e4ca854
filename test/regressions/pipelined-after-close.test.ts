import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseRawResponse, rawConnect } from '../security/raw.js'

/**
 * Found by the HTTP fuzzing of issue 11 (seed 20261123, case 145): a
 * request with `Connection: close` followed at once by a pipelined one got a
 * 400 "malformed HTTP request (HPE_CLOSED_CONNECTION)" in place of its own
 * answer, although it had run: `POST /_emulator/reset` reset the world and
 * reported an error. The bytes after a closing request are now ignored, and
 * a bad pipelined request never overwrites the answer of the one before it.
 */

let emulator: PresentationEmulator
let server: RunningServer
beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual' })
  server = await emulator.listen({ port: 0 })
})
afterAll(() => emulator.close())

it('answers a Connection: close request with its own answer when more bytes follow it', async () => {
  for (const expectContinue of [false, true]) {
    const conn = await rawConnect(server.port)
    conn.socket.write(
      `POST /_emulator/accounts HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${expectContinue ? 'Expect: 100-continue\r\n' : ''}Content-Length: 2\r\nConnection: close\r\n\r\n{}` +
        `GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\n`,
    )
    const { text, closed } = await conn.closed()
    expect(closed).toBe(true)
    const response = parseRawResponse(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))
    expect(response.status).toBe(201)
    expect(JSON.parse(response.body).apiKey).toMatch(/^pres_/)
  }
})

it('answers the first of two pipelined requests when the second is malformed', async () => {
  const conn = await rawConnect(server.port)
  conn.socket.write(`GET /_emulator/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n\r\nNOT HTTP AT ALL\r\n\r\n`)
  const { text } = await conn.closed()
  expect(parseRawResponse(text).status).toBe(200)
  expect(text).toContain('"status":"ok"')
})
