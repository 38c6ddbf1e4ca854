/**
 * What the emulator serves, and where: one row per mount. The emulator's
 * dispatch (`emulator.ts`), every adapter's body limit (the fetch adapter,
 * msw, the node:http server), the socket-free fetch's idea of "the
 * emulator's own paths" and the browser policy (CORS and the origin guard)
 * all read this table, so a new path is one new row.
 *
 * A row is data: where it matches, how large a body it reads, which
 * browser policy it has, and how to build its handler (loaded on the first
 * request the row serves, so a start loads only the API).
 */
import type { ApiPipeline } from './api/pipeline.js'
import { controlBodyLimit } from './control/http-routes.js'
import type { ControlDispatchHost } from './control/dispatch.js'
import { MAX_BODY_BYTES, MAX_NO_BODY_BYTES, type EmulatorRequest, type EmulatorResponse } from './core/exchange.js'
import { fail } from './core/errors.js'
import { OPENAPI_PATH, openApiServer, type OpenApiHost } from './openapi/serve.js'
import type { PageHost } from './pages/page-server.js'
import { ASSET_NAMES, assetUrl } from './pages/paths.js'
import type { RenderHost } from './render/documents.js'
import { RENDER_ASSET_NAMES, RENDER_ASSET_PATH } from './render/limits.js'

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

/** What a row's handler is built from: the emulator, its `/v1` pipeline and its error log. */
export interface MountContext {
  readonly host: ControlDispatchHost & PageHost & RenderHost & OpenApiHost
  readonly api: ApiPipeline
  readonly onError: (error: unknown) => void
}

export type MountHandler = (request: EmulatorRequest) => Promise<EmulatorResponse> | EmulatorResponse

export interface Mount {
  /** What the row serves (for the docs and the tests). */
  readonly name: string
  readonly path: string
  readonly match: MountMatch
  /**
   * The largest request body the row reads, in bytes, from the method and
   * path alone (so an adapter stops reading, or never starts, past it).
   */
  readonly bodyLimit: number | ((method: string, path: string) => number)
  readonly browsers: BrowserPolicyName
  /** Builds the row's handler for one emulator, on the first request the row serves. */
  open(context: MountContext): Promise<MountHandler> | MountHandler
}

/** Every mount, most specific first: the first row that matches a path serves it. */
export const MOUNTS: readonly Mount[] = [
  {
    name: 'the API',
    path: '/v1',
    match: 'tree',
    bodyLimit: MAX_BODY_BYTES,
    browsers: 'open',
    open:
      ({ api }) =>
      (request) =>
        api.handle(request),
  },
  // The pages' static assets hold no data: served to anyone (no admin token), so the editor and sites work with one set.
  // The slide renderer's documents (sandboxed frames) are assets too: the page's frames load them without a token.
  ...[
    ...ASSET_NAMES.map((name) => ({ name: `the pages' asset ${name}`, path: assetUrl(name) })),
    ...RENDER_ASSET_NAMES.map((name) => ({ name: `the slide renderer's ${name}`, path: `${RENDER_ASSET_PATH}${name}` })),
  ].map(
    ({ name, path }): Mount => ({
      name,
      path,
      match: 'exact',
      bodyLimit: MAX_NO_BODY_BYTES,
      browsers: 'own-origins',
      open: async ({ host }) => {
        const { serveAsset } = await import('./pages/assets.js')
        return (request) => serveAsset(request, host)
      },
    }),
  ),
  {
    name: 'the control plane and the dashboard',
    path: '/_emulator',
    match: 'tree',
    bodyLimit: controlBodyLimit,
    browsers: 'own-origins',
    open: async ({ host, onError }) => {
      const { ControlDispatcher } = await import('./control/dispatch.js')
      const dispatcher = new ControlDispatcher(host, onError)
      return (request) => dispatcher.handle(request)
    },
  },
  ...['/editor', '/sites'].map(
    (path): Mount => ({
      name: path === '/editor' ? 'the editor pages' : 'the published sites',
      path,
      match: 'below',
      bodyLimit: MAX_NO_BODY_BYTES,
      browsers: 'own-origins',
      open: async ({ host }) => {
        const { handlePage } = await import('./pages/page-server.js')
        return (request) => handlePage(host, request)
      },
    }),
  ),
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

function matches(mount: Mount, path: string): boolean {
  if (mount.match === 'exact') return path === mount.path
  if (!path.startsWith(mount.path)) return false
  if (path.length === mount.path.length) return mount.match === 'tree'
  return path.charCodeAt(mount.path.length) === 47 // '/'
}

/** The row that serves `path` (`NOT_FOUND_MOUNT` when none does). */
export function mountFor(path: string): Mount {
  for (const mount of MOUNTS) if (matches(mount, path)) return mount
  return NOT_FOUND_MOUNT
}

/** The largest body a request may carry, from its method and path alone (its row's limit). */
export function bodyLimitFor(method: string, path: string): number {
  const { bodyLimit } = mountFor(path)
  return typeof bodyLimit === 'number' ? bodyLimit : bodyLimit(method, path)
}

/** The top-level path of each row but the API's: what a base URL at an origin's root leaves to the emulator's own paths. */
export const OWN_PREFIXES: readonly string[] = [
  ...new Set(MOUNTS.filter((mount) => mount.path !== '/v1').map((mount) => topLevel(mount.path))),
]

function topLevel(path: string): string {
  const end = path.indexOf('/', 1)
  return end === -1 ? path : path.slice(0, end)
}

/** True for a path in one of the emulator's own namespaces (`/_emulator`, `/editor`, …), not the API's. */
export function isOwnPath(path: string): boolean {
  return OWN_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}
