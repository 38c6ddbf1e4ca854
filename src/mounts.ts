/**
 * What the emulator serves, and where: one row per mount. The emulator's
 * dispatch (`emulator.ts`), every adapter's body limit (the fetch adapter,
 * msw, the node:http server), the socket-free fetch's idea of "the
 * emulator's own paths" and the browser policy (CORS and the origin guard)
 * all read an emulator's table, so a new path is one new row.
 *
 * A row is data: where it matches, how large a body it reads, which
 * browser policy it has, and how to build its handler (loaded on the first
 * request the row serves, so a start loads only the API).
 *
 * The core's rows are here (the API, the control plane, the OpenAPI
 * document); the web room's rows (the pages, their assets, the dashboard:
 * `web/mounts.ts`) reach a table through the composition root, which hands
 * them to the emulator it builds. The core never imports the web.
 */
import type { ApiPipeline } from './api/pipeline.js'
import { resolveControlRoute } from './control/http-routes.js'
import type { ControlDispatchHost } from './control/dispatch.js'
import { MAX_BODY_BYTES, MAX_NO_BODY_BYTES, type EmulatorRequest, type EmulatorResponse, type ResolvedMount } from './core/exchange.js'
import { fail } from './core/errors.js'
import { OPENAPI_PATH, openApiServer, type OpenApiHost } from './openapi/serve.js'

/**
 * Which paths a row serves: `tree` its path and everything below it
 * (`/v1`, `/v1/projects`), `below` only what is below it (`/editor/x`, not
 * `/editor`), `exact` its path alone.
 */
export type MountMatch = 'tree' | 'below' | 'exact'

/**
 * How a row treats web pages (see `core/web-guard.ts`): `open`, any origin
 * may call it and read the answer (the API: a bearer key, no cookies);
 * `own-origins`, only the emulator's own pages and `--allowed-origin`s
 * may read it, and a foreign page may not change anything.
 */
export type BrowserPolicyName = 'open' | 'own-origins'

/** What the core's rows need of the emulator that hosts them. */
export type CoreHost = ControlDispatchHost & OpenApiHost

/**
 * What a row's handler is built from: the emulator, its `/v1` pipeline and
 * its error log. `Host` is what the row needs of the emulator (the web
 * room's rows name their own interfaces, which the emulator implements).
 */
export interface MountContext<Host = CoreHost> {
  readonly host: Host
  readonly api: ApiPipeline
  readonly onError: (error: unknown) => void
}

export type MountHandler = (request: EmulatorRequest) => Promise<EmulatorResponse> | EmulatorResponse

export interface Mount<Host = CoreHost> {
  /** What the row serves (for the docs and the tests). */
  readonly name: string
  readonly path: string
  readonly match: MountMatch
  /**
   * The methods the row serves (all when absent); a request with another
   * method goes on to the next row that matches its path.
   */
  readonly methods?: readonly string[]
  /** The largest request body the row reads, in bytes (an adapter stops reading, or never starts, past it). */
  readonly bodyLimit: number
  /**
   * For a row whose limit depends on the request (the control plane's, per
   * route): its limit from the method and path alone, and what it found
   * (its route), which the row's handler reads from `request.resolved`
   * instead of matching again.
   */
  resolve?(method: string, path: string): { bodyLimit: number; detail: unknown }
  readonly browsers: BrowserPolicyName
  /** Builds the row's handler for one emulator, on the first request the row serves. */
  open(context: MountContext<Host>): Promise<MountHandler> | MountHandler
}

/** The API's row: first in every table. */
const API_MOUNT: Mount = {
  name: 'the API',
  path: '/v1',
  match: 'tree',
  bodyLimit: MAX_BODY_BYTES,
  browsers: 'open',
  open:
    ({ api }) =>
    (request) =>
      api.handle(request),
}

/** The core's rows after the API's (and after any rows a composition root adds). */
const CORE_MOUNTS_AFTER: readonly Mount[] = [
  {
    name: 'the control plane',
    path: '/_emulator',
    match: 'tree',
    bodyLimit: MAX_NO_BODY_BYTES,
    resolve: resolveControlRoute,
    browsers: 'own-origins',
    open: async ({ host, onError }) => {
      const { ControlDispatcher } = await import('./control/dispatch.js')
      const dispatcher = new ControlDispatcher(host, onError)
      return (request) => dispatcher.handle(request)
    },
  },
  {
    name: 'the OpenAPI document',
    path: OPENAPI_PATH,
    match: 'exact',
    bodyLimit: MAX_NO_BODY_BYTES,
    browsers: 'open',
    open: ({ host }) => openApiServer(host),
  },
]

/** What answers a path no row serves: a 404 that points at the API. */
export const NOT_FOUND_MOUNT: Mount = {
  name: 'nothing (404)',
  path: '',
  match: 'exact',
  bodyLimit: MAX_NO_BODY_BYTES,
  browsers: 'open',
  open: () => (request) => fail.notFound('Route', `nothing is served at ${request.path}; the API is under /v1`).toResponse(),
}

function matches(mount: Mount<never>, method: string, path: string): boolean {
  if (mount.methods !== undefined && !mount.methods.includes(method)) return false
  if (mount.match === 'exact') return path === mount.path
  if (!path.startsWith(mount.path)) return false
  if (path.length === mount.path.length) return mount.match === 'tree'
  return path.charCodeAt(mount.path.length) === 47 // '/'
}

function topLevel(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? path : path.slice(0, end)
}

/** Where a request was found in a table: its row, the body it may carry, what the row learnt (see `ResolvedMount`). */
export interface Resolved<Host = CoreHost> extends ResolvedMount {
  readonly table: MountTable<Host>
  readonly mount: Mount<Host>
}

/**
 * One emulator's mount table: the API's row, the rows its composition root
 * added (the web room's), then the core's other rows. The first row that
 * matches a request's method and path serves it.
 *
 * A request is looked up once, by the way in that reads it (`resolve`), and
 * its body's size is checked once, against the limit that lookup gave
 * (`bodyLimitOf`); the emulator and the row read both from the request.
 * `counts` tallies the two, for the test that holds them to one each.
 */
export class MountTable<Host = CoreHost> {
  /** Every row, most specific first. */
  readonly rows: readonly Mount<Host>[]
  /** The top-level path of each row but the API's: what a base URL at an origin's root leaves to the emulator's own paths. */
  readonly ownPrefixes: readonly string[]
  /** Lookups (`resolve`) and body-size checks (`bodyLimitOf`) so far. */
  readonly counts = { lookups: 0, bodyChecks: 0 }
  /** The resolution of each row whose limit is fixed: made once, shared by every request (no allocation per request). */
  readonly #fixed = new Map<Mount<Host>, Resolved<Host>>()

  constructor(added: readonly Mount<Host>[] = []) {
    this.rows = [API_MOUNT as Mount<Host>, ...added, ...(CORE_MOUNTS_AFTER as readonly Mount<Host>[])]
    this.ownPrefixes = [...new Set(this.rows.filter((mount) => mount.path !== '/v1').map((mount) => topLevel(mount.path)))]
    for (const mount of [...this.rows, NOT_FOUND_MOUNT as Mount<Host>]) {
      if (mount.resolve === undefined) this.#fixed.set(mount, { table: this, mount, bodyLimit: mount.bodyLimit, detail: undefined })
    }
  }

  /** The row that serves `method` on `path` (`NOT_FOUND_MOUNT` when none does): a lookup, counted as one. */
  mountFor(method: string, path: string): Mount<Host> {
    this.counts.lookups++
    return this.#find(method, path)
  }

  #find(method: string, path: string): Mount<Host> {
    for (const mount of this.rows) if (matches(mount as Mount<never>, method, path)) return mount
    return NOT_FOUND_MOUNT as Mount<Host>
  }

  /** Looks a request up: its row, the body it may carry, what the row found. The one lookup of a request. */
  resolve(method: string, path: string): Resolved<Host> {
    this.counts.lookups++
    const mount = this.#find(method, path)
    const fixed = this.#fixed.get(mount)
    if (fixed !== undefined) return fixed
    const { bodyLimit, detail } = mount.resolve!(method, path)
    return { table: this, mount, bodyLimit, detail }
  }

  /** The body limit a way in enforces for a resolved request: called once per request that carries a body. */
  bodyLimitOf(resolved: ResolvedMount): number {
    this.counts.bodyChecks++
    return resolved.bodyLimit
  }

  /** The largest body a request may carry, from its method and path alone (its row's limit). */
  bodyLimitFor(method: string, path: string): number {
    return this.resolve(method, path).bodyLimit
  }

  /** True for a path in one of the emulator's own namespaces (`/_emulator`, `/editor`, …), not the API's. */
  isOwnPath(path: string): boolean {
    return this.ownPrefixes.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
  }
}
