/**
 * The validating proxy: `<proxy>/v1/X` is forwarded to `<base-url>/X` with
 * node:http (method, path, query, headers, body; `Host` rewritten,
 * hop-by-hop headers dropped per RFC 9110 §7.6.1), and the answer streams
 * back byte for byte, whatever the verdict. A copy of each side is kept (the
 * answer decoded of its Content-Encoding) and, once the answer has ended,
 * judged by the kit's table of facts (`judge.ts`) and written to the
 * recording. The proxy never blocks, delays for judging or rewrites traffic;
 * an unreachable target is answered 502 with `X-Conformance-Proxy:
 * upstream-error`, which is no finding.
 */
import { Agent as HttpAgent, createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib'
import type { Recorded } from '../facts/observed.js'
import type { HarRecorder, SeenExchange } from '../har/recorder.js'
import { type JudgeOptions, type Judgement, ProxyJudge } from './judge.js'

/** RFC 9110 §7.6.1: meant for one connection, never forwarded (with those the Connection header names). */
const HOP_BY_HOP = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'te',
  'transfer-encoding',
  'upgrade',
  'trailer',
  'proxy-authorization',
  'proxy-authenticate',
])

/** The most of each body kept for judging; a longer exchange passes through unjudged. */
const JUDGE_LIMIT = 16 * 1024 * 1024

export const PROXY_HEADER = 'x-conformance-proxy'

export interface ProxyOptions extends JudgeOptions {
  host?: string
  /** 0 picks a free port. */
  port?: number
  recorder?: HarRecorder
  /** Called with each exchange's judgements that did not hold (findings and notes). */
  onJudgement?: (judgement: Judgement) => void
  /** Called when the target could not be reached, or something else went wrong with one exchange. */
  onProblem?: (message: string) => void
}

export interface RunningProxy {
  /** `http://host:port/v1`: what an app uses as its base URL. */
  url: string
  judge: ProxyJudge
  startedAt: Date
  /** Resolves when every exchange in flight has been judged and recorded. */
  idle(): Promise<void>
  /** Stops listening, ends idle connections, and resolves once the exchanges in flight are done. */
  close(): Promise<void>
}

function dropHopByHop(raw: readonly string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = []
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i]!, raw[i + 1]!])
  const named = new Set(
    pairs
      .filter(([name]) => name.toLowerCase() === 'connection')
      .flatMap(([, value]) => value.split(',').map((v) => v.trim().toLowerCase())),
  )
  return pairs.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()) && !named.has(name.toLowerCase()))
}

/** Headers as one value per lower-case name (repeats joined), for judging and recording. */
function flat(pairs: ReadonlyArray<[string, string]>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase()
    out[lower] = out[lower] === undefined ? value : `${out[lower]}, ${value}`
  }
  return out
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  try {
    switch ((encoding ?? '').trim().toLowerCase()) {
      case 'gzip':
      case 'x-gzip':
        return gunzipSync(body)
      case 'deflate':
        return inflateSync(body)
      case 'br':
        return brotliDecompressSync(body)
      default:
        return body
    }
  } catch {
    return body
  }
}

/** Keeps the chunks of a stream up to a limit. */
class Copy {
  readonly chunks: Buffer[] = []
  size = 0
  cut = false
  add(chunk: Buffer): void {
    this.size += chunk.byteLength
    if (this.size > JUDGE_LIMIT) this.cut = true
    else this.chunks.push(chunk)
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks)
  }
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const base = new URL(options.baseUrl.replace(/\/+$/, ''))
  const basePath = base.pathname
  const secure = base.protocol === 'https:'
  const agent = secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true })
  const send = secure ? httpsRequest : httpRequest
  const judge = new ProxyJudge(options)
  const startedAt = new Date()
  const inFlight = new Set<Promise<void>>()
  /** Exchanges in flight, and the time the last one ended (for "overlapped"). */
  let open = 0
  const ends: number[] = []

  function handle(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now()
    const startedWall = new Date()
    open += 1
    let overlapped = open > 1
    const mark = () => {
      if (open > 1) overlapped = true
    }
    const url = new URL(req.url ?? '/', 'http://proxy')
    if (!url.pathname.startsWith('/v1/') && url.pathname !== '/v1') {
      open -= 1
      const body = JSON.stringify({
        error: `the proxy forwards only /v1/… to ${options.baseUrl}`,
        hint: 'use the URL it printed, ending in /v1, as the base URL',
      })
      res.writeHead(404, { 'content-type': 'application/json', [PROXY_HEADER]: 'outside-base', 'content-length': Buffer.byteLength(body) })
      res.end(body)
      return
    }
    const target = new URL(`${base.origin}${basePath}${url.pathname.slice('/v1'.length)}${url.search}`)
    const headers = dropHopByHop(req.rawHeaders).filter(([name]) => name.toLowerCase() !== 'host')
    headers.push(['Host', base.host])
    const requestCopy = new Copy()
    let sent = false
    let done: () => void = () => {}
    const finished = new Promise<void>((resolve) => {
      done = resolve
    })
    inFlight.add(finished)
    /** The exchange is over on the wire (what "overlapped" reads). */
    let over = false
    const closeExchange = () => {
      if (over) return
      over = true
      open -= 1
      ends.push(performance.now())
      if (ends.length > 64) ends.shift()
    }
    /** …and judged and recorded (what `idle()` waits for). */
    const end = () => {
      closeExchange()
      inFlight.delete(finished)
      done()
    }
    const upstream = send(target, { method: req.method, headers: headers.flat(), agent, setHost: false }, (answer) => {
      sent = true
      mark()
      const responseHeaders = dropHopByHop(answer.rawHeaders)
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders.flat())
      const responseCopy = new Copy()
      answer.on('data', (chunk: Buffer) => responseCopy.add(chunk))
      answer.pipe(res)
      answer.on('end', () => {
        mark()
        // Another exchange that ended after this one started overlapped it.
        const overlappedByEnded = ends.some((t) => t > started)
        const durationMs = performance.now() - started
        closeExchange()
        // Judged once the answer is on its way: the client never waits for the verdict.
        setImmediate(() => {
          try {
            if (requestCopy.cut || responseCopy.cut)
              options.onProblem?.(`${req.method} ${url.pathname}: a body over ${JUDGE_LIMIT} bytes passed through unjudged`)
            else
              judged(
                {
                  startedAt: startedWall,
                  durationMs,
                  method: req.method ?? 'GET',
                  url: target.href,
                  requestHeaders: flat(headers),
                  requestBody: requestCopy.size === 0 ? undefined : requestCopy.bytes,
                  status: answer.statusCode ?? 0,
                  statusText: answer.statusMessage ?? '',
                  responseHeaders: flat(responseHeaders),
                  responseBody: decoded(responseCopy.bytes, answer.headers['content-encoding']),
                },
                overlapped || overlappedByEnded,
              )
          } catch (error) {
            options.onProblem?.(`${req.method} ${url.pathname}: could not be judged: ${(error as Error).message}`)
          }
          end()
        })
      })
      answer.on('error', () => {
        res.destroy()
        end()
      })
    })
    upstream.on('socket', (socket) => socket.setNoDelay(true))
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (sent) return
      sent = true
      const message = `the proxy could not reach ${target.origin}: ${error.code ?? error.message}`
      options.onProblem?.(`${req.method} ${url.pathname}: ${message}`)
      if (!res.headersSent) {
        const body = JSON.stringify({ error: message, hint: 'this answer is the proxy’s, not the target’s; it is not judged' })
        res.writeHead(502, {
          'content-type': 'application/json',
          [PROXY_HEADER]: 'upstream-error',
          'content-length': Buffer.byteLength(body),
        })
        res.end(body)
      } else res.destroy()
      end()
    })
    req.on('data', (chunk: Buffer) => requestCopy.add(chunk))
    req.pipe(upstream)
    res.on('close', () => {
      // The client went away before the answer ended: the target's request goes too.
      if (!res.writableFinished) upstream.destroy()
    })
  }

  function judged(seen: SeenExchange, overlapped: boolean): void {
    const recorded: Recorded = {
      method: seen.method,
      url: seen.url,
      requestHeaders: seen.requestHeaders,
      requestBody: seen.requestBody?.toString('utf8'),
      status: seen.status,
      responseHeaders: seen.responseHeaders,
      responseBody: seen.responseBody.toString('utf8'),
    }
    for (const judgement of judge.judge(recorded, overlapped)) options.onJudgement?.(judgement)
    options.recorder?.add(seen)
  }

  // No Nagle delay: an answer's headers and body leave as soon as they are written.
  const server: Server = createServer({ noDelay: true }, handle)
  // Slow apps and long polls are the target's business, not the proxy's.
  server.requestTimeout = 0
  server.keepAliveTimeout = 5000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const idle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight])
    await options.recorder?.flushed()
  }
  return {
    url: `http://${host}:${address.port}/v1`,
    judge,
    startedAt,
    idle,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      await idle()
      server.closeAllConnections()
      await closed
      agent.destroy()
    },
  }
}
