import { setupServer } from 'msw/node'
import { afterAll, beforeEach } from 'vitest'
import request from 'supertest'
import type { z } from 'zod'
import { createEmulator, type EmulatorOptions, type PresentationEmulator } from '../../src/index.js'
import type { RunningServer } from '../../src/node/http-server.js'
import { parseBody as parse, requestInit, type SendOptions } from './http.js'

export type { SendOptions } from './http.js'

/** The three ways into the emulator that every API test runs through. */
export const ALL_WAYS = ['fetch', 'msw', 'http'] as const
export type Way = (typeof ALL_WAYS)[number]

/**
 * The ways this run takes: all three, unless `TEST_WAYS` (a comma-separated
 * list) narrows them. The fast tier (vitest.unit.config.ts) sets it to
 * `fetch`, the in-process way; `npm test` runs every way. A name that is not
 * a way stops the run, so a typo never runs nothing.
 */
export const WAYS: readonly Way[] = waysOf(process.env.TEST_WAYS)

function waysOf(list: string | undefined): readonly Way[] {
  if (list === undefined || list.trim() === '') return ALL_WAYS
  const names = list.split(',').map((name) => name.trim())
  const unknown = names.filter((name) => !(ALL_WAYS as readonly string[]).includes(name))
  if (unknown.length > 0) throw new Error(`TEST_WAYS names ${unknown.join(', ')}; the ways are ${ALL_WAYS.join(', ')}`)
  return ALL_WAYS.filter((way) => names.includes(way))
}

/** Test-friendly defaults: manual clock, no rate limit, every response schema-checked. */
export const TEST_DEFAULTS: EmulatorOptions = { clock: 'manual', rateLimit: 0, validateResponses: true }

export interface Reply {
  status: number
  headers: Record<string, string>
  /** The parsed JSON body (undefined when the body is empty or not JSON). */
  body: any
  text: string
}

export interface Harness {
  way: Way
  emulator: PresentationEmulator
  /** The base URL clients use (`…/v1`). */
  baseUrl: string
  /** Calls the API: `path` is relative to the base URL, with its query. */
  api(method: string, path: string, options?: SendOptions): Promise<Reply>
  /** Calls the control plane: `path` is relative to `/_emulator`. */
  control(method: string, path: string, options?: SendOptions): Promise<Reply>
  close(): Promise<void>
}

let mswServer: ReturnType<typeof setupServer> | undefined

function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {}
  headers.forEach((value, name) => {
    out[name] = value
  })
  return out
}

/**
 * Starts an emulator reachable the given way. For `msw`, one `setupServer`
 * per test file intercepts the global `fetch`; for `http`, requests go over
 * a real socket through supertest.
 */
export async function startHarness(way: Way, options: EmulatorOptions = {}): Promise<Harness> {
  const baseUrl = way === 'msw' ? 'https://presentation.test/v1' : 'http://127.0.0.1:4010/v1'
  const emulator = createEmulator({ ...TEST_DEFAULTS, baseUrl, ...options })
  await emulator.ready()

  if (way !== 'msw' && mswServer !== undefined) {
    // msw would intercept supertest's sockets too: stop it for the other ways.
    mswServer.close()
    mswServer = undefined
  }

  if (way === 'http') {
    const server: RunningServer = await emulator.listen({ port: 0 })
    const agent = request(server.server)
    const send = async (method: string, path: string, options: SendOptions = {}): Promise<Reply> => {
      const init = requestInit(method, options)
      let req = agent[method.toLowerCase() as 'get'](path)
      for (const [name, value] of Object.entries(init.headers as Record<string, string>)) req = req.set(name, value)
      if (typeof init.body === 'string') req = req.send(init.body)
      const res = await req.buffer(true).parse((response, callback) => {
        let data = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (data += chunk))
        response.on('end', () => callback(null, data))
      })
      const text = res.body as string
      return { status: res.status, headers: res.headers as Record<string, string>, body: parse(text), text }
    }
    return {
      way,
      emulator,
      baseUrl: `${server.origin}/v1`,
      api: (method, path, opts) => send(method, `/v1${path}`, opts),
      control: (method, path, opts) => send(method, `/_emulator${path}`, { key: null, ...opts }),
      close: () => emulator.close(),
    }
  }

  const origin = new URL(baseUrl).origin
  let doFetch: typeof fetch
  if (way === 'msw') {
    if (mswServer === undefined) {
      const server = setupServer()
      server.listen({ onUnhandledRequest: 'error' })
      mswServer = server
    }
    mswServer.resetHandlers(...emulator.handlers)
    doFetch = globalThis.fetch
  } else {
    doFetch = emulator.fetch
  }
  const send = async (url: string, method: string, options: SendOptions = {}): Promise<Reply> => {
    const response = await doFetch(url, requestInit(method, options))
    const text = await response.text()
    return { status: response.status, headers: headersOf(response.headers), body: parse(text), text }
  }
  return {
    way,
    emulator,
    baseUrl,
    api: (method, path, opts) => send(`${baseUrl}${path}`, method, opts),
    control: (method, path, opts) => send(`${origin}/_emulator${path}`, method, { key: null, ...opts }),
    close: () => emulator.close(),
  }
}

/**
 * A fresh emulator for every test of the enclosing `describe`, reached `way`,
 * closed after the last one. The returned object always stands for the
 * current test's harness.
 */
export function harnessPerTest(way: Way, options: EmulatorOptions = {}): Harness {
  let current: Harness | undefined
  beforeEach(async () => {
    await current?.close()
    current = await startHarness(way, options)
  })
  afterAll(() => current?.close())
  return new Proxy({} as Harness, {
    get(_, property) {
      if (current === undefined) throw new Error('the harness exists only inside a test')
      return Reflect.get(current, property)
    },
  })
}

/** Asserts `value` matches `schema` with a readable failure, and returns the parsed value. */
export function expectSchema<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) {
    throw new Error(
      `response does not match its schema:\n${JSON.stringify(result.error.issues, null, 2)}\n${JSON.stringify(value, null, 2)}`,
    )
  }
  return result.data
}

/** Asserts the spec's error body and `X-Service-Error-Code`. */
export function expectError(reply: Reply, status: number, code: string): void {
  if (reply.status !== status || reply.headers['x-service-error-code'] !== code) {
    throw new Error(`expected ${status} ${code}, got ${reply.status} ${reply.headers['x-service-error-code']}: ${reply.text}`)
  }
  if (typeof reply.body?.error !== 'string') throw new Error(`error body has no "error" string: ${reply.text}`)
  const extra = Object.keys(reply.body).filter((key) => key !== 'error' && key !== 'hint')
  if (extra.length > 0) throw new Error(`error body has unexpected keys ${extra.join(', ')}`)
}
