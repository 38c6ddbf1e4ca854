/**
 * What the MCP server lists, as data (no SDK here, so the tests and the
 * docs can read it without loading the SDK): one tool per `/v1` operation,
 * generated from the operation table and its zod schemas (the ones the
 * OpenAPI document is generated from), and the names of the control and
 * slide tools.
 */
import * as z from 'zod'
import { operations, OPERATION_IDS, type OperationId, type OperationSpec } from '../schemas/operations.js'

export { TOOL_GROUPS, type ToolGroup } from './defaults.js'

/** The path parameters of a route path, in order (`['slug', 'slideId']`). */
export function pathParamsOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
}

/** The `/v1` operation behind an API tool: its id, how it is called, and its arguments' schema. */
export interface ApiToolSpec {
  readonly name: OperationId
  readonly operation: OperationSpec
  readonly description: string
  /** Path parameters and query fields at the top level, the JSON body as `body`. */
  readonly input: z.ZodObject
  readonly pathParams: readonly string[]
  readonly queryFields: readonly string[]
}

/** The fields of a query schema (every operation's query is a zod object). */
function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  if (schema === undefined) return {}
  if (schema instanceof z.ZodObject) return schema.shape as Record<string, z.ZodType>
  throw new Error('an operation’s query schema must be a zod object')
}

/** The tool of one operation: its input is the route's path parameters, its query fields and its body, each with the API's own schema. */
export function apiToolSpec(name: OperationId): ApiToolSpec {
  const operation = operations[name] as OperationSpec
  const pathParams = pathParamsOf(operation.path)
  const query = shapeOf(operation.query)
  const shape: Record<string, z.ZodType> = {}
  for (const param of pathParams)
    shape[param] = z
      .string()
      .min(1)
      .meta({ description: `The {${param}} of ${operation.path}` })
  for (const [field, schema] of Object.entries(query)) shape[field] = schema.optional()
  if (operation.body !== undefined) {
    const body = operation.body.meta({ description: `The JSON body of ${operation.method} ${operation.path}` })
    shape.body = operation.bodyRequired === true ? body : body.optional()
  }
  const errors = [...operation.errors, 401, 429, 500].sort((a, b) => a - b)
  const description =
    `${operation.summary}. Calls ${operation.method} /v1${operation.path} with this session's API key; ` +
    `the result is the response body. An API error is a tool error with its status (${errors.join(', ')}), ` +
    'the error body and X-Service-Error-Code.'
  return { name, operation, description, input: z.strictObject(shape), pathParams, queryFields: Object.keys(query) }
}

/** Every API tool, in the operation table's order. */
export function apiToolSpecs(): ApiToolSpec[] {
  return OPERATION_IDS.map(apiToolSpec)
}

/** The session tool (listed with the API tools). */
export const SESSION_TOOLS = ['set_api_key'] as const

/** The control tools, listed when the emulator's control plane is reachable. */
export const CONTROL_TOOLS = [
  'emulator_reset',
  'emulator_create_account',
  'emulator_create_key',
  'emulator_revoke_key',
  'emulator_set_credits',
  'emulator_clock',
  'emulator_advance_clock',
  'emulator_complete_job',
  'emulator_fail_job',
  'emulator_add_fault',
  'emulator_list_faults',
  'emulator_clear_faults',
  'emulator_journal',
  'emulator_client_report',
  'emulator_mark_client_report',
  'emulator_export_state',
  'emulator_import_state',
] as const

/**
 * The slide tools. `check_slides` needs the control plane (a project's
 * slides); `check_slide_files` needs only a slide checker; `slide_picture`
 * needs the control plane (its picture route) and, to answer, a browser.
 * Registered in `registerSlideTools` (`server.ts`).
 */
export const SLIDE_TOOLS = ['check_slides', 'slide_picture', 'check_slide_files'] as const

/** The tools that answer with an API key (and may: the caller asked for one). */
export const KEY_ANSWERING_TOOLS: ReadonlySet<string> = new Set(['emulator_create_account', 'emulator_create_key'])
