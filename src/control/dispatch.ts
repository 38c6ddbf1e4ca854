import { errorResponse, fail } from '../core/errors.js'
import { bytesResponse, jsonResponse, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import { bearer, decodeParams, parseQuery, readJsonBody } from '../core/http-input.js'
import { adminTokenRefusal } from './admin-token.js'
import type { ControlPlane } from './control-plane.js'
import { BinaryAnswer, type ControlRoute, resolveControlRoute } from './http-routes.js'
import type { RouteMatch } from '../core/router.js'

/** What the control plane's HTTP routes need from the emulator that hosts them. */
export interface ControlDispatchHost {
  readonly control: ControlPlane
  readonly adminToken: string | undefined
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
}

/**
 * The control plane over HTTP (`/_emulator/*`, contract §5): admin token,
 * route, body, then the `ControlPlane` action. (The dashboard and the
 * pages' assets under `/_emulator` are the web room's rows of the mount
 * table, ahead of this one.)
 */
export class ControlDispatcher {
  constructor(
    private readonly host: ControlDispatchHost,
    private readonly onError: (error: unknown) => void,
  ) {}

  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const host = this.host
    try {
      const refusal = adminTokenRefusal(host.adminToken, bearer(request.headers.authorization))
      if (refusal !== undefined) throw refusal
      // The route the mount table found while resolving the request (one match per request).
      const match =
        (request.resolved?.detail as RouteMatch<ControlRoute> | undefined) ?? resolveControlRoute(request.method, request.path).detail
      if (match.kind === 'none') throw fail.notFound('Route', `no control-plane route at ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      const route: ControlRoute = match.data
      if (request.bodyTooLarge) throw fail.payloadTooLarge(route.bodyLimit)
      const body = readJsonBody(request, false)
      const result = await route.run(host.control, {
        params: decodeParams(match.params),
        query: parseQuery(request.query),
        body,
      })
      if (result instanceof BinaryAnswer) {
        return bytesResponse(route.status, result.bytes, result.contentType, { 'cache-control': 'no-store' })
      }
      return jsonResponse(route.status, result)
    } catch (error) {
      return errorResponse(error, this.onError)
    }
  }
}
