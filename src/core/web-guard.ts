import { ServiceError } from './errors.js'
import type { EmulatorRequest, EmulatorResponse } from './exchange.js'

/**
 * What a web page in the developer's browser may do with the emulator's own
 * paths (the control plane `/_emulator*`, the dashboard, editor and site
 * pages), and which `Host` a server bound to loopback answers.
 *
 * - Reads: those paths grant CORS only to origins named by
 *   `--allowed-origin`; a same-origin page needs none. So a foreign page
 *   cannot read `GET /_emulator/state` (and the API keys in it).
 * - Writes: a request that is not GET/HEAD with a foreign `Origin`, or with
 *   `Sec-Fetch-Site: cross-site`, is refused 403 before anything runs (a
 *   plain form post needs no preflight, so CORS alone would not stop it).
 *   A request without `Origin` (curl, scripts, server-side tests) is not a
 *   browser's cross-origin request and passes; so does the dashboard's own
 *   `fetch`, whose `Origin` matches the `Host` it was sent to.
 * - DNS rebinding: see `hostAllowed`, applied by the HTTP server.
 *
 * `/v1` is not guarded: it needs a bearer key and sends no cookies, so it
 * keeps an open CORS policy.
 */

const FORBIDDEN = (hint: string) => new ServiceError(403, 'FORBIDDEN', 'Forbidden', hint)

const EXPOSED = 'x-service-error-code, x-request-id'

/** `localhost`, `*.localhost`, 127.0.0.0/8 and `::1` (RFC 6761 and 5735): names that always mean this machine. */
export function isLoopbackName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  if (name === 'localhost' || name.endsWith('.localhost')) return true
  if (name === '[::1]' || name === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
}

/** True for an address a server listens on that only this machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  return address === '::1' || /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address) || address.toLowerCase() === 'localhost'
}

/** The host name of a `Host` header value, without its port (`[::1]` keeps its brackets). */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase()
  if (value.startsWith('[')) {
    const end = value.indexOf(']')
    return end === -1 ? value : value.slice(0, end + 1)
  }
  const colon = value.lastIndexOf(':')
  return colon === -1 ? value : value.slice(0, colon)
}

/**
 * DNS rebinding: a page on `evil.example` whose name is made to resolve to
 * 127.0.0.1 reaches a loopback server with `Host: evil.example`. Accepted:
 * no `Host` at all (HTTP/1.0), a loopback name, or one of `allowed` (host
 * names without port, lower case).
 */
export function hostAllowed(host: string | undefined, allowed: ReadonlySet<string>): boolean {
  if (host === undefined) return true
  const name = hostnameOf(host)
  return isLoopbackName(name) || allowed.has(name) || allowed.has(name.replace(/^\[|\]$/g, ''))
}

/** Normalises an origin given by a user (`http://localhost:3000/` → `http://localhost:3000`); throws on a bad one. */
export function normaliseOrigin(origin: string): string {
  const url = new URL(origin)
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`not an http(s) origin: ${origin}`)
  return url.origin
}

/**
 * What a mount (see `mounts.ts`) does with requests from web pages: the
 * answer to a CORS preflight, a refusal before anything runs, and the CORS
 * headers of every answer.
 */
export interface BrowserPolicy {
  preflight(request: EmulatorRequest): EmulatorResponse
  refusal(request: EmulatorRequest): EmulatorResponse | undefined
  corsHeaders(request: EmulatorRequest): Record<string, string>
}

/** The headers `/v1` (and the OpenAPI document) expose to any origin: a bearer key, no cookies, nothing to protect. */
const OPEN_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'x-service-error-code, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, x-request-id',
}

/**
 * Any origin may call and read (the API's policy), with any request header a
 * preflight asks for: a browser app whose tracing or logging library adds
 * `traceparent` or `X-Request-Id` works as it does against the service.
 */
export const OPEN_CORS: BrowserPolicy = {
  preflight: (request) => {
    const response = preflight(requestedHeaders(request))
    response.headers.vary = 'Access-Control-Request-Headers'
    return response
  },
  refusal: () => undefined,
  corsHeaders: () => OPEN_CORS_HEADERS,
}

/** The control plane's and pages' policy toward browsers (see the module comment). */
export class OriginGuard implements BrowserPolicy {
  constructor(
    private readonly allowedOrigins: ReadonlySet<string>,
    /** The emulator's own origins besides the request's own `Host`: public URL, listen origin, base URL. */
    private readonly ownOrigins: () => readonly string[],
  ) {}

  /** True when `origin` is the origin the request was sent to, or one of the emulator's own. */
  #sameOrigin(origin: string, request: EmulatorRequest): boolean {
    let url: URL
    try {
      url = new URL(origin)
    } catch {
      return false // "null" (sandboxed frames, file: pages) and garbage
    }
    const host = request.headers.host
    if (host !== undefined && url.host === host.trim().toLowerCase()) return true
    return this.ownOrigins().includes(url.origin)
  }

  #allowed(origin: string | undefined): origin is string {
    if (origin === undefined) return false
    if (this.allowedOrigins.has(origin)) return true
    try {
      return this.allowedOrigins.has(normaliseOrigin(origin))
    } catch {
      return false
    }
  }

  /** The 403 for a request a foreign page must not make, or undefined. */
  refusal(request: EmulatorRequest): EmulatorResponse | undefined {
    if (request.method === 'GET' || request.method === 'HEAD') return undefined
    const origin = request.headers.origin
    if (this.#allowed(origin)) return undefined
    if (origin !== undefined && !this.#sameOrigin(origin, request)) {
      return FORBIDDEN(
        `requests from ${origin} may not change the emulator; allow it with --allowed-origin ${origin} (allowedOrigins in code)`,
      ).toResponse()
    }
    if (request.headers['sec-fetch-site']?.trim().toLowerCase() === 'cross-site') {
      return FORBIDDEN(
        'cross-site requests may not change the emulator (Sec-Fetch-Site: cross-site); allow the page with --allowed-origin',
      ).toResponse()
    }
    return undefined
  }

  /** The answer to a CORS preflight: granted to allowed origins only. */
  preflight(request: EmulatorRequest): EmulatorResponse {
    const origin = request.headers.origin
    if (!this.#allowed(origin)) {
      return FORBIDDEN(
        `the emulator's control plane and pages grant no CORS to ${origin ?? 'this origin'}; allow it with --allowed-origin (allowedOrigins in code)`,
      ).toResponse()
    }
    return preflight()
  }

  /** CORS headers of an answer: the origin echoed when it is allowed, none otherwise. */
  corsHeaders(request: EmulatorRequest): Record<string, string> {
    const origin = request.headers.origin
    if (!this.#allowed(origin)) return { vary: 'Origin' }
    return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED, vary: 'Origin' }
  }
}

/** The request headers every preflight allows: the key and a JSON body's type. */
const BASE_ALLOWED_HEADERS = ['authorization', 'content-type'] as const

/** An HTTP field name (RFC 9110 §5.1: a token). */
const FIELD_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/

/**
 * The headers a preflight asks to send (`Access-Control-Request-Headers`),
 * lower case, each a valid field name, with the base ones always present.
 * A name that is not a token is left out (the browser then refuses the
 * request, as it would against a server that does not allow it). The
 * wildcard `*` is never answered: it does not cover `Authorization`.
 */
export function requestedHeaders(request: EmulatorRequest): string[] {
  const names = new Set<string>(BASE_ALLOWED_HEADERS)
  for (const part of (request.headers['access-control-request-headers'] ?? '').split(',')) {
    const name = part.trim().toLowerCase()
    if (name !== '' && name !== '*' && name.length <= 256 && FIELD_NAME.test(name)) names.add(name)
  }
  return [...names]
}

/** The answer to an allowed CORS preflight (a fresh object: callers may add headers). */
export function preflight(allowHeaders: readonly string[] = BASE_ALLOWED_HEADERS): EmulatorResponse {
  return {
    status: 204,
    headers: {
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
      'access-control-allow-headers': allowHeaders.join(', '),
      'access-control-max-age': '600',
    },
    body: null,
  }
}
