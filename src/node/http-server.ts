import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { fail, internalError, ServiceError } from '../core/errors.js'
import type { EmulatorRequest, EmulatorResponse, ResolvedMount } from '../core/exchange.js'
import { hostAllowed, isLoopbackAddress } from '../core/web-guard.js'
import { MountTable } from '../mounts.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../defaults.js'
import { SERVER_DEFAULTS } from './server-defaults.js'

export { SERVER_DEFAULTS } from './server-defaults.js'

export interface HttpServerOptions {
  port?: number
  host?: string
  /**
   * The served emulator's mount table, for each request's body limit (a
   * body over its row's limit is never read). Default: the core's rows.
   */
  mounts?: Pick<MountTable<unknown>, 'resolve' | 'bodyLimitOf'>
  /** How long a client may take to send a request's headers, in ms (default 10 s); then 408. */
  headersTimeoutMs?: number
  /** How long a client may take to send a whole request, body included, in ms (default 60 s); then 408. */
  requestTimeoutMs?: number
  /** How long an idle keep-alive connection stays open, in ms (default 5 s). */
  keepAliveTimeoutMs?: number
  /** The most connections open at once (default 1,000); more are closed as they arrive. */
  maxConnections?: number
  /**
   * Host names (no port) accepted in the `Host` header besides loopback
   * names. When the server listens on a loopback address, or when this list
   * is not empty, any other `Host` is refused with 403 (DNS rebinding).
   */
  allowedHosts?: readonly string[]
  /** Another host name accepted in `Host` (the `--public-url` host); it does not turn the check on by itself. */
  publicHost?: string
}

/**
 * After an early 413 (or another answer given before the body was read) the
 * server keeps reading, and discarding, at most this many bytes for at most
 * `LINGER_MS`, then closes. A client that writes its whole body before it
 * reads still finds the status, and no upload can hold the socket for long.
 */
export const LINGER_BYTES = 16 * 1024 * 1024
export const LINGER_MS = 5_000

/** A listening emulator server. */
export interface RunningServer {
  server: Server
  /** `http://host:port`, with the actual port when 0 was asked for. */
  origin: string
  port: number
  host: string
  /**
   * Stops accepting connections, lets in-flight requests finish (answering
   * them with `Connection: close`), then resolves. Connections still busy
   * after `forceAfterMs` (default 10 s) are cut.
   */
  close(forceAfterMs?: number): Promise<void>
  /** Cuts every connection now, answered or not. */
  forceClose(): void
  /** True once connections were cut with requests still running. */
  readonly forced: boolean
}

/** How long `close()` waits for requests in flight before cutting them. */
export const FORCE_CLOSE_AFTER_MS = 10_000

function send(res: ServerResponse, response: EmulatorResponse, closeConnection: boolean, streams: Set<() => void>): void {
  if (response.stream !== undefined) {
    sendStream(res, response, response.stream, closeConnection ? undefined : streams)
    return
  }
  const headers = response.headers
  if (closeConnection) headers.connection = 'close'
  if (response.bytes !== undefined) {
    headers['content-length'] = String(response.bytes.byteLength)
    res.writeHead(response.status, headers)
    res.end(response.bytes)
    return
  }
  const body = response.body
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(response.status, headers)
  // A string body goes out with the head in one write (a buffer would take a second one).
  if (body === null) res.end()
  else res.end(body, 'utf8')
}

/** A whole HTTP/1.1 response as bytes, with `Connection: close`, for a socket node:http no longer answers on. */
function rawResponse(response: EmulatorResponse, head = false): Buffer {
  const body =
    response.bytes === undefined
      ? Buffer.from(response.body ?? '')
      : Buffer.from(response.bytes.buffer, response.bytes.byteOffset, response.bytes.byteLength)
  const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`]
  for (const [name, value] of Object.entries(response.headers)) {
    if (name === 'connection' || name === 'content-length') continue
    lines.push(`${name}: ${value.replace(/[\r\n]/g, ' ')}`)
  }
  lines.push(`content-length: ${body.length}`, 'connection: close', '', '')
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), head ? Buffer.alloc(0) : body])
}

/** The error body node:http's own refusals get (malformed request, headers too large, timeout). */
function clientErrorResponse(code: string | undefined): EmulatorResponse {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError(
        431,
        'HTTP_431',
        'Request header fields too large',
        'the request line and headers must fit in 16 KiB',
      ).toResponse()
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError(
        408,
        'HTTP_408',
        'Request timeout',
        'the request was not received in time; see the README\'s "Security and limits"',
      ).toResponse()
    default:
      return fail.validation(`malformed HTTP request${code === undefined ? '' : ` (${code})`}`).toResponse()
  }
}

/**
 * A long-lived response: headers now, then each chunk as it comes. It ends
 * when the stream ends, when the client goes away (the iterator's `return()`
 * then releases the stream's listeners), or when the server closes. Its
 * connection is not reused afterwards.
 */
function sendStream(
  res: ServerResponse,
  response: EmulatorResponse,
  stream: AsyncIterable<string>,
  // Undefined while the server is closing: the stream then ends at once.
  streams: Set<() => void> | undefined,
): void {
  let iterator: AsyncIterator<string>
  try {
    iterator = stream[Symbol.asyncIterator]()
  } catch (error) {
    send(res, internalError(error), true, new Set())
    return
  }
  let ended = false
  const stop = () => {
    if (ended) return
    ended = true
    streams?.delete(stop)
    void iterator.return?.()
    res.end()
  }
  res.on('close', stop)
  res.writeHead(response.status, { ...response.headers, connection: 'close' })
  res.flushHeaders()
  if (streams === undefined) {
    stop()
    return
  }
  streams.add(stop)
  void (async () => {
    try {
      while (!ended) {
        const next = await iterator.next()
        if (next.done || ended) break
        res.write(next.value)
      }
    } catch (error) {
      console.error('[presentation-emulator] a streamed response failed:', error)
    } finally {
      stop()
    }
  })()
}

/**
 * The node:http adapter: reads the request (at most the route's body
 * limit), hands it to `handle`, writes the answer. It does not go through
 * msw or the Fetch API, so it costs little more than a bare node:http server.
 *
 * A body over the limit is refused early: a `Content-Length` over it before
 * a byte of the body is read, a streamed (chunked) body as soon as it passes
 * it. The answer (the core's own: 401, 404 or 413, in the pipeline's order)
 * goes out at once with `Connection: close`; the server then discards at most
 * `LINGER_BYTES` more for at most `LINGER_MS` and closes.
 */
export function listenHttp(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  options: HttpServerOptions = {},
): Promise<RunningServer> {
  const mounts = options.mounts ?? new MountTable()
  const headersTimeout = options.headersTimeoutMs ?? SERVER_DEFAULTS.headersTimeoutMs
  const requestTimeout = options.requestTimeoutMs ?? SERVER_DEFAULTS.requestTimeoutMs
  if (!(headersTimeout > 0 && requestTimeout > 0 && headersTimeout <= requestTimeout)) {
    throw new RangeError('headersTimeoutMs and requestTimeoutMs must be > 0, and headersTimeoutMs ≤ requestTimeoutMs')
  }
  // Graceful close without per-request listeners: once stopping, every answer
  // (those in flight included, since they are sent after) carries
  // `Connection: close`, so keep-alive connections end with their request.
  let stopping = false
  let inFlight = 0
  // Every open socket, and those whose request the core is handling: on
  // close, the others with nothing left to write (headers or a body still
  // coming, or idle) are cut at once instead of holding the shutdown. No
  // listener per request: this is the hot path.
  const sockets = new Set<Socket>()
  const busy = new Set<Socket>()
  const streaming = new Set<Socket>()
  let forced = false
  // Long-lived responses (server-sent events) in progress, each by the function that ends it.
  const streams = new Set<() => void>()
  /** Sockets answered early that only discard what still comes, until they close. */
  const lingering = new WeakSet<Socket>()
  /** Sockets whose request is being refused for its body: the answer is on its way (`answerEarly`). */
  const refusing = new WeakSet<Socket>()
  let checkHost = false
  const allowedHosts = new Set((options.allowedHosts ?? []).map((h) => h.toLowerCase()))
  if (options.publicHost !== undefined) allowedHosts.add(options.publicHost.toLowerCase())

  const toRequest = (
    req: IncomingMessage,
    path: string,
    query: string,
    body: Uint8Array | null,
    bodyTooLarge: boolean,
    resolved: ResolvedMount,
  ): EmulatorRequest => ({
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query,
    // Node joins repeated headers (set-cookie aside, which the API never reads).
    headers: req.headers as Record<string, string | undefined>,
    body,
    bodyTooLarge,
    resolved,
    clientGone: () => req.socket.destroyed,
  })

  /** Writes `response` now, stops answering on this socket, discards what still comes (bounded), then closes. */
  const answerEarly = (req: IncomingMessage, response: EmulatorResponse) => {
    const socket = req.socket
    if (lingering.has(socket) || socket.destroyed) return
    lingering.add(socket)
    let discarded = 0
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
    req.removeAllListeners('data')
    req.on('data', (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > LINGER_BYTES) socket.destroy()
    })
    // Once the answer is flushed and the whole body has arrived, nothing is left unread: closing resets nothing.
    let flushed = false
    let received = false
    req.once('end', () => {
      received = true
      if (flushed) socket.destroy()
    })
    req.resume()
    socket.end(rawResponse(response, req.method === 'HEAD'), () => {
      flushed = true
      if (received) socket.destroy()
    })
  }

  const refuse = (req: IncomingMessage, error: ServiceError) => answerEarly(req, error.toResponse())

  /** Hands a request to the core and sends its answer. */
  const answer = (res: ServerResponse, request: EmulatorRequest) => {
    const socket = res.socket
    if (socket !== null) busy.add(socket)
    inFlight += 1
    handle(request)
      .then(
        (response) => {
          // A live stream outlives its handling: it ends (and its socket closes) when close() stops it.
          if (response.stream !== undefined && socket !== null) {
            streaming.add(socket)
            res.once('close', () => streaming.delete(socket))
          }
          send(res, response, stopping, streams)
        },
        (error: unknown) => {
          // handle() never rejects; this is a last line of defence.
          if (!res.headersSent) send(res, internalError(error), true, streams)
          else res.end()
        },
      )
      .finally(() => {
        inFlight -= 1
        if (socket !== null) busy.delete(socket)
      })
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (checkHost && !hostAllowed(req.headers.host, allowedHosts)) {
      refuse(
        req,
        new ServiceError(
          403,
          'FORBIDDEN',
          'Forbidden',
          `Host "${req.headers.host}" is not served here; start the emulator with --allowed-host to accept it`,
        ),
      )
      return
    }
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      refuse(req, fail.validation('an HTTP/1.1 request needs a Host header'))
      return
    }
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    const query = q === -1 ? '' : url.slice(q + 1)
    // Without Content-Length or Transfer-Encoding no body follows (RFC 9112 §6.3):
    // answer at once, with no stream listeners to add and remove (most requests are GETs).
    const method = (req.method ?? 'GET').toUpperCase()
    const resolved = mounts.resolve(method, path)
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      answer(res, toRequest(req, path, query, null, false, resolved))
      return
    }
    const limit = mounts.bodyLimitOf(resolved)
    const tooLarge = () => {
      // The core answers (401, 404, 405 or 413, in its own order); the body is never read.
      refusing.add(req.socket)
      busy.add(req.socket)
      inFlight += 1
      handle(toRequest(req, path, query, null, true, resolved))
        .then(
          (response) => answerEarly(req, response),
          () => answerEarly(req, fail.payloadTooLarge(limit).toResponse()),
        )
        .finally(() => {
          inFlight -= 1
          busy.delete(req.socket)
        })
    }
    if (Number(req.headers['content-length'] ?? 0) > limit) {
      // Read nothing meanwhile: the discarding starts with the answer.
      req.pause()
      tooLarge()
      return
    }
    let size = 0
    const chunks: Buffer[] = []
    let refused = false
    req.on('data', (chunk: Buffer) => {
      if (refused) return
      size += chunk.length
      if (size > limit) {
        refused = true
        chunks.length = 0
        req.pause()
        tooLarge()
      } else chunks.push(chunk)
    })
    req.on('error', () => {
      if (!res.headersSent) res.destroy()
    })
    req.on('end', () => {
      if (refused) return
      const body = chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
      answer(res, toRequest(req, path, query, body, false, resolved))
    })
  }

  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // How often node:http looks for requests past their timeouts (its default, 30 s, would triple a 10 s bound).
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // A missing Host is answered by `onRequest`, with the error body.
      requireHostHeader: false,
    },
    onRequest,
  )
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? SERVER_DEFAULTS.keepAliveTimeoutMs
  server.maxConnections = options.maxConnections ?? SERVER_DEFAULTS.maxConnections
  // `Expect: 100-continue`: a body that would be refused is refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const q = (req.url ?? '/').indexOf('?')
    const path = q === -1 ? (req.url ?? '/') : req.url!.slice(0, q)
    // Its row's limit decides the 100 Continue; the request is looked up again when it is handled (this rare exchange alone looks up twice).
    const method = (req.method ?? 'GET').toUpperCase()
    if (Number(req.headers['content-length'] ?? 0) <= mounts.resolve(method, path).bodyLimit) res.writeContinue()
    onRequest(req, res)
  })
  // CONNECT (a proxy tunnel): node:http would drop the socket without a word when nothing listens for it.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    lingering.add(socket)
    socket.end(rawResponse(fail.methodNotAllowed(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']).toResponse()))
    const timer = setTimeout(() => socket.destroy(), 1_000)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })
  // node:http's own refusals (a malformed request, headers over 16 KiB, a
  // request not received in time) get the API's error body and code.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Bytes behind a request whose body is being refused (a request pipelined after it, say): its answer is
    // still being made, and `answerEarly` sends it, discards the rest and closes.
    if (refusing.has(socket) && !lingering.has(socket) && !socket.destroyed) return
    const pending = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
    if (lingering.has(socket) || error.code === 'ECONNRESET' || !socket.writable || pending?.headersSent === true) {
      socket.destroy()
      return
    }
    if (error.code === 'HPE_CLOSED_CONNECTION' || (pending !== undefined && pending.req?.complete === true)) {
      // Bytes after a request that asked to close, or a bad pipelined request behind one being
      // answered: that answer goes out first, and the connection closes after it.
      lingering.add(socket)
      if (pending !== undefined && !pending.writableFinished) pending.once('finish', () => socket.destroySoon())
      else socket.destroySoon()
      const timer = setTimeout(() => socket.destroy(), FORCE_CLOSE_AFTER_MS)
      timer.unref()
      socket.once('close', () => clearTimeout(timer))
      return
    }
    lingering.add(socket)
    socket.end(rawResponse(clientErrorResponse(error.code)))
    const timer = setTimeout(() => socket.destroy(), 1_000)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  })

  const forceClose = () => {
    if (inFlight > 0) forced = true
    server.closeAllConnections()
  }
  const close = (forceAfterMs = FORCE_CLOSE_AFTER_MS) => {
    stopping = true
    // A stream never finishes on its own: end them, so they do not hold the close for forceAfterMs.
    for (const stop of [...streams]) stop()
    const force = setTimeout(forceClose, forceAfterMs)
    force.unref()
    return new Promise<void>((resolve) => {
      server.close(() => {
        clearTimeout(force)
        resolve()
      })
      server.closeIdleConnections()
      // A client still sending its headers or body has had nothing answered and nothing changed:
      // waiting for it would hold the shutdown (and a final state save) for the whole cut-off.
      // A socket still flushing an answer is left to finish (answered early ones linger on their own timer).
      for (const socket of sockets)
        if (!busy.has(socket) && !streaming.has(socket) && socket.writableLength === 0 && !lingering.has(socket)) socket.destroy()
    })
  }

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST, () => {
      server.off('error', reject)
      const address = server.address() as AddressInfo
      checkHost = isLoopbackAddress(address.address) || (options.allowedHosts ?? []).length > 0
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      resolve({
        server,
        origin: `http://${host}:${address.port}`,
        port: address.port,
        host: address.address,
        close,
        forceClose,
        get forced() {
          return forced
        },
      })
    })
  })
}
