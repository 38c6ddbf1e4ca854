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

/**
 * Converts the core's response value into a Fetch API `Response`. A
 * streamed response becomes a `ReadableStream` body; cancelling it (the
 * reader stops, or `signal` aborts) ends the emulator's stream.
 */
export function toFetchResponse(response: EmulatorResponse, signal?: AbortSignal): Response {
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

/**
 * A Fetch-API function answered by `handle` without any socket: pass it to
 * an SDK as its `fetch`, or call it directly in tests.
 */
export function createFetch(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  basePath: () => string,
): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    return toFetchResponse(await handle(await fromFetchRequest(request, basePath())), request.signal)
  }) as typeof fetch
}
