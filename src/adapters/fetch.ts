import { BufferedResponse } from './buffered-response.js'
import { bodyLimitFor, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'

/**
 * Maps a URL onto the emulator's own paths: anything under the base path
 * (`/v1`, or `/api/v1` for a base URL `https://host/api/v1`) goes to `/v1…`;
 * other paths (`/_emulator`, `/editor`, `/sites`) are kept.
 */
export function emulatorPath(pathname: string, basePath: string): string {
  const base = basePath.replace(/\/+$/, '')
  if (base === '/v1') return pathname
  if (base === '') {
    return OWN_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
      ? pathname
      : `/v1${pathname}`
  }
  if (pathname === base || pathname.startsWith(`${base}/`)) return `/v1${pathname.slice(base.length)}`
  return pathname
}

/** Paths the emulator serves outside the API: control plane and pages. */
export const OWN_PREFIXES = ['/_emulator', '/editor', '/sites'] as const

/** Converts a Fetch API `Request` into the core's request value. */
export async function fromFetchRequest(request: Request, basePath: string): Promise<EmulatorRequest> {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  const path = emulatorPath(url.pathname, basePath)
  let body: Uint8Array | null = null
  let bodyTooLarge = false
  if (request.body !== null) {
    const bytes = new Uint8Array(await request.arrayBuffer())
    if (bytes.byteLength > bodyLimitFor(path)) bodyTooLarge = true
    else if (bytes.byteLength > 0) body = bytes
  }
  return {
    method: request.method.toUpperCase(),
    path,
    query: url.search.slice(1),
    headers,
    body,
    bodyTooLarge,
  }
}

/** Converts the core's response value into a Fetch API `Response`. */
export function toFetchResponse(response: EmulatorResponse): Response {
  return new Response(response.body, { status: response.status, headers: response.headers })
}

const ENCODER = new TextEncoder()

/** Header values by lower-case name, repeated names joined with `, ` (as `Headers` does). */
function headerRecord(init: HeadersInit | undefined): Record<string, string> | undefined {
  const headers: Record<string, string> = {}
  const add = (name: string, value: string) => {
    const key = name.toLowerCase()
    const trimmed = String(value).trim()
    headers[key] = Object.hasOwn(headers, key) ? `${headers[key]}, ${trimmed}` : trimmed
  }
  if (init === undefined) return headers
  if (init instanceof Headers) {
    init.forEach((value, name) => {
      headers[name] = value
    })
    return headers
  }
  if (Array.isArray(init)) {
    for (const pair of init) {
      if (pair.length !== 2) return undefined
      add(pair[0]!, pair[1]!)
    }
    return headers
  }
  if (typeof init !== 'object' || init === null) return undefined
  for (const name of Object.keys(init)) add(name, (init as Record<string, string>)[name]!)
  return headers
}

/**
 * The core's request for the common call, `fetch(url, { method, headers, body })`
 * with a string or byte body, read straight from its arguments: building a
 * WHATWG `Request` costs more than the emulator's whole answer. Undefined
 * for anything else (a `Request`, a stream or form body, an aborted signal,
 * an invalid header), which goes through a real `Request` and so behaves
 * (and fails) exactly as `fetch` does.
 */
function directRequest(input: RequestInfo | URL, init: RequestInit | undefined, basePath: string): EmulatorRequest | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined
  if (init?.signal?.aborted) return undefined
  let url: URL
  try {
    url = typeof input === 'string' ? new URL(input) : input
  } catch {
    return undefined
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined
  if (url.username !== '' || url.password !== '') return undefined
  const method = (init?.method ?? 'GET').toUpperCase()
  if (!/^[A-Z]+$/.test(method) || method === 'CONNECT' || method === 'TRACE' || method === 'TRACK') return undefined
  const headers = headerRecord(init?.headers)
  if (headers === undefined) return undefined
  for (const name in headers) if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || /[\0\r\n]/.test(headers[name]!)) return undefined
  const given = init?.body
  let body: Uint8Array | null = null
  if (given !== undefined && given !== null) {
    if (method === 'GET' || method === 'HEAD') return undefined
    if (typeof given === 'string') {
      body = ENCODER.encode(given)
      headers['content-type'] ??= 'text/plain;charset=UTF-8'
    } else if (given instanceof Uint8Array) body = given
    else if (given instanceof ArrayBuffer) body = new Uint8Array(given)
    else return undefined
  }
  const path = emulatorPath(url.pathname, basePath)
  let bodyTooLarge = false
  if (body !== null && body.byteLength > bodyLimitFor(path)) {
    bodyTooLarge = true
    body = null
  } else if (body !== null && body.byteLength === 0) body = null
  return { method, path, query: url.search.slice(1), headers, body, bodyTooLarge }
}

/**
 * A Fetch-API function answered by `handle` without any socket: pass it to
 * an SDK as its `fetch`, or call it directly in tests.
 */
export function createFetch(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  basePath: () => string,
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const direct = directRequest(input, init, basePath())
    const request = direct ?? (await fromFetchRequest(new Request(input, init), basePath()))
    const response = await handle(request)
    return new BufferedResponse(response.body, { status: response.status, headers: response.headers })
  }) as typeof fetch
}
