import { readFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { fileURLToPath } from 'node:url'
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { beforeAll, describe, expect, it } from 'vitest'
import { emulatorOnlyStatuses, openApiText } from '../../scripts/openapi/generate.js'
import { API_REFERENCE_DOC, withApiReference } from '../../scripts/openapi/reference.js'
import { createClient, fillPath, type RawRequest } from '../../src/client/index.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { COMMON_ERROR_STATUSES, OPERATION_IDS, operations, type OperationId, type OperationSpec } from '../../src/schemas/index.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
const committed = readFileSync(`${root}reference/openapi.json`, 'utf8')
const document = JSON.parse(committed) as Record<string, any>

describe('the OpenAPI document', () => {
  it('is current: the committed file is what npm run openapi generates from the schemas', () => {
    expect(committed).toBe(openApiText())
  })

  it('keeps the API reference of docs/reference/api.md current', () => {
    const doc = readFileSync(`${root}${API_REFERENCE_DOC}`, 'utf8')
    expect(withApiReference(doc)).toBe(doc)
  })

  it('is a valid OpenAPI 3.1 document for an outside validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(document))
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('has every /v1 operation with its id, parameters, body and every documented response', () => {
    for (const id of OPERATION_IDS) {
      const spec: OperationSpec = operations[id]
      const op = document.paths[spec.path]?.[spec.method.toLowerCase()]
      expect(op, id).toBeDefined()
      expect(op.operationId).toBe(id)
      const extra = emulatorOnlyStatuses(spec).map((s) => s.status)
      expect(Object.keys(op.responses).map(Number)).toEqual([200, ...spec.errors, ...COMMON_ERROR_STATUSES, ...extra].sort((a, b) => a - b))
      for (const status of extra) {
        expect(op.responses[status]['x-emulator-choice'], `${id} ${status}`).toBe(true)
        expect(op.responses[status].headers['X-Service-Error-Code']).toBeDefined()
        expect(op.responses[status].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' })
      }
      for (const status of [...COMMON_ERROR_STATUSES, ...(spec.errorsNotShown ? [] : spec.errors)])
        expect(op.responses[status]['x-emulator-choice'], `${id} ${status}`).toBeUndefined()
      const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name)
      expect(pathParams).toEqual([...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]))
      expect(op.requestBody !== undefined).toBe(spec.body !== undefined)
      if (spec.extension) expect(op['x-emulator-extension']).toBe(true)
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(document.security).toEqual([{ bearerAuth: [] }])
    expect(Object.keys(document.components.headers)).toEqual(
      expect.arrayContaining(['X-Service-Error-Code', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After']),
    )
  })

  it('describes the spec, not the emulator’s stricter choices, and marks those choices', () => {
    const generate = document.paths['/projects/generate'].post.requestBody.content['application/json'].schema
    expect(generate.additionalProperties).toBeUndefined()
    expect(generate['x-emulator-additionalProperties']).toBe(false)
    expect(generate.properties.model.enum).toBeUndefined()
    expect(generate.properties.model['x-emulator-enum']).toEqual(['fast', 'quality'])
    // Responses may carry fields the spec does not list.
    expect(committed).not.toMatch(/"additionalProperties": false/)
    expect(document.paths['/projects/{slug}/slides'].get.responses['404']['x-emulator-choice']).toBe(true)
    // An update that changes no file is refused: a rule of the emulator's, recorded beside the schema.
    const files = document.paths['/projects/{slug}/slides/{slideId}'].put.requestBody.content['application/json'].schema.properties.files
    expect(files['x-emulator-minProperties']).toBe(1)
    expect(files.minProperties).toBeUndefined()
    // 405 is described once, for the whole document.
    expect(document.info.description).toMatch(/405 with an `Allow` header/)
    // X-RateLimit-* on a 200 are the emulator's, and off with --rate-limit 0.
    for (const name of ['X-RateLimit-Limit-Emulator', 'X-RateLimit-Remaining-Emulator', 'X-RateLimit-Reset-Emulator'])
      expect(document.components.headers[name].description).toContain('with `--rate-limit 0`')
  })

  it('has no default inside a request body (generators would require the field), and keeps the query defaults', () => {
    const defaults: string[] = []
    // `properties` holds field names (theme.colors has a field named `default`), not keywords.
    const walk = (node: unknown, path: string, seen: Set<unknown>, names = false) => {
      if (typeof node !== 'object' || node === null || seen.has(node)) return
      seen.add(node)
      const record = node as Record<string, unknown>
      if (typeof record.$ref === 'string') {
        const target = record.$ref
          .replace(/^#\//, '')
          .split('/')
          .reduce((n: any, key) => n[key], document)
        walk(target, record.$ref, seen)
      }
      if (!names && Object.hasOwn(record, 'default')) defaults.push(path)
      for (const [key, value] of Object.entries(record)) walk(value, `${path}/${key}`, seen, !names && key === 'properties')
    }
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>))
      for (const [method, op] of Object.entries(item)) walk(op.requestBody, `${method} ${path}`, new Set())
    expect(defaults).toEqual([])
    const tokens = document.components.schemas.ProjectConfig.properties.tokens
    expect(tokens.properties.palette.description).toMatch(/Defaults to `\[\]`/)
    expect(tokens.required).toBeUndefined()
    const limit = document.paths['/projects'].get.parameters.find((p: any) => p.name === 'limit')
    expect(limit.schema.default).toBe(20)
  })

  it('is served at GET /openapi.json: the committed document, with servers naming the API that served it', async () => {
    const emulator = createEmulator()
    const response = await emulator.fetch('http://127.0.0.1:4010/openapi.json')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain('application/json')
    const served = await response.json()
    expect(served).toEqual({ ...document, servers: [{ url: 'http://127.0.0.1:4010/v1', description: expect.any(String) }] })
    expect((await emulator.fetch('http://127.0.0.1:4010/openapi.json', { method: 'POST' })).status).toBe(405)
  })
})

/**
 * Live responses of every operation, for every status the document lists,
 * checked against the document with ajv (JSON Schema 2020-12, the dialect
 * of OpenAPI 3.1): the status is documented, the body matches its schema and
 * the required headers are present.
 */
describe('live emulator responses against the document', () => {
  let emulator: PresentationEmulator
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats.default(ajv)
  ajv.addSchema(document, 'openapi.json')
  const seen = new Set<string>()

  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

  async function check(id: OperationId, request: Omit<RawRequest, 'operationId'>, expected: number) {
    const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'pres_test_alice_acme', fetch: emulator.fetch })
    const { response } = await client.raw({ operationId: id, ...request })
    await checkResponse(id, response, expected)
  }

  /** A response of operation `id` against the document: its status is listed, its body and headers match. */
  async function checkResponse(id: OperationId, response: Response, expected: number) {
    const text = await response.text()
    expect(response.status, `${id}: ${text}`).toBe(expected)
    const spec = operations[id]
    const op = document.paths[spec.path][spec.method.toLowerCase()]
    const documented = op.responses[String(response.status)]
    expect(documented, `${id} answered ${response.status}, which the document does not list`).toBeDefined()
    const validate = ajv.getSchema(
      `openapi.json#/${pointer('paths', spec.path, spec.method.toLowerCase(), 'responses', String(response.status), 'content', 'application/json', 'schema')}`,
    )!
    const valid = validate(JSON.parse(text))
    expect(valid, `${id} ${response.status}: ${ajv.errorsText(validate.errors)}\n${text}`).toBe(true)
    for (const [name, ref] of Object.entries(documented.headers ?? {}) as Array<[string, { $ref: string }]>) {
      const key = ref.$ref.split('/').pop()!
      const header = document.components.headers[key]
      const value = response.headers.get(name)
      if (header.required) expect(value, `${id} ${response.status} lacks ${name}`).not.toBeNull()
      if (value === null) continue
      // A header's value against its schema, as text or, for digits, as the integer they spell.
      const validateHeader = ajv.getSchema(`openapi.json#/${pointer('components', 'headers', key, 'schema')}`)!
      const valid = validateHeader(value) || (/^\d+$/.test(value) && validateHeader(Number(value)))
      expect(valid, `${id} ${response.status} ${name}: ${JSON.stringify(value)} ${ajv.errorsText(validateHeader.errors)}`).toBe(true)
    }
    seen.add(`${id} ${response.status}`)
  }

  let slug: string
  let slideId: string
  let jobId: string

  beforeAll(async () => {
    emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'pres_test_alice_acme', fetch: emulator.fetch })
    slug = (await client.createProject({ name: 'OpenAPI' })).projectSlug
    slideId = (await client.createSlide(slug, {})).slideId
    jobId = (await client.generateProject({ prompt: 'A deck' })).jobId
  })

  it('answers every operation with a 200 the document describes', async () => {
    const params = () => ({ slug, slideId, jobId })
    const bodies: Partial<Record<OperationId, unknown>> = {
      generateProject: { prompt: 'Quarterly results', templateId: 'tpl_acme_quarterly' },
      renameProject: { name: 'Renamed' },
      updateProjectConfig: { config: { layout: 'SLIDES', tokens: { palette: [{ name: '--x', value: '#fff' }] } } },
      updateSlide: { files: { 'slide.content.json': '{"title":"t","blocks":[]}' } },
      startSlideEditing: { agentName: 'Bot' },
    }
    for (const id of OPERATION_IDS) {
      await check(id, { params: params(), body: bodies[id] }, 200)
    }
    await emulator.control.advanceClock({ ms: 600_000 })
    await check('getJobStatus', { params: { jobId } }, 200)
  })

  it('answers every documented error status with a body and headers the document describes', async () => {
    const missing = { slug: 'no-such-project', slideId: 'sld_missing', jobId: 'job_missing' }
    const invalid: Partial<Record<OperationId, Omit<RawRequest, 'operationId'>>> = {
      generateProject: { body: { prompt: '' } },
      createProject: { body: { name: '' } },
      listProjects: { query: { limit: 0 } },
      listTemplates: { query: { limit: 101 } },
      renameProject: { params: { slug }, body: { name: '' } },
      updateProjectConfig: { params: { slug }, body: { config: { cardsSlidesPerView: 2.5 } } },
      createSlide: { params: { slug }, body: { name: '' } },
      updateSlide: { params: { slug, slideId }, body: { files: { 'slide.tsx': 'export const x = ' } } },
      startSlideEditing: { params: { slug, slideId }, body: { agentName: 5 } },
    }
    for (const id of OPERATION_IDS) {
      const spec = operations[id]
      const ok = { slug, slideId, jobId }
      const body =
        id === 'generateProject'
          ? { prompt: 'x' }
          : id === 'renameProject'
            ? { name: 'x' }
            : id === 'updateProjectConfig'
              ? { config: {} }
              : id === 'updateSlide'
                ? { files: { 'slide.content.json': '{}' } }
                : undefined
      await check(id, { params: ok, body, apiKey: null }, 401)
      emulator.control.addFault({ operationId: id, status: 429 })
      await check(id, { params: ok, body }, 429)
      emulator.control.addFault({ operationId: id, status: 500 })
      await check(id, { params: ok, body }, 500)
      for (const status of spec.errors) {
        if (status === 400) await check(id, invalid[id]!, 400)
        if (status === 404) {
          const request =
            id === 'generateProject'
              ? { body: { prompt: 'x', templateId: 'tpl_missing' } }
              : { params: { ...ok, ...(spec.path.includes('{slideId}') ? { slideId: 'sld_missing' } : missing) }, body }
          await check(id, request, 404)
        }
        if (status === 402) await check(id, { body: { prompt: 'x' }, apiKey: 'pres_test_bob' }, 402)
        if (status === 502) await check(id, { body: { prompt: 'emulator:dispatch-error now' } }, 502)
      }
    }
    // Every operation × every status the document lists was answered and checked.
    for (const id of OPERATION_IDS) {
      const spec = operations[id]
      for (const status of [200, ...spec.errors, ...COMMON_ERROR_STATUSES])
        expect(seen.has(`${id} ${status}`), `${id} ${status}`).toBe(true)
    }
    expect(fillPath('/x/{a}', { a: 'b c' })).toBe('/x/b%20c')
  })

  it('answers the statuses marked x-emulator-choice on every operation that lists them: 400, 403 and 413', async () => {
    const fill = (path: string, value: (name: string) => string) => `/v1${path.replace(/\{(\w+)\}/g, (_, name: string) => value(name))}`
    const ids: Record<string, string> = { slug, slideId, jobId }
    const headers = { authorization: 'Bearer pres_test_alice_acme', 'content-type': 'application/json' }
    const server = await emulator.listen({ port: 0 })
    /** A request to the HTTP server, which any method may send with a body. */
    const overHttp = (method: string, path: string, extra: Record<string, string>, body?: string) =>
      new Promise<Response>((resolve, reject) => {
        // Content-Length framing: Node sends a GET's or DELETE's body unframed otherwise.
        const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
        const req = httpRequest(
          { host: '127.0.0.1', port: server.port, method, path, headers: { ...headers, ...length, ...extra } },
          (res) => {
            const chunks: Buffer[] = []
            res.on('data', (chunk: Buffer) => chunks.push(chunk))
            res.on('end', () => {
              const fields = new Headers()
              for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') fields.set(name, value)
              resolve(new Response(Buffer.concat(chunks), { status: res.statusCode!, headers: fields }))
            })
          },
        )
        req.on('error', reject)
        req.end(body)
      })
    try {
      for (const id of OPERATION_IDS) {
        const spec = operations[id]
        const path = fill(spec.path, (name) => ids[name]!)
        for (const { status } of emulatorOnlyStatuses(spec)) {
          if (status === 400) {
            // A path parameter whose percent-encoding is malformed.
            const malformed = `http://127.0.0.1:4010${fill(spec.path, () => '%E0%A4%A')}`
            await checkResponse(id, await emulator.fetch(malformed, { method: spec.method, headers }), 400)
          }
          if (status === 413) {
            // Over 1 MiB, whatever the method (a GET may carry a body over HTTP).
            const body = JSON.stringify({ padding: 'x'.repeat(1024 * 1024) })
            await checkResponse(id, await overHttp(spec.method, path, {}, body), 413)
          }
          if (status === 403) {
            // The HTTP server's guard against DNS rebinding: a Host that is not this machine's.
            const answer = await overHttp(spec.method, path, { host: 'evil.example' })
            expect(document.components.headers['X-Service-Error-Code'].schema['x-emulator-enum']).toContain(
              answer.headers.get('x-service-error-code'),
            )
            await checkResponse(id, answer, 403)
          }
        }
      }
    } finally {
      await server.close()
    }
    for (const id of OPERATION_IDS)
      for (const { status } of emulatorOnlyStatuses(operations[id])) expect(seen.has(`${id} ${status}`), `${id} ${status}`).toBe(true)
  })

  it("describes the rate limiter's own 429 on the manual clock and on the real one, headers included", async () => {
    for (const clock of ['manual', 'real'] as const) {
      const limited = createEmulator({ clock, rateLimit: 2 })
      const saved = emulator
      emulator = limited
      try {
        await check('listTeams', {}, 200)
        await check('listTeams', {}, 200)
        await check('listTeams', {}, 429)
      } finally {
        emulator = saved
        await limited.close()
      }
    }
  })
})
