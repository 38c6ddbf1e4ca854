/**
 * Builds the OpenAPI 3.1 document of the Presentation Service from the zod
 * schemas and the operation table, with zod-openapi (which renders zod 4's
 * own JSON Schema output). The document describes the published spec; where
 * the emulator is stricter or chose something the spec does not show, it
 * says so in `x-emulator-*` fields and descriptions, so a spec-following
 * server validates against it.
 *
 * `npm run openapi` writes it to `reference/openapi.json`; the emulator
 * serves that file at `GET /openapi.json`.
 */
import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi'
import { ErrorCodes } from '../../src/core/errors.js'
import { MAX_BODY_BYTES } from '../../src/core/exchange.js'
import { API_KEY_PREFIX } from '../../src/fixtures/schema.js'
import {
  COMMON_ERROR_STATUSES,
  ErrorBody,
  GenerateProjectRequest,
  JOB_STATUS_FIELDS,
  JOB_STATUSES,
  JobStatusResponse,
  ProjectConfig,
  ProjectConfigResponse,
  ProjectDetail,
  ProjectListItem,
  SlideFiles,
  SlideListItem,
  Team,
  Template,
  OPERATION_IDS,
  operations,
  type OperationId,
  type OperationSpec,
  type RouteSpec,
} from '../../src/schemas/index.js'
import { VERSION } from '../../src/version.js'
import { OPERATION_DOCS } from './operation-docs.js'

/** What each error status means, in the spec's words (its Errors table). */
const STATUS_MEANINGS: Record<number, string> = {
  400: 'Invalid request body or parameters (validation error)',
  401: 'Missing or invalid API key',
  402: 'Insufficient credits to start a generation',
  404: 'Resource not found',
  429: 'Rate limit exceeded',
  500: 'Internal server error',
  502: 'Generation could not be dispatched',
}

const EMULATOR_ERROR_CODES = Object.values(ErrorCodes)

/** The fields of every operation's query: their defaults stay in the document (parameters are not request bodies). */
const QUERY_FIELDS = new Set<z.core.$ZodType>(
  Object.values(operations as Record<OperationId, OperationSpec>).flatMap((spec) =>
    spec.query === undefined ? [] : Object.values((spec.query as z.ZodObject).shape),
  ),
)

/** The model enum of the generate body: the spec allows "one of two identifiers" it does not name. */
const MODEL_SCHEMA = (GenerateProjectRequest.shape.model as unknown as z.ZodOptional<z.ZodType>).unwrap()

function headerRef(name: string) {
  return { $ref: `#/components/headers/${name}` }
}

/** An error response: the error body and `X-Service-Error-Code` (and the rate-limit headers on a 429). */
function errorResponse(status: number, description: string, emulatorChoice: boolean) {
  const headers: Record<string, { $ref: string }> = { 'X-Service-Error-Code': headerRef('X-Service-Error-Code') }
  if (status === 429) {
    headers['X-RateLimit-Limit'] = headerRef('X-RateLimit-Limit')
    headers['X-RateLimit-Remaining'] = headerRef('X-RateLimit-Remaining')
    headers['X-RateLimit-Reset'] = headerRef('X-RateLimit-Reset')
    headers['Retry-After'] = headerRef('Retry-After')
  }
  return {
    description,
    headers,
    content: { 'application/json': { schema: ErrorBody } },
    ...(emulatorChoice ? { 'x-emulator-choice': true } : {}),
  }
}

/** The names of a path's `{param}` placeholders. */
function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
}

/**
 * Statuses the emulator answers on an operation that neither the spec nor
 * the operation table lists, from steps that run before the operation: the
 * HTTP server's guard against DNS rebinding (403), the body size limit
 * (413, any method) and, on a path with parameters, a malformed
 * percent-encoding (400, when the operation lists no 400 of its own). The
 * document lists each with `x-emulator-choice: true`; a deployment need
 * not answer any of them.
 */
export function emulatorOnlyStatuses(route: RouteSpec): Array<{ status: number; description: string }> {
  const statuses: Array<{ status: number; description: string }> = []
  if (pathParamNames(route.path).length > 0 && !route.errors.includes(400)) {
    statuses.push({
      status: 400,
      description: 'A path parameter with malformed percent-encoding (emulator choice: `VALIDATION_ERROR`, the hint names the parameter)',
    })
  }
  statuses.push(
    {
      status: 403,
      description:
        'A `Host` header that is neither a loopback name nor one allowed with `--allowed-host` (emulator choice: the HTTP server’s guard against DNS rebinding, code `FORBIDDEN`; msw handlers and the socket-free fetch do not check `Host`)',
    },
    {
      status: 413,
      description: `A request body over 1 MiB (${MAX_BODY_BYTES} bytes), whatever the method (emulator choice: the spec shows no payload size limit)`,
    },
  )
  return statuses
}

function pathParams(spec: OperationSpec) {
  const names = pathParamNames(spec.path)
  if (names.length === 0) return undefined
  const descriptions: Record<string, string> = {
    slug: 'The project’s slug (`projectSlug`), which identifies it in paths',
    slideId: 'A slide id from the slide list',
    jobId: 'The job id returned by generation',
  }
  return z.object(Object.fromEntries(names.map((name) => [name, z.string().meta({ description: descriptions[name] ?? name })])))
}

function operation(id: OperationId): ZodOpenApiOperationObject {
  const spec: OperationSpec = operations[id]
  const doc = OPERATION_DOCS[id]
  const responses: ZodOpenApiResponsesObject = {
    '200': {
      description: 'Success',
      headers: {
        'X-RateLimit-Limit': headerRef('X-RateLimit-Limit-Emulator'),
        'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining-Emulator'),
        'X-RateLimit-Reset': headerRef('X-RateLimit-Reset-Emulator'),
      },
      content: { 'application/json': { schema: spec.response } },
    },
  }
  const errors = [
    ...[...spec.errors, ...COMMON_ERROR_STATUSES].map((status) => {
      const meaning = status === 404 && doc.notFound !== undefined ? doc.notFound : STATUS_MEANINGS[status]!
      const notShown = spec.errorsNotShown === true && !(COMMON_ERROR_STATUSES as readonly number[]).includes(status)
      const description = notShown ? `${meaning} (emulator choice: the spec does not show this operation’s error statuses)` : meaning
      return { status, description, emulatorChoice: notShown }
    }),
    ...emulatorOnlyStatuses(spec).map((extra) => ({ ...extra, emulatorChoice: true })),
  ]
  for (const { status, description, emulatorChoice } of errors.sort((a, b) => a.status - b.status)) {
    responses[String(status) as '400'] = errorResponse(status, description, emulatorChoice)
  }
  const params = pathParams(spec)
  const description = [doc.description, doc.emulatorChoices === undefined ? undefined : `**Emulator choice:** ${doc.emulatorChoices}`]
    .filter((part) => part !== undefined)
    .join('\n\n')
  const op: ZodOpenApiOperationObject = {
    operationId: id,
    summary: spec.summary,
    description,
    tags: [doc.tag],
    requestParams: {
      ...(params === undefined ? {} : { path: params }),
      ...(spec.query === undefined ? {} : { query: spec.query as z.ZodObject }),
    },
    responses,
  }
  if (spec.body !== undefined) {
    op.requestBody = {
      required: spec.bodyRequired === true,
      content: { 'application/json': { schema: spec.body, ...(doc.example.body === undefined ? {} : { example: doc.example.body }) } },
    }
  }
  if (spec.extension === true) {
    ;(op as unknown as Record<string, unknown>)['x-emulator-extension'] = true
  }
  if (doc.emulatorChoices !== undefined) {
    ;(op as unknown as Record<string, unknown>)['x-emulator-choices'] = doc.emulatorChoices
  }
  return op
}

/** Rewrites what zod renders where the spec is wider than the emulator, or where JSON Schema says it better. */
function override({
  jsonSchema,
  zodSchema,
  io,
}: {
  jsonSchema: Record<string, unknown>
  zodSchema: z.core.$ZodType
  io: 'input' | 'output'
}) {
  const def = zodSchema._zod.def as {
    type: string
    in?: z.core.$ZodType
    out?: z.core.$ZodType
    innerType?: z.core.$ZodType
    defaultValue?: unknown
  }
  // Responses may carry fields the spec does not list: never `additionalProperties: false`.
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties
  // Requests: the emulator refuses unknown keys; the spec does not say a server must.
  if (io === 'input' && jsonSchema.additionalProperties === false) {
    delete jsonSchema.additionalProperties
    jsonSchema['x-emulator-additionalProperties'] = false
  }
  // Query integers travel as text; describe them as the integers they are.
  if (def.type === 'pipe' && def.out !== undefined && def.out._zod.def.type === 'number' && io === 'input') {
    const out = z.toJSONSchema(def.out as z.ZodType) as Record<string, unknown>
    if (out.type === 'integer' || out.type === 'number') {
      for (const key of Object.keys(jsonSchema)) delete jsonSchema[key]
      Object.assign(jsonSchema, { type: 'integer', minimum: out.minimum, maximum: out.maximum })
    }
  }
  // A query default (`limit`) is the integer it stands for.
  if (io === 'input' && def.type === 'default' && QUERY_FIELDS.has(zodSchema)) {
    const value = jsonSchema.default ?? def.defaultValue
    jsonSchema.default = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value
  } else if (io === 'input' && def.type === 'default') {
    // A default inside a request body is the server's to fill in, but
    // openapi-typescript reads `default` as "always present" and makes the
    // field required (a palette-only tokens update would not compile): it is
    // said in words instead.
    const value = jsonSchema.default ?? def.defaultValue
    delete jsonSchema.default
    const said = `Defaults to \`${JSON.stringify(value)}\`: when it is omitted the service fills it in.`
    jsonSchema.description = typeof jsonSchema.description === 'string' ? `${jsonSchema.description} ${said}` : said
  }
  // The spec names no model identifiers: any string may be one.
  if (zodSchema === MODEL_SCHEMA) {
    const allowed = jsonSchema.enum
    for (const key of Object.keys(jsonSchema)) delete jsonSchema[key]
    Object.assign(jsonSchema, {
      type: 'string',
      description: 'One of two generation model identifiers; the first (a fast model) is the default. The spec does not give them.',
      'x-emulator-enum': allowed,
      'x-emulator-choice': 'the emulator accepts `fast` (default) and `quality`; any other value is 400',
    })
  }
  // `format: date-time` says RFC 3339; zod's own pattern is narrower than the spec.
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern
  if (jsonSchema.format === 'uri' && typeof jsonSchema.pattern === 'string') {
    jsonSchema['x-emulator-pattern'] = jsonSchema.pattern
    delete jsonSchema.pattern
  }
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } })

/** When the emulator sends `X-RateLimit-*` on answers other than 429. */
const RATE_HEADERS_SENT =
  'sent on every authenticated response while a rate limit is on; with `--rate-limit 0` (`rateLimit: 0` in code) the limit is off and none is sent'

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] }

/**
 * A generation job as one object per status, discriminated by `status`
 * (a `oneOf` that generators turn into a union, so `status === 'failed'`
 * narrows `error` to a string): each has the fields of the zod schema's
 * rendering, with `status` fixed, the fields its status always carries
 * required, and the fields of other statuses left out and refused by name
 * (`propertyNames`), from `JOB_STATUS_FIELDS`. Not `false` property
 * schemas: Prism's mock answers those as `null`, an invalid job.
 */
function jobStatusByStatus(schemas: Record<string, JsonSchema>): void {
  const job = schemas.JobStatus!
  const mapping: Record<string, string> = {}
  for (const status of JOB_STATUSES) {
    const name = `Job${status[0]!.toUpperCase()}${status.slice(1)}`
    const properties: Record<string, unknown> = {}
    const required = [...(job.required ?? [])]
    const refused: string[] = []
    for (const [field, schema] of Object.entries(job.properties ?? {})) {
      const owner = (JOB_STATUS_FIELDS as Record<string, { status: string; always: boolean }>)[field]
      if (field === 'status') properties[field] = { type: 'string', enum: [status] }
      else if (owner === undefined || owner.status === status) properties[field] = schema
      else refused.push(field)
      if (owner?.status === status && owner.always) required.push(field)
    }
    schemas[name] = {
      type: 'object',
      description: `A generation job whose status is \`${status}\`${refused.length === 0 ? '' : `: never has ${refused.map((f) => `\`${f}\``).join(', ')}`}`,
      properties,
      required,
      ...(refused.length === 0 ? {} : { propertyNames: { not: { enum: refused } } }),
    }
    mapping[status] = `#/components/schemas/${name}`
  }
  schemas.JobStatus = {
    description:
      'A generation job, by its status: `finalDuration` and `publishedUrl` only when `completed`, `error` only (and always) when `failed`.',
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: 'status', mapping },
  }
}

/** The whole document, deterministic: the same schemas give the same bytes. */
export function buildOpenApiDocument(): Record<string, unknown> {
  const paths: ZodOpenApiPathsObject = {}
  for (const id of OPERATION_IDS) {
    const spec = operations[id]
    paths[spec.path] ??= {}
    ;(paths[spec.path] as Record<string, ZodOpenApiOperationObject>)[spec.method.toLowerCase()] = operation(id)
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Presentation Service API',
        version: '1.0',
        description: [
          'A REST API for AI-generated slide presentations: projects made of slides, asynchronous generation jobs, configuration with a design system of tokens, publishing, teams and templates.',
          'Generated from the zod schemas of presentation-emulator; it describes the published spec. Where the emulator chose something the spec does not show, or is stricter than the spec, the document says so in `x-emulator-*` fields and in descriptions marked **Emulator choice**. Operations the spec refers to without showing them are marked `x-emulator-extension: true`.',
          'Every request carries `Authorization: Bearer <API_KEY>`. The request rate is limited to 50 requests per minute per user, shared by all endpoints.',
          '**Emulator choice:** a path of this document called with a method it does not list answers 405 with an `Allow` header naming the methods it has, the error body and `X-Service-Error-Code: METHOD_NOT_ALLOWED`; a path under the base URL that is not in this document answers 404. Neither is listed on each operation.',
        ].join('\n\n'),
        license: { name: 'MIT', identifier: 'MIT' },
        'x-emulator-version': VERSION,
      },
      servers: [
        {
          url: '{base_url}',
          description: 'A deployment: its base URL ends with the version segment /v1',
          variables: { base_url: { default: 'http://127.0.0.1:4010/v1' } },
        },
        { url: 'http://127.0.0.1:4010/v1', description: 'The emulator (npm start)' },
      ],
      security: [{ bearerAuth: [] }],
      tags: [
        { name: 'Projects', description: 'Create, list, read, rename and duplicate projects; read and merge their configuration.' },
        { name: 'Generation', description: 'Generate a project from a prompt as an asynchronous job, and poll the job.' },
        { name: 'Publishing', description: 'Publish and unpublish the latest version of a project; read where it is published.' },
        { name: 'Teams', description: 'The teams of the key’s owner.' },
        { name: 'Templates', description: 'The templates of the key’s team, usable as `templateId` when generating.' },
        {
          name: 'Slides',
          description: 'The slides of a project: list them, update their source files, show and clear the editing indicator.',
        },
      ],
      paths,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key: a fixed service prefix followed by an underscore. Each key is scoped to one team. A missing, invalid or revoked key is 401.',
            'x-emulator-choice': `the emulator's keys start with "${API_KEY_PREFIX}"`,
          } as never,
        },
        headers: {
          'X-Service-Error-Code': {
            description: 'A stable machine-readable error code, on every error response. Its set of values is not shown by the spec.',
            required: true,
            schema: { type: 'string', 'x-emulator-enum': EMULATOR_ERROR_CODES } as never,
          },
          'X-RateLimit-Limit': {
            description: 'The request limit of the window (its format is not shown by the spec)',
            required: true,
            schema: { type: 'string' },
          },
          'X-RateLimit-Remaining': { description: 'Requests left in the window', required: true, schema: { type: 'string' } },
          'X-RateLimit-Reset': { description: 'When the window resets', required: true, schema: { type: 'string' } },
          'Retry-After': {
            description:
              "HTTP's Retry-After (RFC 9110): seconds to wait, or an HTTP-date after which to retry. The spec does not show it; a client may use it when present.",
            schema: {
              anyOf: [
                { type: 'integer', minimum: 0 },
                {
                  type: 'string',
                  description: 'an HTTP-date (IMF-fixdate)',
                  pattern: '^[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT$',
                },
              ],
            },
            'x-emulator-choice':
              'the emulator sends it on every 429: whole seconds until the window ends on the real clock, and the HTTP-date "Thu, 01 Jan 1970 00:00:00 GMT" (retry now) on the manual clock, or a fault\'s retryAfter',
          } as never,
          'X-RateLimit-Limit-Emulator': {
            ...integerHeader(`Requests allowed per window, an integer (emulator choice: ${RATE_HEADERS_SENT})`),
            'x-emulator-choice': true,
          } as never,
          'X-RateLimit-Remaining-Emulator': {
            ...integerHeader(`Requests left in the window (emulator choice: ${RATE_HEADERS_SENT})`),
            'x-emulator-choice': true,
          } as never,
          'X-RateLimit-Reset-Emulator': {
            ...integerHeader(`Unix epoch seconds when the window resets (emulator choice: fixed 60-second windows; ${RATE_HEADERS_SENT})`),
            'x-emulator-choice': true,
          } as never,
        },
        schemas: {
          ErrorBody,
          ProjectListItem,
          ProjectDetail,
          ProjectConfig,
          ProjectConfigResponse,
          JobStatus: JobStatusResponse,
          Team,
          Template,
          SlideFiles,
          SlideListItem,
        },
      },
    },
    { override: override as never },
  )
  const plain = JSON.parse(JSON.stringify(document)) as { components: { schemas: Record<string, JsonSchema> } }
  jobStatusByStatus(plain.components.schemas)
  return plain as unknown as Record<string, unknown>
}

/** The document as the committed file holds it. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`
}
