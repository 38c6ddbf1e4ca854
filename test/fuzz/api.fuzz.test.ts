import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EmulatorRequest } from '../../src/core/exchange.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { operations, type OperationId, type OperationSpec } from '../../src/schemas/index.js'
import { around, fromSchema, oddString, serialise } from './arbitraries.js'
import {
  CaseWorld,
  count,
  counts,
  describeRequest,
  expectErrorShape,
  expectPagesRender,
  FUZZ_FIXTURES,
  params,
  runs,
  timeout,
} from './properties.js'

/**
 * Issue 11: property tests over every `/v1` operation, in-process through
 * `emulator.handle()` (the core every way in shares). Each case is one
 * request generated from the operation's schemas or around them, against
 * the same world (`CaseWorld`: what a case changed is undone after it).
 */

const OPERATION_IDS = Object.keys(operations) as OperationId[]
const KEYS = ['pres_test_alice', 'pres_test_alice_acme', 'pres_test_bob', 'pres_test_revoked'] as const

let emulator: PresentationEmulator
let world: CaseWorld
/** Ids that exist, so generated requests reach the operations and not only their 404s. */
const pools: Record<string, string[]> = { slug: [], slideId: [], jobId: [] }

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0, fixtures: FUZZ_FIXTURES })
  await emulator.ready()
  const job = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
    method: 'POST',
    headers: { authorization: 'Bearer pres_test_alice_acme' },
    body: JSON.stringify({ prompt: 'Fuzzing seed deck' }),
  })
  world = await CaseWorld.take(emulator)
  const state = world.start
  // Every page of the start renders; a case that changes the state renders those it touched.
  await expectPagesRender(
    emulator,
    state,
    state.projects.map((p) => p.slug),
    'the start',
  )
  pools.slug = [...new Set(['welcome-deck', 'q3-business-review', 'bobs-roadmap', ...state.projects.slice(0, 6).map((p) => p.slug)])]
  pools.slideId = state.slides
    .filter((s) => ['welcome-deck', 'bobs-roadmap', 'q3-business-review'].includes(state.projects.find((p) => p.id === s.projectId)!.slug))
    .map((s) => s.id)
  pools.jobId = [(await job.json()).jobId]
})

afterAll(() => {
  emulator.close()
  console.info(`[fuzz] /v1 in-process: ${[...counts].map(([name, n]) => `${name} ${n}`).join(', ')}`)
})

const VALID_TSX = [
  'export default function Slide() { return <div>Hi</div> }',
  'const Slide = () => <section className="x">{1 + 1}</section>\nexport default Slide',
  'export { Slide as default }\nfunction Slide(props: { title: string }) { return <h1>{props.title}</h1> }',
]

/** Slide files that are often valid, so accepted writes (and then the pages) are exercised too. */
const slideFile = {
  'slide.tsx': fc.oneof(fc.constantFrom(...VALID_TSX), fc.string({ maxLength: 40 }), oddString),
  json: fc.oneof(
    { weight: 4, arbitrary: fc.object({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(62, 63, 64, 65, 66, 4_100)
        .map((levels) => `{"title":"d","blocks":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"title":"T","blocks":[{"type":"stat","value":"1","label":"x"},{"type":"bullets","items":[1,null,"a"]}]}',
        '[]',
        '{}',
        '{"a":1,}',
      ),
    },
  ),
}
const slideFiles = fc.record(
  { 'slide.tsx': slideFile['slide.tsx'], 'slide.content.json': slideFile.json, 'slide.controls.json': slideFile.json },
  { requiredKeys: [] },
)

/** The body values of an operation: from its schema, around it, and hand-made plausible ones. */
function bodyValue(id: OperationId, spec: OperationSpec): fc.Arbitrary<unknown> {
  const schema = fromSchema(spec.body!)
  const plausible: Array<fc.Arbitrary<unknown>> = []
  if (id === 'updateSlide') plausible.push(fc.record({ files: slideFiles }))
  if (id === 'createSlide')
    plausible.push(fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }), files: slideFiles }, { requiredKeys: [] }))
  if (id === 'generateProject') {
    plausible.push(fc.record({ prompt: fc.constantFrom('A deck', 'emulator:fail now', 'emulator:dispatch-error please') }))
    plausible.push(fc.record({ prompt: fc.string({ minLength: 1 }), templateId: fc.constantFrom('tpl_acme_pitch', 'tpl_nope') }))
  }
  return fc.oneof(
    { weight: 3, arbitrary: schema },
    { weight: 3, arbitrary: around(schema) },
    ...plausible.map((arbitrary) => ({ weight: 3, arbitrary })),
  )
}

/** Each byte's form in a path: letters and digits as they are, every other byte as `%XX`. */
const ENCODED_BYTE = Array.from({ length: 256 }, (_, b) =>
  /[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`,
)

/** Percent-encodes every byte of the UTF-8 of `text` but letters and digits (lone surrogates become U+FFFD). */
function percentEncode(text: string): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) out += ENCODED_BYTE[byte]
  return out
}

/** A path segment: an id that exists (mostly), or an odd one, percent-encoded or raw. */
function segment(name: string): fc.Arbitrary<string> {
  const pool = pools[name] ?? []
  return fc.oneof(
    { weight: 6, arbitrary: pool.length > 0 ? fc.constantFrom(...pool) : fc.string({ minLength: 1, maxLength: 8 }) },
    { weight: 1, arbitrary: oddString.map(percentEncode) },
    { weight: 1, arbitrary: fc.constantFrom('%E0%A4%A', '%', '%2F', '..', 'templates', 'generate', 'jobs', 'a'.repeat(500), '%00') },
  )
}

function queryString(spec: OperationSpec): fc.Arbitrary<string> {
  const junk = fc.constantFrom(
    '',
    'limit=',
    'limit=1&limit=2',
    'cursor=%ZZ',
    'published=maybe',
    'limit=1e2',
    'limit=0x10',
    'x=1',
    '&&&',
    'limit=-1',
  )
  if (spec.query === undefined) return fc.oneof({ weight: 4, arbitrary: fc.constant('') }, { weight: 1, arbitrary: junk })
  const schema = fromSchema(spec.query)
  const values = fc.oneof({ weight: 3, arbitrary: schema }, { weight: 2, arbitrary: around(schema) }).map((value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return String(value)
    return new URLSearchParams(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()
  })
  return fc.oneof({ weight: 4, arbitrary: values }, { weight: 1, arbitrary: junk })
}

const authorization = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...KEYS).map((key) => `Bearer ${key}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      undefined,
      '',
      'Bearer',
      'Bearer  pres_test_alice  ',
      'bearer pres_test_alice',
      'Basic cHJlczp4',
      'Bearer pres_',
      'Bearer x',
      `Bearer pres_${'a'.repeat(5000)}`,
      'Bearer pres_test_alice, Bearer pres_test_bob',
    ),
  },
)
const contentType = fc.constantFrom(
  undefined,
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'multipart/form-data; boundary=x',
)
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'TRACE', 'PROPFIND']

function requestFor(id: OperationId): fc.Arbitrary<EmulatorRequest> {
  const spec: OperationSpec = operations[id]
  const names = [...spec.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  const body: fc.Arbitrary<string | null> =
    spec.body === undefined
      ? fc.oneof(
          { weight: 5, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
        )
      : bodyValue(id, spec).chain(serialise)
  return fc
    .record({
      segments: fc.tuple(...names.map(segment)),
      query: queryString(spec),
      body,
      authorization,
      contentType,
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(spec.method as string) },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
    })
    .map(({ segments, query, body, authorization, contentType, method }) => {
      let path = `/v1${spec.path}`
      names.forEach((name, i) => {
        path = path.replace(`{${name}}`, segments[i]!)
      })
      const headers: Record<string, string | undefined> = {}
      if (authorization !== undefined) headers.authorization = authorization
      if (contentType !== undefined) headers['content-type'] = contentType
      return { method, path, query, headers, body: body === null ? null : new TextEncoder().encode(body) }
    })
}

/** Statuses an operation may answer: its documented errors, and those every operation can answer. */
function documented(id: OperationId | null, request: EmulatorRequest): Set<number> {
  if (id === null) return new Set([401, 404, 405])
  const spec: OperationSpec = operations[id]
  const allowed = new Set<number>([...spec.errors, 401, 413])
  // Malformed percent-encoding in a path parameter, a repeated or bad query parameter, a bad body.
  if (spec.path.includes('{') || spec.query !== undefined || spec.body !== undefined) allowed.add(400)
  if (request.method !== spec.method) allowed.add(405)
  return allowed
}

async function checkOne(request: EmulatorRequest): Promise<void> {
  const context = describeRequest(request)
  let response = await emulator.handle(request)
  if (request.method === 'HEAD') {
    // A HEAD answers as its GET twin does, with no body: judge it by the twin's answer (a read: it changes nothing).
    expect(response.body, `a HEAD answered with a body: ${context}`).toBeNull()
    const twin = await emulator.handle({ ...request, method: 'GET' })
    expect(response.status, `HEAD and GET answered differently: ${context}`).toBe(twin.status)
    if (twin.body !== null) {
      expect(response.headers['content-length'], context).toBe(String(new TextEncoder().encode(twin.body).byteLength))
    }
    response = twin
  }
  const [entry] = emulator.control.listRequests({ limit: 1 }).requests
  const answeredBy = (entry?.operationId ?? null) as OperationId | null
  // Each case's journal holds its own requests only (the dashboard, rendered below, shows the journal).
  emulator.control.clearRequests()
  count(answeredBy ?? '(no operation)')
  if (response.status < 300) count(`${answeredBy} accepted`)
  // Never a 5xx, but the documented 502 of a dispatch-error prompt.
  if (response.status >= 500) {
    expect(
      answeredBy === 'generateProject' && response.status === 502 && /emulator:dispatch-error/.test(context),
      `${response.status} ${response.body} for ${context}`,
    ).toBe(true)
  }
  if (response.status >= 200 && response.status < 300) {
    expect(answeredBy, context).not.toBeNull()
    const result = operations[answeredBy!].response.safeParse(JSON.parse(response.body!))
    expect(result.success, `${answeredBy} answer ${response.body?.slice(0, 500)} does not match its schema, for ${context}`).toBe(true)
    // A change shows in every page it touched: the dashboard, and the editor and site of the project written to.
    const body = JSON.parse(response.body!) as Record<string, unknown>
    const slugs = new Set<string>()
    const fromPath = /^\/v1\/projects\/([^/]+)/.exec(request.path)?.[1]
    if (fromPath !== undefined) slugs.add(decodeURIComponent(fromPath)) // a success means it decoded
    for (const key of ['projectSlug', 'slug']) if (typeof body[key] === 'string') slugs.add(body[key] as string)
    await world.after((state) => expectPagesRender(emulator, state, slugs, context))
  } else {
    expectErrorShape(response, context)
    expect(
      documented(answeredBy, request).has(response.status),
      `${response.status} is not documented for ${answeredBy}: ${response.body} for ${context}`,
    ).toBe(true)
    expect(await world.after(), `state changed by a ${response.status} for ${context}`).toBe(true)
  }
}

describe('fuzz: every /v1 operation, in-process', () => {
  // ~1,300 cases in npm test: 60 per operation.
  for (const id of OPERATION_IDS) {
    it(
      `${id}: no 5xx, successes match their schema, errors are documented and change nothing, pages render`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestFor(id), (request) => checkOne(request)),
          params(runs(60)),
        )
      },
      timeout(120_000),
    )
  }
})
