import type { http, HttpHandler } from 'msw'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import { fromFetchRequest, type Routing, toFetchResponse } from './fetch.js'

/**
 * msw request handlers that answer every request under `baseUrl` (and the
 * emulator's own pages and control plane on the same origin) from `handle`.
 *
 * Routing is the emulator's, not msw's: one catch-all handler hands every
 * request under those prefixes to the core, which matches it against its one route
 * table. Use with `setupServer(...handlers)` in Node or `setupWorker` in a
 * browser.
 */
/** msw's `http` namespace: the entry points hand it in (Node loads msw only when handlers are asked for). */
export type MswHttp = typeof http

export function createMswHandlers(
  http: MswHttp,
  handle: (request: EmulatorRequest) => Promise<EmulatorResponse>,
  baseUrl: URL,
  mounts: Routing,
): HttpHandler[] {
  const basePath = baseUrl.pathname.replace(/\/+$/, '')
  const prefixes = [basePath, ...mounts.ownPrefixes].filter((prefix) => prefix !== '')
  // A RegExp without capture groups: msw then decodes nothing itself, so a
  // malformed percent-encoding reaches the emulator (which answers 400)
  // instead of throwing inside msw's path matching.
  const pattern =
    basePath === ''
      ? new RegExp(`^${escapeRegExp(baseUrl.origin)}(?:/.*)?$`)
      : new RegExp(`^${escapeRegExp(baseUrl.origin)}(?:${prefixes.map(escapeRegExp).join('|')})(?:/.*)?$`)
  return [
    http.all(pattern, async ({ request }) =>
      toFetchResponse(await handle(await fromFetchRequest(request, basePath, mounts)), request.signal),
    ),
  ]
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
