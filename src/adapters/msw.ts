import { http, type HttpHandler } from 'msw'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import { fromFetchRequest, OWN_PREFIXES, toFetchResponse } from './fetch.js'

/**
 * msw request handlers that answer every request under `baseUrl` (and the
 * emulator's own pages and control plane on the same origin) from `handle`.
 *
 * Routing is the emulator's, not msw's: one catch-all handler per prefix
 * hands the request to the core, which matches it against its one route
 * table. Use with `setupServer(...handlers)` in Node or `setupWorker` in a
 * browser.
 */
export function createMswHandlers(
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  baseUrl: URL,
): HttpHandler[] {
  const origin = baseUrl.origin
  const basePath = baseUrl.pathname.replace(/\/+$/, '')
  const answer = async ({ request }: { request: Request }) =>
    toFetchResponse(await handle(await fromFetchRequest(request, basePath)))
  const prefixes = [basePath, ...OWN_PREFIXES]
  return prefixes.flatMap((prefix) => [
    http.all(`${origin}${prefix}`, answer),
    http.all(`${origin}${prefix}/*`, answer),
  ])
}
