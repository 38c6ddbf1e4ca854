/**
 * The checks of one exchange the table of facts leaves to the kit's
 * scenarios, which send their own requests: a request that breaks a bound
 * the spec states must be answered 400, and an answer's status should be one
 * the spec documents for the operation. A proxy sees such requests only when
 * an app sends them, so it judges them here, with the operations' zod
 * schemas as the bounds (less what the spec does not state: unknown keys,
 * the model names, which URIs are accepted).
 */
import { COMMON_ERROR_STATUSES, routes, type OperationId } from '../../src/client/index.js'
import { operations } from '../../src/schemas/index.js'
import { Clauses, endpoint } from '../clauses.js'
import type { Observed } from '../facts/observed.js'
import type { Level } from '../types.js'

/** The body fields whose bounds the spec states, per operation (its Limits table and the endpoints' Rules). */
const STATED: Partial<Record<OperationId, readonly string[]>> = {
  generateProject: ['prompt', 'referenceImageUrls'],
  createProject: ['name'],
  renameProject: ['name'],
  updateProjectConfig: ['config'],
}

/** One check of the proxy's own, as its report names it. */
export interface OwnCheck {
  id: string
  level: Level
  statement: string
}

export const REQUEST_BOUND: OwnCheck = {
  id: 'request.bound',
  level: 'MUST',
  statement:
    'a request that breaks a bound the spec states (a malformed JSON body, an empty prompt, 21 reference images, a 192-character rename…) is answered 400',
}

export const STATUS_DOCUMENTED: OwnCheck = {
  id: 'status.documented',
  level: 'SHOULD',
  statement: 'an answer’s status is one the spec documents for the operation (200, its errors, 400, 401, 429, 500)',
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let value = body
  for (const key of path) value = typeof value === 'object' && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined
  return value
}

/**
 * How the request breaks a bound the spec states, or undefined when it
 * breaks none (or the operation states none). `raw` is the body as sent.
 */
export function breachOf(ex: Observed, raw: string | undefined): string | undefined {
  const id = ex.operationId
  const fields = id === undefined ? undefined : STATED[id]
  if (id === undefined || fields === undefined) return undefined
  if (raw !== undefined && raw.trim() !== '' && ex.body === undefined) return 'a malformed JSON body'
  // Create's body is optional; the others' fields are required, so no body is an empty one.
  if (raw === undefined || raw.trim() === '') {
    if (id === 'createProject') return undefined
  }
  const body = ex.body ?? {}
  const schema = (
    operations[id] as {
      body?: {
        safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ code: string; path: PropertyKey[]; message: string }> } }
      }
    }
  ).body
  if (schema === undefined) return undefined
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'a body that is not a JSON object'
  const result = schema.safeParse(body)
  if (result.success) return undefined
  const stated = (result.error?.issues ?? []).filter((issue) => {
    if (issue.code === 'unrecognized_keys' || !fields.includes(String(issue.path[0]))) return false
    // A URI is what the spec asks for; which schemes a server takes is its own choice.
    if (
      issue.code === 'invalid_format' &&
      typeof valueAt(body, issue.path) === 'string' &&
      URL.canParse(valueAt(body, issue.path) as string)
    )
      return false
    return true
  })
  if (stated.length === 0) return undefined
  return stated
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
    .join('; ')
}

/** Whether a refused request's status is an acceptable refusal of a breach (400, or what can come before validation). */
export function refusesBreach(ex: Observed): boolean {
  const status = ex.status
  if (status === 400 || status === 401 || status === 429 || status >= 500) return true
  // A project, job or template that is not there may be found missing before the body is read.
  if (status === 404 && (Object.keys(ex.params).length > 0 || ex.operationId === 'generateProject')) return true
  return status === 402 && ex.operationId === 'generateProject'
}

/** The statuses the spec documents for an operation, or undefined where its error statuses are not shown. */
export function documentedStatuses(id: OperationId): ReadonlySet<number> | undefined {
  const route = routes[id] as { errors: readonly number[]; errorsNotShown?: boolean; extension?: boolean; path: string }
  if (route.errorsNotShown === true || route.extension === true) return undefined
  // 400 ("invalid request body or parameters") and 404 for a path's resource are the Errors table's, for any operation.
  return new Set([200, 400, ...route.errors, ...COMMON_ERROR_STATUSES, ...(route.path.includes('{') ? [404] : [])])
}

export const boundClause = (id: OperationId | undefined) => (id === undefined ? Clauses.limits : endpoint(id))
export { Clauses }
