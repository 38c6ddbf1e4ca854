import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import type { MountTable } from '../mounts.js'
import { bufferedResponse } from './buffered-response.js'

/** What an adapter reads of an emulator's mount table: which paths are its own, and each request's body limit. */
export type Routing = Pick<MountTable<unknown>, 'isOwnPath' | 'resolve' | 'bodyLimitOf' | 'ownPrefixes'>

/**
 * Maps a URL onto the emulator's own paths: anything under the base path
 * (`/v1`, or `/api/v1` for a base URL `https://host/api/v1`) goes to `/v1…`;
 * other paths (`/_emulator`, `/editor`, `/sites`) are kept.
 */
export function emulatorPath(pathname: string, basePath: string, mounts: Routing): string {
  const base = basePath.replace(/\/+$/, '')
  if (base === '/v1') return pathname
  if (base === '') {
    return mounts.isOwnPath(pathname) ? pathname : `/v1${pathname}`
  }
  if (pathname === base || pathname.startsWith(`${base}/`)) return `/v1${pathname.slice(base.length)}`
  return pathname
}

/** Converts a Fetch API `Request` into the core's request value. */
export async function fromFetchRequest(request: Request, basePath: string, mounts: Routing): Promise<EmulatorRequest> {
  const url = new URL(request.url)
  const headers: Record<string, string> = {}
  request.headers.forEach((value, name) => {
    headers[name] = value
  })
  const path = emulatorPath(url.pathname, basePath, mounts)
  const method = request.method.toUpperCase()
  const resolved = mounts.resolve(method, path)
  const { body, tooLarge: bodyTooLarge } =
    request.body === null ? { body: null, tooLarge: false } : await readBody(request, mounts.bodyLimitOf(resolved))
  return {
    method,
    path,
    query: url.search.slice(1),
    headers,
    body,
    bodyTooLarge,
    resolved,
    clientGone: () => request.signal.aborted,
  }
}

/**
 * Reads a request body up to `limit` bytes, as the HTTP server does: a
 * declared `Content-Length` over the limit is not read at all, and a
 * streamed body is read only until it passes the limit (then cancelled).
 */
async function readBody(request: Request, limit: number): Promise<{ body: Uint8Array | null; tooLarge: boolean }> {
  if (request.body === null) return { body: null, tooLarge: false }
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (declared > limit) {
    // Not awaited: some sources (msw's interceptor) settle a cancel only once fully read.
    request.body.cancel().catch(() => undefined)
    return { body: null, tooLarge: true }
  }
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      reader.cancel().catch(() => undefined)
      return { body: null, tooLarge: true }
    }
    chunks.push(value)
  }
  if (size === 0) return { body: null, tooLarge: false }
  if (chunks.length === 1) return { body: chunks[0]!, tooLarge: false }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.byteLength
  }
  return { body, tooLarge: false }
}

/**
 * Converts the core's response value into a Fetch API `Response`. A
 * streamed response becomes a `ReadableStream` body; cancelling it (the
 * reader stops, or `signal` aborts) ends the emulator's stream.
 */
export function toFetchResponse(response: EmulatorResponse, signal?: AbortSignal): Response {
  if (response.bytes !== undefined)
    return new Response(response.bytes as Uint8Array<ArrayBuffer>, { status: response.status, headers: response.headers })
  if (response.stream === undefined) return new Response(response.body, { status: response.status, headers: response.headers })
  return new Response(streamBody(response.stream, signal), { status: response.status, headers: response.headers })
}

function streamBody(stream: AsyncIterable<string>, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder()
  let iterator: AsyncIterator<string> | undefined
  let onAbort: (() => void) | undefined
  const release = () => {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
    onAbort = undefined
    const it = iterator
    iterator = undefined
    void it?.return?.()
  }
  return new ReadableStream<Uint8Array>({
    start(controller) {
      iterator = stream[Symbol.asyncIterator]()
      if (signal === undefined) return
      onAbort = () => {
        release()
        controller.error(signal.reason)
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort, { once: true })
    },
    async pull(controller) {
      const it = iterator
      if (it === undefined) return
      const next = await it.next()
      if (iterator === undefined) return
      if (next.done) {
        release()
        controller.close()
      } else {
        controller.enqueue(encoder.encode(next.value))
      }
    },
    cancel() {
      release()
    },
  })
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
function directRequest(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  basePath: string,
  mounts: Routing,
): EmulatorRequest | undefined {
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
  const path = emulatorPath(url.pathname, basePath, mounts)
  const resolved = mounts.resolve(method, path)
  let bodyTooLarge = false
  if (body !== null && body.byteLength > mounts.bodyLimitOf(resolved)) {
    bodyTooLarge = true
    body = null
  } else if (body !== null && body.byteLength === 0) body = null
  return { method, path, query: url.search.slice(1), headers, body, bodyTooLarge, resolved }
}

/** `pending`, or a rejection with the signal's reason as soon as it aborts (what a fetch does). */
function abortable<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener('abort', onAbort, { once: true })
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort)
        reject(error)
      },
    )
  })
}

/**
 * A Fetch-API function answered by `handle` without any socket: pass it to
 * an SDK as its `fetch`, or call it directly in tests.
 */
export function createFetch(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  basePath: () => string,
  mounts: Routing,
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const direct = directRequest(input, init, basePath(), mounts)
    let signal: AbortSignal | undefined = init?.signal ?? undefined
    let request: EmulatorRequest
    if (direct !== undefined) request = direct
    else {
      const fetchRequest = new Request(input, init)
      signal = fetchRequest.signal
      request = await fromFetchRequest(fetchRequest, basePath(), mounts)
    }
    // A client that aborts stops waiting, as with a real fetch; the emulator still finishes the request
    // and journals it as `clientGone` (the client report's abandoned-generate rule reads it).
    if (signal !== undefined && signal !== null) {
      // An aborted fetch sends nothing.
      if (signal.aborted) throw signal.reason
      const aborted = signal
      request.clientGone = () => aborted.aborted
    }
    const response = signal === undefined || signal === null ? await handle(request) : await abortable(handle(request), signal)
    // A long-lived answer (server-sent events) streams; any other is served from its string.
    if (response.stream !== undefined || response.bytes !== undefined) return toFetchResponse(response, signal)
    return bufferedResponse(response.body, { status: response.status, headers: response.headers })
  }) as typeof fetch
}
