/**
 * Builds the OpenAPI 3.1 document of the Presentation Service from the zod
 * schemas and the operation table, with zod-openapi (which renders zod 4's
 * own JSON Schema output). The document describes the published spec; where
 * the emulator is stricter or chose something the spec does not show, it
 * says so in `x-emulator-*` fields and descriptions, so a spec-following
 * server validates against it.
 *
 * `npm run openapi` writes it to `src/openapi/openapi.json`; the emulator
 * serves that file at `GET /openapi.json`.
 */
import { z } from 'zod'
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi'
import { ErrorCodes } from '../../src/core/errors.js'
import { API_KEY_PREFIX } from '../../src/fixtures/schema.js'
import {
  COMMON_ERROR_STATUSES,
  ErrorBody,
  GenerateProjectRequest,
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

/** The model enum of the generate body: the spec allows "one of two identifiers" it does not name. */
const MODEL_SCHEMA = (GenerateProjectRequest.shape.model as unknown as z.ZodOptional<z.ZodType>).unwrap()

function headerRef(name: string) {
  return { $ref: `#/components/headers/${name}` }
}

function errorResponse(status: number, description: string, notShown: boolean) {
  const headers: Record<string, { $ref: string }> = { 'X-Service-Error-Code': headerRef('X-Service-Error-Code') }
  if (status === 429) {
    headers['X-RateLimit-Limit'] = headerRef('X-RateLimit-Limit')
    headers['X-RateLimit-Remaining'] = headerRef('X-RateLimit-Remaining')
    headers['X-RateLimit-Reset'] = headerRef('X-RateLimit-Reset')
    headers['Retry-After'] = headerRef('Retry-After')
  }
  return {
    description: notShown ? `${description} (emulator choice: the spec does not show this operation’s error statuses)` : description,
    headers,
    content: { 'application/json': { schema: ErrorBody } },
    ...(notShown ? { 'x-emulator-choice': true } : {}),
  }
}

function pathParams(spec: OperationSpec) {
  const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
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
  for (const status of [...spec.errors, ...COMMON_ERROR_STATUSES].sort((a, b) => a - b)) {
    const meaning = status === 404 && doc.notFound !== undefined ? doc.notFound : STATUS_MEANINGS[status]!
    const notShown = spec.errorsNotShown === true && !(COMMON_ERROR_STATUSES as readonly number[]).includes(status)
    responses[String(status) as '400'] = errorResponse(status, meaning, notShown)
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
  if (io === 'input' && def.type === 'default') {
    const value = jsonSchema.default ?? def.defaultValue
    jsonSchema.default = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value
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
  // A job's fields that appear only in some states, as JSON Schema conditionals (zod's refinement is code).
  if (zodSchema === JobStatusResponse && io === 'output') {
    jsonSchema.allOf = [
      {
        if: { properties: { status: { const: 'completed' } } },
        else: { not: { anyOf: [{ required: ['finalDuration'] }, { required: ['publishedUrl'] }] } },
      },
      { if: { properties: { status: { const: 'failed' } } }, else: { not: { required: ['error'] } } },
    ]
  }
  // `format: date-time` says RFC 3339; zod's own pattern is narrower than the spec.
  if (jsonSchema.format === 'date-time') delete jsonSchema.pattern
  if (jsonSchema.format === 'uri' && typeof jsonSchema.pattern === 'string') {
    jsonSchema['x-emulator-pattern'] = jsonSchema.pattern
    delete jsonSchema.pattern
  }
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } })

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
        ].join('\n\n'),
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
        { name: 'Projects' },
        { name: 'Generation' },
        { name: 'Publishing' },
        { name: 'Teams' },
        { name: 'Templates' },
        { name: 'Slides' },
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
            ...integerHeader('Requests allowed per window (emulator choice: sent on every authenticated response, an integer)'),
            'x-emulator-choice': true,
          } as never,
          'X-RateLimit-Remaining-Emulator': {
            ...integerHeader('Requests left in the window (emulator choice: sent on every authenticated response)'),
            'x-emulator-choice': true,
          } as never,
          'X-RateLimit-Reset-Emulator': {
            ...integerHeader('Unix epoch seconds when the window resets (emulator choice: fixed 60-second windows)'),
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
  return JSON.parse(JSON.stringify(document)) as Record<string, unknown>
}

/** The document as the committed file holds it. */
export function openApiText(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`
}
