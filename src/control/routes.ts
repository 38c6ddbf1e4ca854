import { fail } from '../core/errors.js'
import { MAX_CONTROL_BODY_BYTES, MAX_NO_BODY_BYTES, MAX_STATE_BODY_BYTES } from '../core/exchange.js'
import { RouteTable } from '../core/router.js'
import type { ControlPlane } from './control-plane.js'

/** What a control-plane route receives. */
export interface ControlInput {
  params: Record<string, string>
  query: Record<string, string>
  /** The parsed JSON body (`{}` when there is none). */
  body: unknown
}

export interface ControlRoute {
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

/** A route that takes no body. */
const route = (status: number, run: ControlRoute['run']): ControlRoute => ({ status, bodyLimit: MAX_NO_BODY_BYTES, run })
/** A route that takes a small JSON body. */
const withBody = (status: number, run: ControlRoute['run'], bodyLimit = MAX_CONTROL_BODY_BYTES): ControlRoute => ({
  status,
  bodyLimit,
  run,
})

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw fail.validation('the body must be a JSON object')
  }
  return body as Record<string, unknown>
}

/** The control plane's routes: section 5 of the emulator contract, one line each. */
export function controlRoutes(): RouteTable<ControlRoute> {
  return new RouteTable<ControlRoute>()
    .add(
      'GET',
      '/_emulator/health',
      route(200, (c) => c.health()),
    )
    .add(
      'POST',
      '/_emulator/reset',
      route(200, (c) => c.reset()),
    )
    .add(
      'GET',
      '/_emulator/state',
      route(200, (c) => c.getState()),
    )
    .add(
      'PUT',
      '/_emulator/state',
      withBody(200, (c, { body }) => c.putState(body, { adopt: true }), MAX_STATE_BODY_BYTES),
    )
    .add(
      'POST',
      '/_emulator/accounts',
      withBody(201, (c, { body }) => c.createAccount(asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/teams',
      withBody(201, (c, { body }) => c.createTeam(asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/keys',
      withBody(201, (c, { body }) => c.createKey(asObject(body) as never)),
    )
    .add(
      'GET',
      '/_emulator/keys/{keyId}',
      route(200, (c, { params }) => c.getKey(params.keyId!)),
    )
    .add(
      'DELETE',
      '/_emulator/keys/{keyId}',
      route(200, (c, { params }) => c.revokeKey(params.keyId!)),
    )
    .add(
      'PUT',
      '/_emulator/teams/{teamId}/credits',
      withBody(200, (c, { params, body }) => c.setCredits(params.teamId!, asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/templates',
      withBody(201, (c, { body }) => c.createTemplate(asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/projects/{slug}/collaborators',
      withBody(200, (c, { params, body }) => c.addCollaborator(params.slug!, asObject(body) as never)),
    )
    .add(
      'GET',
      '/_emulator/clock',
      route(200, (c) => c.clock()),
    )
    .add(
      'POST',
      '/_emulator/clock/advance',
      withBody(200, (c, { body }) => c.advanceClock(asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/jobs/{jobId}/complete',
      route(200, (c, { params }) => c.completeJob(params.jobId!)),
    )
    .add(
      'POST',
      '/_emulator/jobs/{jobId}/fail',
      withBody(200, (c, { params, body }) => c.failJob(params.jobId!, asObject(body) as never)),
    )
    .add(
      'POST',
      '/_emulator/faults',
      withBody(201, (c, { body }) => c.addFault(asObject(body) as never)),
    )
    .add(
      'GET',
      '/_emulator/faults',
      route(200, (c) => c.listFaults()),
    )
    .add(
      'DELETE',
      '/_emulator/faults',
      route(200, (c) => c.clearFaults()),
    )
    .add(
      'DELETE',
      '/_emulator/faults/{faultId}',
      route(200, (c, { params }) => c.removeFault(params.faultId!)),
    )
    .add(
      'GET',
      '/_emulator/requests',
      route(200, (c, { query }) => c.listRequests(query)),
    )
    .add(
      'GET',
      '/_emulator/requests.har',
      route(200, (c, { query }) => c.requestsHar(query)),
    )
    .add(
      'GET',
      '/_emulator/requests/wait',
      route(200, async (c, { query }) => {
        const { timeoutMs, bodyLimit, ...filter } = query
        return { request: await c.waitForRequest(filter, { timeoutMs, bodyLimit }) }
      }),
    )
    .add(
      'DELETE',
      '/_emulator/requests',
      route(200, (c) => c.clearRequests()),
    )
}

let limits: RouteTable<ControlRoute> | undefined

/**
 * The body limit of a control-plane request, known from its method and path
 * alone, so an adapter can refuse an oversized body before reading it. A
 * request that matches no route reads no body (it is answered 404 or 405).
 */
export function controlBodyLimit(method: string, path: string): number {
  limits ??= controlRoutes()
  const match = limits.match(method, path)
  return match.kind === 'route' ? match.data.bodyLimit : MAX_NO_BODY_BYTES
}
