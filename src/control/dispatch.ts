import { fail, ServiceError } from '../core/errors.js'
import { jsonResponse, textResponse, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import { bearer, decodeParams, parseQuery, readJsonBody } from '../core/http-input.js'
import type { DashboardSource } from '../pages/dashboard.js'
import { isAssetPath } from '../pages/paths.js'
import type { RenderHost } from '../render/documents.js'
import type { ControlPlane } from './control-plane.js'
import { controlRoutes, type ControlRoute } from './routes.js'

/** What the control plane's HTTP routes need from the emulator that hosts them. */
export interface ControlDispatchHost extends DashboardSource, RenderHost {
  readonly control: ControlPlane
  readonly adminToken: string | undefined
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
}

/** The dashboard's routes (GET): they also take the admin token as `?token=`, since a browser opens them. */
const DASHBOARD_PATHS = new Set(['/_emulator', '/_emulator/dashboard/fragment', '/_emulator/dashboard/events'])

/**
 * The control plane over HTTP (`/_emulator/*`, contract §5) and the
 * dashboard: admin token, route, body, then the `ControlPlane` action. The
 * dashboard and the pages' assets load on their first request: a test that
 * drives the control plane never loads them.
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
      // The pages' static assets hold no data: served to anyone, so the editor and sites work with an admin token set.
      if (isAssetPath(request.path)) return await (await import('../pages/assets.js')).serveAsset(request, host)
      const token = host.adminToken
      const isDashboard = request.method === 'GET' && DASHBOARD_PATHS.has(request.path)
      const given =
        bearer(request.headers.authorization) ?? (isDashboard ? (new URLSearchParams(request.query).get('token') ?? undefined) : undefined)
      if (token !== undefined && given !== token) {
        const refusal = fail.unauthorized(
          'the control plane requires Authorization: Bearer <admin token> (the dashboard also takes ?token=)',
        )
        // A person opening the dashboard in a browser gets a page that says what to do, not JSON.
        if (request.path === '/_emulator' && isDashboard && acceptsHtml(request)) return await tokenNeededPage(refusal, given !== undefined)
        throw refusal
      }
      if (isDashboard) return await this.#dashboard(request, token)
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

  /** The dashboard page, its sections as one fragment, or its live event stream; the journal filter comes from the query. */
  async #dashboard(request: EmulatorRequest, token: string | undefined): Promise<EmulatorResponse> {
    const host = this.host
    const [{ dashboardEvents, dashboardFragment, dashboardPage, parseJournalFilter }, { pageHeaders }] = await Promise.all([
      import('../pages/dashboard.js'),
      import('../pages/security.js'),
    ])
    const query = parseQuery(request.query)
    const filter = parseJournalFilter(query)
    if (request.path === '/_emulator/dashboard/events') return dashboardEvents(host, filter)
    const headers = await pageHeaders({})
    if (request.path === '/_emulator/dashboard/fragment') {
      return textResponse(200, await host.exclusive(() => dashboardFragment(host, filter)), 'text/html; charset=utf-8', headers)
    }
    const events = new URLSearchParams()
    if (token !== undefined) events.set('token', token)
    const body = await host.exclusive(() =>
      dashboardPage(host, { eventsUrl: `/_emulator/dashboard/events${events.size > 0 ? `?${events}` : ''}`, filter }),
    )
    return textResponse(200, body, 'text/html; charset=utf-8', headers)
  }
}

function acceptsHtml(request: EmulatorRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html')
}

/** The dashboard's 401 as a page: the same status and error code as the JSON answer. */
async function tokenNeededPage(refusal: ServiceError, tokenGiven: boolean): Promise<EmulatorResponse> {
  const [{ messageDocument }, { pageHeaders }] = await Promise.all([import('../pages/viewer.js'), import('../pages/security.js')])
  const body = messageDocument('Admin token needed', '401 · Unauthorized', 'This dashboard needs the admin token', [
    tokenGiven
      ? "The token in the address is not this emulator's admin token."
      : 'This emulator was started with an admin token (<code>--admin-token</code>), and the dashboard shows nothing without it.',
    'Open <code>/_emulator?token=&lt;admin token&gt;</code>: the token is the value of <code>--admin-token</code> or <code>PRESENTATION_EMULATOR_ADMIN_TOKEN</code>.',
  ])
  const json = refusal.toResponse()
  return textResponse(401, body, 'text/html; charset=utf-8', {
    ...(await pageHeaders({})),
    'x-service-error-code': json.headers['x-service-error-code']!,
  })
}
