import { fail } from '../core/errors.js'
import { MAX_CONTROL_BODY_BYTES, MAX_NO_BODY_BYTES, MAX_STATE_BODY_BYTES } from '../core/exchange.js'
import { type RouteMatch, RouteTable } from '../core/router.js'
import { parseInput } from '../core/validation.js'
import { CheckSlidesRequest } from '../model/slide-check-service.js'

/** A route's answer that is not JSON: bytes of a content type (a slide's picture, `image/png`). */
export class BinaryAnswer {
  constructor(
    readonly contentType: string,
    readonly bytes: Uint8Array,
  ) {}
}
import type { HttpMethod, PathParams } from '../schemas/operation-routes.js'
import type { ControlPlane } from './control-plane.js'

/** What a control-plane route receives. */
export interface ControlInput<Params = Record<string, string>> {
  /** Decoded path parameters, named by the route's `{param}` placeholders. */
  params: Params
  query: Record<string, string>
  /** The parsed JSON body (`{}` when there is none). */
  body: unknown
}

export interface ControlRoute {
  method: HttpMethod
  path: string
  /** Status of a success (201 for creations). */
  status: number
  /**
   * The largest body this route reads, in bytes: a state import's is large,
   * other bodies are small, and a route that takes no body reads at most an
   * empty JSON object.
   */
  bodyLimit: number
  run(control: ControlPlane, input: ControlInput): unknown
}

/** A route whose `run` sees the path parameters its path names. */
function route<Path extends string>(
  method: HttpMethod,
  path: Path,
  status: number,
  run: (control: ControlPlane, input: ControlInput<PathParams<Path>>) => unknown,
  bodyLimit: number = MAX_NO_BODY_BYTES,
): ControlRoute {
  return { method, path, status, bodyLimit, run: run as ControlRoute['run'] }
}

/** A route that takes a small JSON body (or, with `bodyLimit`, a larger one). */
function withBody<Path extends string>(
  method: HttpMethod,
  path: Path,
  status: number,
  run: (control: ControlPlane, input: ControlInput<PathParams<Path>>) => unknown,
  bodyLimit: number = MAX_CONTROL_BODY_BYTES,
): ControlRoute {
  return route(method, path, status, run, bodyLimit)
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail.validation('the body must be a JSON object')
  }
  return body as Record<string, unknown>
}

/** The control plane's routes: section 5 of the emulator contract, one line each. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  route('GET', '/_emulator/health', 200, (c) => c.health()),
  route('POST', '/_emulator/reset', 200, (c) => c.reset()),
  route('GET', '/_emulator/state', 200, (c) => c.getState()),
  withBody('PUT', '/_emulator/state', 200, (c, { body }) => c.putState(body, { adopt: true }), MAX_STATE_BODY_BYTES),
  withBody('POST', '/_emulator/accounts', 201, (c, { body }) => c.createAccount(asObject(body) as never)),
  withBody('POST', '/_emulator/teams', 201, (c, { body }) => c.createTeam(asObject(body) as never)),
  withBody('POST', '/_emulator/keys', 201, (c, { body }) => c.createKey(asObject(body) as never)),
  route('GET', '/_emulator/keys/{keyId}', 200, (c, { params }) => c.getKey(params.keyId)),
  route('DELETE', '/_emulator/keys/{keyId}', 200, (c, { params }) => c.revokeKey(params.keyId)),
  withBody('PUT', '/_emulator/teams/{teamId}/credits', 200, (c, { params, body }) => c.setCredits(params.teamId, asObject(body) as never)),
  withBody('POST', '/_emulator/templates', 201, (c, { body }) => c.createTemplate(asObject(body) as never)),
  withBody('POST', '/_emulator/projects/{slug}/collaborators', 200, (c, { params, body }) =>
    c.addCollaborator(params.slug, asObject(body) as never),
  ),
  withBody('POST', '/_emulator/projects/{slug}/slides/check', 200, (c, { params, body }) =>
    c.checkSlides(params.slug, parseInput(CheckSlidesRequest, asObject(body))),
  ),
  withBody('POST', '/_emulator/projects/{slug}/slides/{slideId}/picture', 200, async (c, { params, body }) => {
    const options = asObject(body) as { width?: number }
    return new BinaryAnswer('image/png', await c.slidePicture(params.slug, params.slideId, options))
  }),
  route('GET', '/_emulator/clock', 200, (c) => c.clock()),
  withBody('POST', '/_emulator/clock/advance', 200, (c, { body }) => c.advanceClock(asObject(body) as never)),
  route('POST', '/_emulator/jobs/{jobId}/complete', 200, (c, { params }) => c.completeJob(params.jobId)),
  withBody('POST', '/_emulator/jobs/{jobId}/fail', 200, (c, { params, body }) => c.failJob(params.jobId, asObject(body) as never)),
  withBody('POST', '/_emulator/faults', 201, (c, { body }) => c.addFault(asObject(body) as never)),
  route('GET', '/_emulator/faults', 200, (c) => c.listFaults()),
  route('DELETE', '/_emulator/faults', 200, (c) => c.clearFaults()),
  route('DELETE', '/_emulator/faults/{faultId}', 200, (c, { params }) => c.removeFault(params.faultId)),
  route('GET', '/_emulator/requests', 200, (c, { query }) => c.listRequests(query)),
  route('GET', '/_emulator/requests.har', 200, (c, { query }) => c.requestsHar(query)),
  route('GET', '/_emulator/requests/wait', 200, async (c, { query }) => {
    const { timeoutMs, bodyLimit, ...filter } = query
    return { request: await c.waitForRequest(filter, { timeoutMs, bodyLimit }) }
  }),
  route('DELETE', '/_emulator/requests', 200, (c) => c.clearRequests()),
  route('GET', '/_emulator/client-report', 200, (c, { query }) => c.clientReport(query)),
  route('POST', '/_emulator/client-report/marks', 201, (c) => c.markClientReport()),
]

/** The control plane's route table. */
export function controlRoutes(): RouteTable<ControlRoute> {
  const table = new RouteTable<ControlRoute>()
  for (const control of CONTROL_ROUTES) table.add(control.method, control.path, control)
  return table
}

let routes: RouteTable<ControlRoute> | undefined

/** The control plane's routes (data only: one table serves every emulator). */
export function controlRouteTable(): RouteTable<ControlRoute> {
  routes ??= controlRoutes()
  return routes
}

/**
 * A control-plane request's route and body limit, from its method and path
 * alone, so an adapter can refuse an oversized body before reading it and
 * the dispatcher needs no second match. A request that matches no route
 * reads no body (it is answered 404 or 405).
 */
export function resolveControlRoute(method: string, path: string): { bodyLimit: number; detail: RouteMatch<ControlRoute> } {
  const match = controlRouteTable().match(method, path)
  return { bodyLimit: match.kind === 'route' ? match.data.bodyLimit : MAX_NO_BODY_BYTES, detail: match }
}
