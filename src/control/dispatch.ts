import { fail, ServiceError } from '../core/errors.js'
import { jsonResponse, textResponse, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import { bearer, decodeParams, parseQuery, readJsonBody } from '../core/http-input.js'
import { dashboardFragment, dashboardPage, type DashboardSource } from '../pages/dashboard.js'
import type { ControlPlane } from './control-plane.js'
import { controlRoutes, type ControlRoute } from './routes.js'

/** What the control plane's HTTP routes need from the emulator that hosts them. */
export interface ControlDispatchHost extends DashboardSource {
  readonly control: ControlPlane
  readonly adminToken: string | undefined
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
}

/** True for the control plane's paths: `/_emulator` and below. */
export function isControlPath(path: string): boolean {
  return path === '/_emulator' || path.startsWith('/_emulator/')
}

/**
 * The control plane over HTTP (`/_emulator/*`, contract §5) and the
 * dashboard: admin token, route, body, then the `ControlPlane` action.
 */
export class ControlDispatcher {
  readonly #routes = controlRoutes()

  constructor(
    private readonly host: ControlDispatchHost,
    private readonly onError: (error: unknown) => void,
  ) {}

  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const host = this.host
    try {
      const token = host.adminToken
      const isDashboard = request.method === 'GET' && (request.path === '/_emulator' || request.path === '/_emulator/dashboard/fragment')
      const given = bearer(request.headers.authorization) ?? (isDashboard ? new URLSearchParams(request.query).get('token') ?? undefined : undefined)
      if (token !== undefined && given !== token) {
        throw fail.unauthorized('the control plane requires Authorization: Bearer <admin token> (the dashboard also takes ?token=)')
      }
      if (isDashboard) {
        const suffix = token === undefined ? '' : `?token=${encodeURIComponent(token)}`
        const body = await host.exclusive(() =>
          request.path === '/_emulator' ? dashboardPage(host, `/_emulator/dashboard/fragment${suffix}`) : dashboardFragment(host),
        )
        return textResponse(200, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' })
      }
      const match = this.#routes.match(request.method, request.path)
      if (match.kind === 'none') throw fail.notFound('Route', `no control-plane route at ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      const route: ControlRoute = match.data
      if (request.bodyTooLarge || (request.body !== null && request.body.byteLength > route.bodyLimit)) {
        throw fail.payloadTooLarge(route.bodyLimit)
      }
      const body = readJsonBody(request, false)
      const result = await route.run(host.control, {
        params: decodeParams(match.params),
        query: parseQuery(request.query),
        body,
      })
      return jsonResponse(route.status, result)
    } catch (error) {
      if (error instanceof ServiceError) return error.toResponse()
      this.onError(error)
      return fail.internal('an unexpected error occurred; see the emulator log').toResponse()
    }
  }
}
