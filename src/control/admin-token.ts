/**
 * The admin token's one rule (`--admin-token`), shared by the control plane
 * and the web room's dashboard: when a token is set, a request without it
 * is refused with 401.
 */
import { fail, type ServiceError } from '../core/errors.js'

/**
 * The refusal of a request to the control plane (or the dashboard) that
 * does not carry the admin token, when one is set; undefined when it may go on.
 */
export function adminTokenRefusal(token: string | undefined, given: string | undefined): ServiceError | undefined {
  if (token === undefined || given === token) return undefined
  return fail.unauthorized('the control plane requires Authorization: Bearer <admin token> (the dashboard also takes ?token=)')
}
