import { createServer, type Server, type ServerResponse } from 'node:http'
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


function send(res: ServerResponse, response: EmulatorResponse, closeConnection: boolean): void {
  const headers = response.headers
  if (closeConnection) headers.connection = 'close'
  const body = response.body
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(response.status, headers)
  // A string body goes out with the head in one write (a buffer would take a second one).
  if (body === null) res.end()
  else res.end(body, 'utf8')
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
  // Graceful close without per-request listeners: once stopping, every answer
  // (those in flight included, since they are sent after) carries
  // `Connection: close`, so keep-alive connections end with their request.
  let stopping = false
  let inFlight = 0
  let forced = false
  /** Hands a read request to the core and sends its answer. */
  const answer = (res: ServerResponse, request: EmulatorRequest, closeConnection: boolean) => {
    inFlight += 1
    handle(request)
      .then(
        (response) => send(res, response, closeConnection || stopping),
        (error: unknown) => {
          // handle() never rejects; this is a last line of defence.
          console.error('[presentation-emulator] unexpected error:', error)
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' })
          res.end('{"error":"Internal server error"}')
        },
      )
      .finally(() => {
        inFlight -= 1
      })
  }

  const server = createServer((req, res) => {
    const url = req.url ?? '/'
    const q = url.indexOf('?')
    const path = q === -1 ? url : url.slice(0, q)
    const query = q === -1 ? '' : url.slice(q + 1)
    // Without Content-Length or Transfer-Encoding no body follows (RFC 9112 §6.3):
    // answer at once, with no stream listeners to add and remove (most requests are GETs).
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      answer(
        res,
        {
          method: (req.method ?? 'GET').toUpperCase(),
          path,
          query,
          headers: req.headers as Record<string, string | undefined>,
          body: null,
          bodyTooLarge: false,
        },
        false,
      )
      return
    }
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
        // Node joins repeated headers (set-cookie aside, which the API never reads).
        headers: req.headers as Record<string, string | undefined>,
        body: tooLarge || chunks.length === 0 ? null : Buffer.concat(chunks),
        bodyTooLarge: tooLarge,
      }
      answer(res, request, tooLarge)
    })
  })
  server.keepAliveTimeout = 5_000

  const forceClose = () => {
    if (inFlight > 0) forced = true
    server.closeAllConnections()
  }
  const close = (forceAfterMs = FORCE_CLOSE_AFTER_MS) => {
    stopping = true
    const force = setTimeout(forceClose, forceAfterMs)
    force.unref()
    return new Promise<void>((resolve) => {
      server.close(() => {
        clearTimeout(force)
        resolve()
      })
      server.closeIdleConnections()
    })
  }

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
        close,
        forceClose,
        get forced() {
          return forced
        },
      })
    })
  })
}
