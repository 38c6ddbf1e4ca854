import { fail } from '../core/errors.js'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'

/** Where the emulator serves its OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'

/** What the served document needs from the emulator: where its API answers. */
export interface OpenApiHost {
  /** The API's base URL, ending in `/v1` (see `Emulator.apiUrl`). */
  readonly apiUrl: string
}

/** The committed document without its `servers`, loaded on first use so a start does not pay for it. */
let document: Promise<Record<string, unknown>> | undefined
/** The served text for the last API URL asked for (one emulator serves one URL at a time). */
let served: { apiUrl: string; text: string } | undefined

/**
 * `GET /openapi.json`: the OpenAPI 3.1 document generated from the schemas
 * (`npm run openapi`), with `servers` naming the API this emulator answers
 * (`host.apiUrl`), so a client generated from the served document calls
 * it. The committed document keeps its `{base_url}` server; the two differ
 * only in `servers`.
 */
export function openApiServer(host: OpenApiHost) {
  return async (request: EmulatorRequest): Promise<EmulatorResponse> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
    document ??= import('../../reference/openapi.json', { with: { type: 'json' } }).then(
      (module) => module.default as Record<string, unknown>,
    )
    const base = await document
    const apiUrl = host.apiUrl
    if (served?.apiUrl !== apiUrl) {
      served = { apiUrl, text: JSON.stringify({ ...base, servers: [{ url: apiUrl, description: 'This emulator' }] }) }
    }
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
      body: served.text,
    }
  }
}
