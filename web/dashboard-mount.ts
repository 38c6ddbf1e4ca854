/**
 * The dashboard (`GET /_emulator`, contract §6) as a row of its own: the
 * page, its sections as one fragment, and its live event stream. It takes
 * the admin token as the control plane does, and also as `?token=`, since
 * a browser opens it; a person who opens it without the token gets a page
 * that says what to do. Loaded on its first request: a test that drives
 * the control plane never loads it.
 */
import { adminTokenRefusal } from '../src/control/admin-token.js'
import { errorResponse, type ServiceError } from '../src/core/errors.js'
import { textResponse, type EmulatorRequest, type EmulatorResponse } from '../src/core/exchange.js'
import { bearer, parseQuery } from '../src/core/http-input.js'
import { dashboardEvents, dashboardFragment, dashboardPage, parseJournalFilter, type DashboardSource } from './pages/dashboard.js'
import { pageHeaders } from './pages/security.js'
import { messageDocument } from './pages/viewer.js'

/** What the dashboard needs of the emulator that hosts it. */
export interface DashboardHost extends DashboardSource {
  readonly adminToken: string | undefined
}

/** Serves the dashboard's paths for one emulator. */
export function dashboardHandler(host: DashboardHost, onError: (error: unknown) => void) {
  return async (request: EmulatorRequest): Promise<EmulatorResponse> => {
    try {
      const token = host.adminToken
      const given = bearer(request.headers.authorization) ?? new URLSearchParams(request.query).get('token') ?? undefined
      const refusal = adminTokenRefusal(token, given)
      if (refusal !== undefined) {
        // A person opening the dashboard in a browser gets a page that says what to do, not JSON.
        if (request.path === '/_emulator' && acceptsHtml(request)) return await tokenNeededPage(refusal, given !== undefined)
        throw refusal
      }
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
    } catch (error) {
      return errorResponse(error, onError)
    }
  }
}

function acceptsHtml(request: EmulatorRequest): boolean {
  return (request.headers.accept ?? '').includes('text/html')
}

/** The dashboard's 401 as a page: the same status and error code as the JSON answer. */
async function tokenNeededPage(refusal: ServiceError, tokenGiven: boolean): Promise<EmulatorResponse> {
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
