import fc from 'fast-check'
import type { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AddCollaboratorRequest,
  AddCollaboratorResponse,
  AddFaultRequest,
  AddFaultResponse,
  AdvanceClockRequest,
  AdvanceClockResponse,
  ClockResponse,
  CreateAccountRequest,
  CreateAccountResponse,
  CreateKeyRequest,
  CreateKeyResponse,
  CreateTeamRequest,
  CreateTeamResponse,
  CreateTemplateRequest,
  CreateTemplateResponse,
  FailJobRequest,
  HealthResponse,
  KeyResponse,
  ListFaultsResponse,
  ListRequestsQuery,
  ListRequestsResponse,
  SetCreditsRequest,
  SetCreditsResponse,
  WaitForRequestQuery,
  WaitForRequestResponse,
} from '../../src/control/schemas.js'
import type { EmulatorRequest } from '../../src/core/exchange.js'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { JobStatusResponse } from '../../src/schemas/index.js'
import { StateDocument } from '../../src/store/world.js'
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
 * Issue 11: property tests over every control-plane route (and the
 * dashboard), in-process through `emulator.handle()`: bodies from the
 * control schemas and around them, a state document mutated anywhere for
 * `PUT /state`, path ids that exist or not, browser headers (Origin,
 * Sec-Fetch-Site) foreign or not. Every case starts from the same world,
 * faults and clock (`CaseWorld`).
 */

interface RouteSpec {
  method: string
  path: string
  body?: z.ZodType | 'state'
  query?: z.ZodType
  response?: z.ZodType
  status: number
  /** A query generator of its own (the long-poll's must keep its waits short). */
  queries?: () => fc.Arbitrary<string>
  /** Error statuses the route documents besides the common ones, with their codes. */
  errors?: Record<number, string>
}

/** The long-poll's query: filters from its schema or around it, always with a short timeoutMs. */
const waitQueries = () =>
  fc
    .tuple(
      fc.oneof(fromSchema(WaitForRequestQuery), around(fromSchema(WaitForRequestQuery)), fc.constant({})),
      fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 0, max: 30 }).map(String) },
        { weight: 1, arbitrary: fc.constantFrom('-1', 'x', '60001', '1e3') },
      ),
    )
    .map(([value, timeoutMs]) => {
      const entries = typeof value === 'object' && value !== null ? Object.entries(value).filter(([key]) => key !== 'timeoutMs') : []
      const params = new URLSearchParams(entries.map(([k, x]) => [k, typeof x === 'string' ? x : String(JSON.stringify(x))]))
      params.set('timeoutMs', timeoutMs)
      return params.toString()
    })

const ROUTES: RouteSpec[] = [
  { method: 'GET', path: '/_emulator/health', response: HealthResponse, status: 200 },
  { method: 'POST', path: '/_emulator/reset', status: 200 },
  { method: 'GET', path: '/_emulator/state', response: StateDocument, status: 200 },
  { method: 'PUT', path: '/_emulator/state', body: 'state', status: 200 },
  { method: 'POST', path: '/_emulator/accounts', body: CreateAccountRequest, response: CreateAccountResponse, status: 201 },
  { method: 'POST', path: '/_emulator/teams', body: CreateTeamRequest, response: CreateTeamResponse, status: 201 },
  { method: 'POST', path: '/_emulator/keys', body: CreateKeyRequest, response: CreateKeyResponse, status: 201 },
  { method: 'DELETE', path: '/_emulator/keys/{keyId}', status: 200 },
  { method: 'PUT', path: '/_emulator/teams/{teamId}/credits', body: SetCreditsRequest, response: SetCreditsResponse, status: 200 },
  { method: 'POST', path: '/_emulator/templates', body: CreateTemplateRequest, response: CreateTemplateResponse, status: 201 },
  {
    method: 'POST',
    path: '/_emulator/projects/{slug}/collaborators',
    body: AddCollaboratorRequest,
    response: AddCollaboratorResponse,
    status: 200,
  },
  { method: 'GET', path: '/_emulator/clock', response: ClockResponse, status: 200 },
  { method: 'POST', path: '/_emulator/clock/advance', body: AdvanceClockRequest, response: AdvanceClockResponse, status: 200 },
  { method: 'POST', path: '/_emulator/jobs/{jobId}/complete', response: JobStatusResponse, status: 200 },
  { method: 'POST', path: '/_emulator/jobs/{jobId}/fail', body: FailJobRequest, response: JobStatusResponse, status: 200 },
  { method: 'POST', path: '/_emulator/faults', body: AddFaultRequest, response: AddFaultResponse, status: 201 },
  { method: 'GET', path: '/_emulator/faults', response: ListFaultsResponse, status: 200 },
  { method: 'DELETE', path: '/_emulator/faults', status: 200 },
  { method: 'DELETE', path: '/_emulator/faults/{faultId}', status: 200 },
  { method: 'GET', path: '/_emulator/requests', query: ListRequestsQuery, response: ListRequestsResponse, status: 200 },
  { method: 'DELETE', path: '/_emulator/requests', status: 200 },
  { method: 'GET', path: '/_emulator', status: 200 },
  { method: 'GET', path: '/_emulator/dashboard/fragment', status: 200 },
  { method: 'GET', path: '/_emulator/dashboard/events', status: 200 },
  { method: 'GET', path: '/_emulator/keys/{keyId}', response: KeyResponse, status: 200 },
  {
    method: 'GET',
    path: '/_emulator/requests/wait',
    response: WaitForRequestResponse,
    status: 200,
    queries: waitQueries,
    errors: { 408: 'WAIT_TIMEOUT' },
  },
]

let emulator: PresentationEmulator
let world: CaseWorld
let initialState: StateDocument
const pools: Record<string, string[]> = {}

/** The fault standing at the start of every case (the fault routes need one to find, list and remove). */
const STANDING_FAULT = { operationId: 'listTeams', status: 503, times: 0 } as const
/** Its id (a new one each time it is put back), and the placeholder generated paths carry for it. */
let standingFaultId = ''
const STANDING = '@standing-fault'

beforeAll(async () => {
  emulator = createEmulator({ clock: 'manual', rateLimit: 0, fixtures: FUZZ_FIXTURES })
  await emulator.ready()
  for (const prompt of ['One', 'Two', 'Three']) {
    await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
      method: 'POST',
      headers: { authorization: 'Bearer pres_test_alice_acme' },
      body: JSON.stringify({ prompt }),
    })
  }
  standingFaultId = emulator.control.addFault(STANDING_FAULT).faultId
  // Faults and the clock are state too: a case that changed them is undone like one that changed the world.
  const faults = () =>
    emulator.control.listFaults().faults.map((fault) => ({ ...fault, id: fault.id === standingFaultId ? STANDING : fault.id }))
  world = await CaseWorld.take(emulator, {
    snapshot: () => [faults(), emulator.control.clock()],
    restore: () => {
      emulator.control.clearFaults()
      standingFaultId = emulator.control.addFault(STANDING_FAULT).faultId
    },
  })
  initialState = world.start
  await expectPagesRender(
    emulator,
    initialState,
    initialState.projects.map((p) => p.slug),
    'the start',
  )
  pools.keyId = initialState.apiKeys.map((k) => k.id)
  pools.teamId = initialState.teams.map((t) => t.id)
  pools.userId = initialState.users.map((u) => u.id)
  pools.slug = initialState.projects.slice(0, 5).map((p) => p.slug)
  pools.jobId = initialState.jobs.map((j) => j.id)
  pools.faultId = [STANDING, 'flt_1', 'flt_999']
})

afterAll(() => {
  emulator.close()
  console.info(`[fuzz] control plane in-process: ${[...counts].map(([name, n]) => `${name} ${n}`).join(', ')}`)
})

const pick = (name: string) =>
  fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...pools[name]!) },
    { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), oddString) },
  )

function plausible(route: RouteSpec): Array<fc.Arbitrary<unknown>> {
  switch (route.path) {
    case '/_emulator/teams':
      return [
        fc.record(
          {
            name: fc.string({ minLength: 1, maxLength: 20 }),
            memberUserIds: fc.array(pick('userId'), { minLength: 1, maxLength: 3 }),
            credits: fc.integer({ min: 0, max: 100 }),
          },
          { requiredKeys: ['name', 'memberUserIds'] },
        ),
      ]
    case '/_emulator/keys':
      return [
        fc.record({ userId: pick('userId'), teamId: pick('teamId'), name: fc.string({ maxLength: 10 }) }, { requiredKeys: ['userId'] }),
      ]
    case '/_emulator/templates':
      return [
        fc.record(
          { teamId: pick('teamId'), name: fc.string({ minLength: 1, maxLength: 20 }), slideCount: fc.integer({ min: 0, max: 51 }) },
          { requiredKeys: ['teamId', 'name'] },
        ),
      ]
    case '/_emulator/projects/{slug}/collaborators':
      return [fc.record({ userId: pick('userId') })]
    case '/_emulator/faults':
      return [
        fc.record(
          {
            operationId: fc.constantFrom('*', 'listProjects', 'createProject', 'nope'),
            status: fc.integer({ min: 399, max: 600 }),
            times: fc.integer({ min: 0, max: 3 }),
            apiKey: fc.constantFrom('pres_test_alice', 'key_alice', 'x'),
          },
          { requiredKeys: ['operationId'] },
        ),
      ]
    default:
      return []
  }
}

function bodyFor(route: RouteSpec): fc.Arbitrary<string | null> {
  if (route.body === undefined) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.constantFrom('{}', '', 'x', '{"a":1}', ' '.repeat(2000)) },
    )
  }
  if (route.body === 'state') {
    const state = fc.constant(initialState as unknown)
    return fc.oneof({ weight: 1, arbitrary: state }, { weight: 6, arbitrary: around(state) }).chain(serialise)
  }
  const schema = fromSchema(route.body)
  return fc
    .oneof(
      { weight: 3, arbitrary: schema },
      { weight: 3, arbitrary: around(schema) },
      ...plausible(route).map((arbitrary) => ({ weight: 6, arbitrary })),
    )
    .chain(serialise)
}

function queryFor(route: RouteSpec): fc.Arbitrary<string> {
  if (route.queries !== undefined) return route.queries()
  const junk = fc.constantFrom('', 'limit=0', 'limit=10001', 'limit=1&limit=2', 'operationId=nope', 'limit=abc', 'token=x')
  if (route.query === undefined) return fc.oneof({ weight: 5, arbitrary: fc.constant('') }, { weight: 1, arbitrary: junk })
  const schema = fromSchema(route.query)
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .oneof(schema, around(schema))
        .map((v) =>
          typeof v === 'object' && v !== null
            ? new URLSearchParams(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : String(JSON.stringify(x))])).toString()
            : String(JSON.stringify(v)),
        ),
    },
    { weight: 1, arbitrary: junk },
  )
}

/** Browser headers: none (curl), same origin, or a foreign page. */
const browser: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({}) },
  { weight: 2, arbitrary: fc.constant({ origin: 'http://127.0.0.1:4010', 'sec-fetch-site': 'same-origin' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'null' },
    ),
  },
)

function requestFor(route: RouteSpec): fc.Arbitrary<{ request: EmulatorRequest; foreign: boolean }> {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
  return fc
    .record({
      segments: fc.tuple(...names.map(pick)),
      query: queryFor(route),
      body: bodyFor(route),
      browser,
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
      ),
    })
    .map(({ segments, query, body, browser, method }) => {
      let path = route.path
      names.forEach((name, i) => {
        path = path.replace(`{${name}}`, encodeURIComponent(segments[i]!.replace(/[\uD800-\uDFFF]/g, '?')))
      })
      const foreign = browser.origin === 'http://evil.example' || browser.origin === 'null' || browser['sec-fetch-site'] === 'cross-site'
      return {
        request: {
          method,
          path,
          query,
          headers: { host: '127.0.0.1:4010', 'content-type': 'application/json', ...browser },
          body: body === null ? null : new TextEncoder().encode(body),
        },
        foreign: foreign && method !== 'GET' && method !== 'HEAD',
      }
    })
}

async function checkOne(route: RouteSpec, generated: EmulatorRequest, foreign: boolean): Promise<void> {
  // The standing fault's id, wherever the path names it.
  const request = { ...generated, path: generated.path.replace(encodeURIComponent(STANDING), standingFaultId) }
  const context = describeRequest(request)
  let response = await emulator.handle(request)
  // A live event stream answers for as long as it is read: end it.
  if (response.stream !== undefined) await response.stream[Symbol.asyncIterator]().return?.()
  if (request.method === 'HEAD') {
    // A HEAD answers as its GET twin does, with no body and no stream: judge it by the twin's answer.
    expect(response.body === null && response.stream === undefined, `a HEAD answered with a body: ${context}`).toBe(true)
    const twin = await emulator.handle({ ...request, method: 'GET' })
    if (twin.stream !== undefined) await twin.stream[Symbol.asyncIterator]().return?.()
    expect(response.status, `HEAD and GET answered differently: ${context}`).toBe(twin.status)
    response = { ...twin, stream: undefined }
  }
  // A HEAD's answer is judged as its GET's: the route's own errors and schema apply to it.
  const asMethod = request.method === 'HEAD' ? 'GET' : request.method
  count(route.path)
  expect(response.status, `${response.status} ${response.body} for ${context}`).toBeLessThan(500)
  if (foreign) expect(response.status, `a foreign page changed the emulator: ${context}`).toBe(403)
  if (response.status < 300) {
    count(`${route.path} accepted`)
    if (asMethod === route.method && route.response !== undefined) {
      const result = route.response.safeParse(JSON.parse(response.body!))
      expect(result.success, `answer ${response.body?.slice(0, 300)} does not match its schema, for ${context}`).toBe(true)
    }
    // A change shows in the pages: the dashboard, and the editor and site of the project named, and of two more.
    const slug = /^\/_emulator\/projects\/([^/]+)/.exec(request.path)?.[1]
    const slugs = [...(slug === undefined ? [] : [decodeURIComponent(slug)]), ...pools.slug!.slice(0, 2)]
    await world.after((state) => expectPagesRender(emulator, state, slugs, context))
  } else {
    const own = asMethod === route.method ? (route.errors ?? {}) : {}
    expectErrorShape(response, context, own[response.status])
    expect(
      [400, 403, 404, 405, 413, ...Object.keys(own).map(Number)],
      `${response.status} is not documented: ${response.body} for ${context}`,
    ).toContain(response.status)
    expect(await world.after(), `state changed by a ${response.status} for ${context}`).toBe(true)
  }
}

describe('fuzz: every control-plane route, in-process', () => {
  // ~800 cases in npm test: 35 per route.
  for (const route of ROUTES) {
    it(
      `${route.method} ${route.path}: no 5xx, successes match their schema, errors change nothing, foreign pages refused, pages render`,
      async () => {
        await fc.assert(
          fc.asyncProperty(requestFor(route), ({ request, foreign }) => checkOne(route, request, foreign)),
          params(runs(route.body === 'state' ? 40 : 35)),
        )
      },
      timeout(120_000),
    )
  }
})
