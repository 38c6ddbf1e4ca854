import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bodyLimitFor, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'

/** Past this many bytes beyond its limit an oversized upload is cut off instead of drained. */
const DRAIN_MARGIN = 64 * 1024 * 1024

export interface HttpServerOptions {
  port?: number
  host?: string
}

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


function headerValues(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

function send(res: ServerResponse, response: EmulatorResponse, closeConnection: boolean): void {
  const headers: Record<string, string> = { ...response.headers }
  if (closeConnection) headers.connection = 'close'
  if (response.body === null) {
    res.writeHead(response.status, headers)
    res.end()
    return
  }
  headers['content-length'] = String(Buffer.byteLength(response.body))
  res.writeHead(response.status, headers)
  res.end(response.body)
}

/**
 * The node:http adapter: reads the request (at most the path's body limit
 * is kept; a larger body is drained and answered 413), hands it to `handle`, writes
 * the answer. It does not go through msw or the Fetch API, so it costs
 * little more than a bare node:http server.
 */
export function listenHttp(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  options: HttpServerOptions = {},
): Promise<RunningServer> {
  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    const query = q === -1 ? '' : url.slice(q + 1)
    const limit = bodyLimitFor(path)
    const declared = Number(req.headers['content-length'] ?? 0)
    let tooLarge = declared > limit
    let size = 0
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) tooLarge = true
      if (size > limit + DRAIN_MARGIN) req.destroy()
      else if (!tooLarge) chunks.push(chunk)
    })
    req.on('error', () => {
      if (!res.headersSent) res.destroy()
    })
    req.on('end', () => {
      const request: EmulatorRequest = {
        method: (req.method ?? 'GET').toUpperCase(),
        path,
        query,
        headers: headerValues(req),
        body: tooLarge || chunks.length === 0 ? null : Buffer.concat(chunks),
        bodyTooLarge: tooLarge,
      }
      handle(request).then(
        (response) => send(res, response, tooLarge),
        (error: unknown) => {
          // handle() never rejects; this is a last line of defence.
          console.error('[presentation-emulator] unexpected error:', error)
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
          res.end('{"error":"Internal server error"}')
        },
      )
    })
  })
  server.keepAliveTimeout = 5_000
  const shutdown = new GracefulShutdown(server)

  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address() as AddressInfo
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
      resolve({
        server,
        origin: `http://${host}:${address.port}`,
        port: address.port,
        host: address.address,
        close: (forceAfterMs = FORCE_CLOSE_AFTER_MS) => shutdown.close(forceAfterMs),
        forceClose: () => shutdown.forceClose(),
        get forced() {
          return shutdown.forced
        },
      })
    })
  })
}

/**
 * Graceful shutdown of a node:http server.
 *
 * `server.close()` stops accepting connections and closes the idle ones, but
 * a keep-alive connection whose request was in flight stays open after its
 * answer until the client or `keepAliveTimeout` closes it, which would hold
 * the process for seconds after SIGTERM. So the server tracks the responses in
 * flight and, once stopping, answers them (and any request still arriving on
 * an open connection) with `Connection: close`, and drops every connection
 * as soon as it is idle.
 */
class GracefulShutdown {
  readonly #inFlight = new Set<ServerResponse>()
  #stopping = false
  #forced = false

  constructor(private readonly server: Server) {
    server.on('request', (_request, response: ServerResponse) => {
      this.#inFlight.add(response)
      if (this.#stopping) this.#closeAfter(response)
      response.once('close', () => {
        this.#inFlight.delete(response)
        // Once the answer is out the connection is idle: drop it rather than wait for keepAliveTimeout.
        if (this.#stopping) setImmediate(() => server.closeIdleConnections())
      })
    })
  }

  #closeAfter(response: ServerResponse): void {
    if (!response.headersSent) response.setHeader('connection', 'close')
  }

  /**
   * True once connections were cut with requests still running: their
   * handlers may still hold timers (a fault's `delayMs`), so the process
   * must exit explicitly rather than wait for them.
   */
  get forced(): boolean {
    return this.#forced
  }

  /** Cuts every connection, answered or not. */
  forceClose(): void {
    if (this.#inFlight.size > 0) this.#forced = true
    this.server.closeAllConnections()
  }

  /**
   * Stops accepting connections, lets the requests in flight finish, and
   * resolves once every connection is closed. After `forceAfterMs` the
   * remaining connections are cut.
   */
  close(forceAfterMs: number): Promise<void> {
    this.#stopping = true
    for (const response of this.#inFlight) this.#closeAfter(response)
    const force = setTimeout(() => this.forceClose(), forceAfterMs)
    force.unref()
    return new Promise<void>((resolve) => {
      this.server.close(() => {
        clearTimeout(force)
        resolve()
      })
      this.server.closeIdleConnections()
    })
  }
}
