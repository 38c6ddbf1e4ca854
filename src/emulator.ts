import { Clock, type ClockMode } from './core/clock.js'
import { fail, ServiceError } from './core/errors.js'
import { jsonResponse, MAX_BODY_BYTES, MAX_CONTROL_BODY_BYTES, textResponse, type EmulatorRequest, type EmulatorResponse } from './core/exchange.js'
import { Faults } from './core/faults.js'
import { DEFAULT_JOURNAL_SIZE, Journal, toJournalEntry, type JournalEntry, type JournalRecord } from './core/journal.js'
import { Mutex } from './core/mutex.js'
import { RateLimiter } from './core/rate-limiter.js'
import { RouteTable } from './core/router.js'
import { describeIssues, parseInput, safeParse } from './core/validation.js'
import { ControlPlane } from './control/control-plane.js'
import { controlRoutes, type ControlRoute } from './control/routes.js'
import { buildWorld } from './fixtures/build.js'
import { BUILT_IN_FIXTURES, parseFixtures } from './fixtures/load.js'
import type { FixturesDocument, FixturesInput } from './fixtures/schema.js'
import { API_KEY_PREFIX } from './fixtures/schema.js'
import type { Principal } from './model/access.js'
import { finishJob } from './model/generation.js'
import { SITES_DOMAIN, Urls } from './model/urls.js'
import { dashboardFragment, dashboardPage } from './pages/dashboard.js'
import { editorPage, editorSlidesHtml } from './pages/editor.js'
import { siteNotFoundPage, sitePage } from './pages/site.js'
import type { Env } from './operations/context.js'
import { handlers } from './operations/index.js'
import { operations, type OperationId, type OperationSpec } from './schemas/index.js'
import type { Change } from './store/table.js'
import type { World } from './store/world.js'

/** Options of one emulator. Every option has a default; see the README's flags table. */
export interface EmulatorOptions {
  /** Fixtures and generated ids are a pure function of the seed. Default 1. */
  seed?: number
  /** A fixtures document replacing the built-in world. */
  fixtures?: FixturesInput
  /**
   * The API base URL clients call, ending in the version segment
   * (default `http://127.0.0.1:4010/v1`). msw handlers intercept it; the
   * socket-free `fetch` maps its path onto the API.
   */
  baseUrl?: string
  /** Origin used in `editorUrl` / `publishedUrl`; default: the listen origin, else the base URL's origin. */
  publicUrl?: string
  /** Simulated generation time = nominal × timeScale; 0 completes at once. Default 0.02. */
  timeScale?: number
  /** `real` (default) or `manual`: time moves only through the control plane. */
  clock?: ClockMode
  /** Where a manual clock starts (ISO date-time or epoch ms); default the fixtures' epoch. */
  clockStart?: string | number
  /** Requests per minute per user; 0 turns the limit off. Default 50. */
  rateLimit?: number
  /** When set, `/_emulator/*` requires `Authorization: Bearer <adminToken>`. */
  adminToken?: string
  /** Check every 200 response against its schema and answer 500 on a mismatch (for the emulator's own tests). */
  validateResponses?: boolean
  /** How many requests the journal keeps. Default 10,000. */
  journalSize?: number
  /** Called after every `/v1` request. */
  onRequest?: (entry: JournalEntry) => void
  /** Called with every unexpected error (answered as 500). Default: `console.error`. */
  onError?: (error: unknown) => void
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1'

interface ResolvedOptions {
  seed: number
  fixtures: FixturesDocument
  baseUrl: URL
  publicUrl: string | undefined
  timeScale: number
  clock: ClockMode
  rateLimit: number
  adminToken: string | undefined
  validateResponses: boolean
  journalSize: number
  onRequest: ((entry: JournalEntry) => void) | undefined
  onError: (error: unknown) => void
}

function resolveOptions(options: EmulatorOptions): ResolvedOptions {
  const seed = options.seed ?? 1
  if (!Number.isSafeInteger(seed)) throw new TypeError('seed must be an integer')
  const timeScale = options.timeScale ?? 0.02
  if (!(timeScale >= 0) || !Number.isFinite(timeScale)) throw new TypeError('timeScale must be a finite number ≥ 0')
  const rateLimit = options.rateLimit ?? 50
  if (!Number.isInteger(rateLimit) || rateLimit < 0) throw new TypeError('rateLimit must be an integer ≥ 0')
  const clock = options.clock ?? 'real'
  if (clock !== 'real' && clock !== 'manual') throw new TypeError('clock must be "real" or "manual"')
  let baseUrl: URL
  try {
    baseUrl = new URL(options.baseUrl ?? DEFAULT_BASE_URL)
  } catch {
    throw new TypeError(`baseUrl is not an absolute URL: ${options.baseUrl}`)
  }
  let publicUrl: string | undefined
  if (options.publicUrl !== undefined) {
    try {
      publicUrl = new URL(options.publicUrl).origin
    } catch {
      throw new TypeError(`publicUrl is not an absolute URL: ${options.publicUrl}`)
    }
  }
  return {
    seed,
    fixtures: parseFixtures(options.fixtures ?? BUILT_IN_FIXTURES),
    baseUrl,
    publicUrl,
    timeScale,
    clock,
    rateLimit,
    adminToken: options.adminToken,
    validateResponses: options.validateResponses ?? false,
    journalSize: options.journalSize ?? DEFAULT_JOURNAL_SIZE,
    onRequest: options.onRequest,
    onError: options.onError ?? ((error) => console.error('[presentation-emulator] unexpected error:', error)),
  }
}

const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'x-service-error-code, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, x-request-id',
}

const UTF8 = new TextDecoder('utf-8', { fatal: true })

function parseQuery(raw: string): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(query, key)) throw fail.validation(`${key}: given more than once`)
    query[key] = value
  }
  return query
}

function readJsonBody(request: EmulatorRequest, spec: OperationSpec): unknown {
  const bytes = request.body
  if (bytes === null || bytes.byteLength === 0) {
    if (spec.bodyRequired) throw fail.validation('a JSON request body is required')
    return {}
  }
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    throw fail.invalidJson('the body is not valid UTF-8 text')
  }
  if (text.trim() === '') {
    if (spec.bodyRequired) throw fail.validation('a JSON request body is required')
    return {}
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw fail.invalidJson(`the body is not valid JSON (${(error as Error).message})`)
  }
}

function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = decodeURIComponent(value)
    } catch {
      throw fail.validation(`${key}: malformed percent-encoding in the path`)
    }
  }
  return decoded
}

function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return match?.[1]
}

/**
 * One independent emulated Presentation Service: a world, its clock, rate
 * limits, faults and journal, answering requests through `handle`.
 *
 * `handle` is the whole service as one function from an `EmulatorRequest`
 * to an `EmulatorResponse`; the HTTP server, the msw handlers and `fetch`
 * are thin adapters around it.
 */
export class Emulator {
  readonly clock: Clock
  readonly journal: Journal
  readonly faults = new Faults()
  readonly rateLimiter: RateLimiter
  readonly #options: ResolvedOptions
  readonly #mutex = new Mutex()
  readonly #apiRoutes = new RouteTable<OperationId>()
  readonly #controlRoutes = controlRoutes()
  /** Processing jobs by id, with the instant (ms) they are due. */
  readonly #pendingJobs = new Map<string, number>()
  #jobTimer: ReturnType<typeof setTimeout> | undefined
  #closed = false
  /** Every control-plane action as a typed function. */
  readonly control: ControlPlane
  readonly #changeListeners: Array<(change: Change<unknown> | { table: '*' }) => void> = []
  readonly #env: Env
  #world: World | undefined
  #ready: Promise<void>
  #listenOrigin: string | undefined
  readonly #baseOrigin: string
  /** Set once the world is built, so requests skip awaiting `#ready`. */
  #loaded = false

  constructor(options: EmulatorOptions = {}) {
    this.#options = resolveOptions(options)
    const start =
      options.clockStart === undefined
        ? Date.parse(this.#options.fixtures.epoch)
        : typeof options.clockStart === 'number'
          ? options.clockStart
          : Date.parse(options.clockStart)
    if (Number.isNaN(start)) throw new TypeError(`clockStart is not a date: ${options.clockStart}`)
    this.clock = new Clock(this.#options.clock, start)
    this.#baseOrigin = this.#options.baseUrl.origin
    this.journal = new Journal(this.#options.journalSize)
    this.rateLimiter = new RateLimiter(this.#options.rateLimit, this.clock)
    this.#env = {
      clock: this.clock,
      urls: new Urls(() => this.publicUrl),
      timeScale: this.#options.timeScale,
    }
    this.control = new ControlPlane(this)
    for (const [id, spec] of Object.entries(operations) as Array<[OperationId, OperationSpec]>) {
      if (handlers[id] !== undefined) this.#apiRoutes.add(spec.method, `/v1${spec.path}`, id)
    }
    this.#ready = this.#mutex.run(async () => this.#install(await buildWorld(this.#options.fixtures, this.#options.seed)))
    // A failed load is reported by ready() and by every request; never as an unhandled rejection.
    this.#ready.catch(() => undefined)
  }

  /** Resolves once the seeded world is built; rejects if it cannot be. */
  ready(): Promise<void> {
    return this.#ready
  }

  /** The current world (after `ready()`). */
  get world(): World {
    if (this.#world === undefined) throw new Error('the emulator is not ready yet: await emulator.ready()')
    return this.#world
  }

  get seed(): number {
    return this.#options.seed
  }

  get timeScale(): number {
    return this.#options.timeScale
  }

  get adminToken(): string | undefined {
    return this.#options.adminToken
  }

  /** The URLs handed out in responses. */
  get urls(): Urls {
    return this.#env.urls
  }

  /** The origin of `editorUrl` / `publishedUrl`. */
  get publicUrl(): string {
    return this.#options.publicUrl ?? this.#listenOrigin ?? this.#baseOrigin
  }

  /** The API base URL clients call (for msw handlers and `fetch`). */
  get baseUrl(): URL {
    return this.#options.baseUrl
  }

  /** Called by the HTTP adapter once it listens, so URLs point at it. */
  setListenOrigin(origin: string): void {
    this.#listenOrigin = origin
  }

  /** Calls `listener` after every change of state (`table: '*'` when the whole world is replaced). */
  onChange(listener: (change: Change<unknown> | { table: '*' }) => void): () => void {
    this.#changeListeners.push(listener)
    return () => {
      const index = this.#changeListeners.indexOf(listener)
      if (index !== -1) this.#changeListeners.splice(index, 1)
    }
  }

  /** Runs `task` with exclusive access to the world. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    return this.#mutex.run(async () => {
      await this.#ready
      return task()
    })
  }

  /** Replaces the world (reset, state import). Call inside `exclusive`. */
  install(world: World): void {
    this.#install(world)
  }

  /** Builds the seeded world of the fixtures again. */
  buildSeededWorld(): Promise<World> {
    return buildWorld(this.#options.fixtures, this.#options.seed)
  }

  #install(world: World): void {
    this.#world = world
    this.#loaded = true
    this.#pendingJobs.clear()
    for (const job of world.jobs.all()) {
      if (job.status === 'processing') this.#pendingJobs.set(job.id, Date.parse(job.dueAt))
    }
    world.jobs.onChange(({ next }) => {
      if (next === undefined) return
      if (next.status === 'processing') this.#pendingJobs.set(next.id, Date.parse(next.dueAt))
      else this.#pendingJobs.delete(next.id)
      this.#armJobTimer()
    })
    world.onChange((change) => {
      for (const listener of this.#changeListeners) listener(change)
    })
    this.#armJobTimer()
    for (const listener of this.#changeListeners) listener({ table: '*' })
  }

  /**
   * Finishes every processing job whose time has come, each at its due
   * instant, in due order. Runs before every operation and after the clock
   * moves, so a job completes whether or not anyone polls it. Call inside
   * `exclusive`.
   */
  async settleDueJobs(): Promise<void> {
    if (this.#pendingJobs.size === 0) return
    const now = this.clock.now()
    const due = [...this.#pendingJobs]
      .filter(([, dueAt]) => dueAt <= now)
      .sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1))
    for (const [jobId, dueAt] of due) {
      const job = this.world.jobs.get(jobId)!
      const error = job.outcome === 'failed' ? 'Generation failed: the prompt asked for a failure (emulator:fail)' : undefined
      await finishJob(this.world, jobId, job.outcome, new Date(dueAt).toISOString(), error)
    }
  }

  /** Finishes a processing job now with `outcome`. Call inside `exclusive`. */
  finishJob(jobId: string, outcome: 'completed' | 'failed', error?: string) {
    return finishJob(this.world, jobId, outcome, this.clock.iso(), error)
  }

  /** On a real clock, wakes up when the next job is due (without keeping the process alive). */
  #armJobTimer(): void {
    if (this.#jobTimer !== undefined) clearTimeout(this.#jobTimer)
    this.#jobTimer = undefined
    if (this.#closed || this.clock.mode !== 'real' || this.#pendingJobs.size === 0) return
    const next = Math.min(...this.#pendingJobs.values())
    const delay = Math.min(Math.max(0, next - this.clock.now()), 2 ** 31 - 1)
    const timer = setTimeout(() => {
      this.#jobTimer = undefined
      this.exclusive(() => this.settleDueJobs()).catch((error: unknown) => this.#options.onError(error))
    }, delay)
    ;(timer as { unref?: () => void }).unref?.()
    this.#jobTimer = timer
  }

  /** Stops the job timer; the emulator answers no more job completions on its own. */
  close(): void {
    this.#closed = true
    if (this.#jobTimer !== undefined) clearTimeout(this.#jobTimer)
    this.#jobTimer = undefined
  }

  /** The whole service: answers one request. Never throws. */
  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const response = await this.#dispatch(request)
    Object.assign(response.headers, CORS_HEADERS)
    return response
  }

  async #dispatch(request: EmulatorRequest): Promise<EmulatorResponse> {
    if (!this.#loaded) {
      try {
        await this.#ready
      } catch (error) {
        return fail.internal(`the emulator could not load its world: ${(error as Error).message}`).toResponse()
      }
    }
    const { path } = request
    if (request.method === 'OPTIONS') return this.#preflight()
    if (path === '/v1' || path.startsWith('/v1/')) return this.#handleApi(request)
    if (path === '/_emulator' || path.startsWith('/_emulator/')) return this.#handleControl(request)
    if (path.startsWith('/editor/') || path.startsWith('/sites/')) return this.#handlePage(request)
    return fail.notFound('Route', `nothing is served at ${path}; the API is under /v1`).toResponse()
  }

  #preflight(): EmulatorResponse {
    return {
      status: 204,
      headers: {
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      },
      body: null,
    }
  }

  #authenticate(header: string | undefined): Principal {
    const token = bearer(header)
    if (token === undefined) {
      throw fail.unauthorized(
        header === undefined
          ? 'send the header Authorization: Bearer <API key>'
          : 'the Authorization header must be "Bearer <API key>"',
      )
    }
    if (!token.startsWith(API_KEY_PREFIX)) {
      throw fail.unauthorized(`API keys start with "${API_KEY_PREFIX}"`)
    }
    const world = this.world
    const key = world.apiKeyByValue(token)
    if (key === undefined) throw fail.unauthorized('the API key is not valid')
    if (key.revokedAt !== null) throw fail.unauthorized('the API key has been revoked')
    const user = world.users.get(key.userId)
    const team = world.teams.get(key.teamId)
    if (user === undefined || team === undefined) throw fail.unauthorized('the API key’s owner or team no longer exists')
    return { key, user, team }
  }

  async #handleApi(request: EmulatorRequest): Promise<EmulatorResponse> {
    const started = performance.now()
    const requestId = this.journal.nextId()
    const time = this.clock.now()
    let principal: Principal | undefined
    let operationId: OperationId | undefined
    let headers: Record<string, string> = {}
    let response: EmulatorResponse
    try {
      principal = this.#authenticate(request.headers.authorization)
      const decision = this.rateLimiter.hit(principal.user.id)
      headers = decision.headers
      if (!decision.allowed) {
        throw fail.rateLimited(
          `at most ${this.rateLimiter.limit} requests per minute per user; retry after ${decision.headers['retry-after']} s`,
          {},
        )
      }
      const match = this.#apiRoutes.match(request.method, request.path)
      if (match.kind === 'none') throw fail.notFound('Route', `no operation at ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      operationId = match.data
      const spec: OperationSpec = operations[operationId]
      if (request.bodyTooLarge || (request.body !== null && request.body.byteLength > MAX_BODY_BYTES)) {
        throw fail.payloadTooLarge(MAX_BODY_BYTES)
      }

      const fault = this.faults.take(operationId, { value: principal.key.key, id: principal.key.id })
      if (fault !== undefined) {
        if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
        if (fault.error !== undefined) {
          // An injected 429 looks like a real one: rate-limit headers with nothing remaining.
          if (fault.error.status === 429) headers = { ...headers, ...this.rateLimiter.refusal() }
          throw fault.error
        }
      }

      const params = decodeParams(match.params)
      const query = spec.query === undefined ? undefined : parseInput(spec.query, parseQuery(request.query))
      const body = spec.body === undefined ? undefined : parseInput(spec.body, readJsonBody(request, spec))
      const handler = handlers[operationId]!
      const authorization = request.headers.authorization
      const result = await this.#mutex.run(async () => {
        // Authenticate again inside the lock: a key revoked (or a world
        // replaced) while this request waited is honoured at once.
        const current = this.#authenticate(authorization)
        principal = current
        await this.settleDueJobs()
        return handler({ world: this.world, env: this.#env, principal: current, params, query, body } as never)
      })
      if (this.#options.validateResponses) {
        const check = safeParse(spec.response, result)
        if (!check.success) {
          throw fail.internal(`response of ${operationId} does not match its schema: ${describeIssues(check.error.issues)}`)
        }
      }
      response = jsonResponse(200, result, headers)
    } catch (error) {
      response = this.#errorResponse(error, headers)
    }
    response.headers['x-request-id'] = requestId
    const entry: JournalRecord = {
      id: requestId,
      time,
      method: request.method,
      path: request.path,
      operationId: operationId ?? null,
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      keyId: principal?.key.id ?? null,
      userId: principal?.user.id ?? null,
    }
    this.journal.record(entry)
    this.#options.onRequest?.(toJournalEntry(entry))
    return response
  }

  async #handlePage(request: EmulatorRequest): Promise<EmulatorResponse> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET']).toResponse()
    const html = (status: number, body: string) =>
      textResponse(status, request.method === 'HEAD' ? '' : body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' })
    let segments: string[]
    try {
      segments = request.path.split('/').slice(1).map(decodeURIComponent)
    } catch {
      return html(400, siteNotFoundPage(request.path))
    }
    return this.exclusive(async () => {
      await this.settleDueJobs()
      const world = this.world
      const [area, first, second, ...rest] = segments
      if (area === 'editor') {
        const project = first === undefined ? undefined : world.projectBySlug(first)
        if (project === undefined || (second !== undefined && second !== 'live') || rest.length > 0) {
          return html(404, siteNotFoundPage(request.path))
        }
        return second === 'live' ? html(200, editorSlidesHtml(world, project)) : html(200, editorPage(world, project))
      }
      // /sites/{hostname}{path}
      const hostname = first ?? ''
      const sitePath = `/${[second, ...rest].filter((s) => s !== undefined).join('/')}`
      let project
      if (hostname.endsWith(`.${SITES_DOMAIN}`)) {
        const subdomain = world.subdomainByLabel(hostname.slice(0, -SITES_DOMAIN.length - 1))
        project = subdomain === undefined ? undefined : world.projectAt({ subdomainId: subdomain.id }, sitePath)
      } else {
        const domain = world.domainByHostname(hostname)
        project = domain === undefined ? undefined : world.projectAt({ domainId: domain.id }, sitePath)
      }
      const publication = project === undefined || project.publishedAt === null ? undefined : world.publicationOf(project.id)
      return publication === undefined ? html(404, siteNotFoundPage(`${hostname}${sitePath}`)) : html(200, sitePage(publication))
    })
  }

  async #handleControl(request: EmulatorRequest): Promise<EmulatorResponse> {
    try {
      const token = this.#options.adminToken
      const isDashboard = request.method === 'GET' && (request.path === '/_emulator' || request.path === '/_emulator/dashboard/fragment')
      const given = bearer(request.headers.authorization) ?? (isDashboard ? new URLSearchParams(request.query).get('token') ?? undefined : undefined)
      if (token !== undefined && given !== token) {
        throw fail.unauthorized('the control plane requires Authorization: Bearer <admin token> (the dashboard also takes ?token=)')
      }
      if (isDashboard) {
        const suffix = token === undefined ? '' : `?token=${encodeURIComponent(token)}`
        const body = await this.exclusive(() =>
          request.path === '/_emulator' ? dashboardPage(this, `/_emulator/dashboard/fragment${suffix}`) : dashboardFragment(this),
        )
        return textResponse(200, body, 'text/html; charset=utf-8', { 'cache-control': 'no-store' })
      }
      const match = this.#controlRoutes.match(request.method, request.path)
      if (match.kind === 'none') throw fail.notFound('Route', `no control-plane route at ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      if (request.bodyTooLarge || (request.body !== null && request.body.byteLength > MAX_CONTROL_BODY_BYTES)) {
        throw fail.payloadTooLarge(MAX_CONTROL_BODY_BYTES)
      }
      const route: ControlRoute = match.data
      const body = readJsonBody(request, { bodyRequired: false } as OperationSpec)
      const result = await route.run(this.control, {
        params: decodeParams(match.params),
        query: parseQuery(request.query),
        body,
      })
      return jsonResponse(route.status, result)
    } catch (error) {
      return this.#errorResponse(error, {})
    }
  }

  #errorResponse(error: unknown, headers: Record<string, string>): EmulatorResponse {
    if (error instanceof ServiceError) return error.toResponse(headers)
    this.#options.onError(error)
    return fail.internal('an unexpected error occurred; see the emulator log').toResponse(headers)
  }
}
