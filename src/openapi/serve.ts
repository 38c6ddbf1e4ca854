import { fail } from '../core/errors.js'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'

/** Where the emulator serves its OpenAPI document. */
export const OPENAPI_PATH = '/openapi.json'

let text: Promise<string> | undefined

/**
 * `GET /openapi.json`: the OpenAPI 3.1 document generated from the schemas
 * (`npm run openapi`), loaded on first use so a start does not pay for it.
 */
export async function serveOpenApi(request: EmulatorRequest): Promise<EmulatorResponse> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
  text ??= import('./openapi.json', { with: { type: 'json' } }).then((module) => JSON.stringify(module.default))
  const body = await text
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-cache' },
    body: request.method === 'HEAD' ? '' : body,
  }
}
