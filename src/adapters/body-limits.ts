import { MAX_BODY_BYTES, MAX_NO_BODY_BYTES } from '../core/exchange.js'
import { controlBodyLimit } from '../control/http-routes.js'

/**
 * The largest body a request may carry, from its method and path alone (so
 * every adapter can stop reading, or not start, once it is passed): 1 MiB
 * under `/v1`; per route on the control plane (`PUT /_emulator/state` large,
 * other bodies small, none otherwise); and room for an empty JSON object
 * anywhere else (pages, unknown paths).
 */
export function bodyLimitFor(method: string, path: string): number {
  if (path === '/v1' || path.startsWith('/v1/')) return MAX_BODY_BYTES
  if (path === '/_emulator' || path.startsWith('/_emulator/')) return controlBodyLimit(method, path)
  return MAX_NO_BODY_BYTES
}
