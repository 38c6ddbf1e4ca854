import type { Clock } from '../core/clock.js'
import { fail, ServiceError } from '../core/errors.js'
import { jsonResponse, MAX_BODY_BYTES, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import type { Faults } from '../core/faults.js'
import { bearer, decodeParams, parseQuery, readJsonBody } from '../core/http-input.js'
import { lazyJournalEntry, type Journal, type JournalEntry, type JournalRecord } from '../core/journal.js'
import type { RateLimiter } from '../core/rate-limiter.js'
import { RouteTable } from '../core/router.js'
import { describeIssues, parseInput, safeParse } from '../core/validation.js'
import { API_KEY_PREFIX } from '../fixtures/schema.js'
import type { Principal } from '../model/access.js'
import { handlers as defaultHandlers, type Env, type OperationHandler } from '../operations/index.js'
import { operations, type OperationId, type OperationSpec } from '../schemas/index.js'
import type { World } from '../store/world.js'
import type * as z from 'zod'
import type { TestHooks } from './test-hooks.js'

/** What the `/v1` pipeline needs from the emulator that hosts it. */
export interface ApiHost {
  readonly world: World
  readonly env: Env
  readonly clock: Clock
  readonly rateLimiter: RateLimiter
  readonly faults: Faults
  readonly journal: Journal
  /** Runs `task` with exclusive access to the world. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  /** Finishes the jobs that are due (inside `exclusive`). */
  settleDueJobs(): Promise<void>
  /** True when a synchronous read may run at once (nothing holds or awaits the lock, no job is due). */
  readonly quiet: boolean
}

/** How many validated queries the pipeline keeps. */
const QUERY_CACHE_SIZE = 256

export interface ApiPipelineOptions {
  validateResponses: boolean
  onRequest: ((entry: JournalEntry) => void) | undefined
  onError: (error: unknown) => void
  testHooks: TestHooks
}

/**
 * The `/v1` API: every request goes through the same steps, in this order,
 * and the first that fails answers (docs/reference/api.md, "How a request is handled"):
 *
 * 1. authentication, 2. rate limit, 3. route, 4. body size,
 * 5. fault injection, 6. validation, 7. the operation, under the world's lock.
 *
 * Every request, whatever its outcome, is journaled.
 */
export class ApiPipeline {
  readonly #routes = new RouteTable<OperationId>()
  readonly #handlers = new Map<OperationId, OperationHandler<OperationId>>()
  /** Validated queries by operation and raw query string (validation is a pure function of them). */
  readonly #queries = new Map<string, unknown>()
  /** GET handlers run at once when the lock is free (not when a test hook wraps them: it may await). */
  readonly #syncReads: boolean

  constructor(
    private readonly host: ApiHost,
    private readonly options: ApiPipelineOptions,
  ) {
    const wrap = options.testHooks.wrapOperation
    this.#syncReads = wrap === undefined
    for (const [id, spec] of Object.entries(operations) as Array<[OperationId, OperationSpec]>) {
      const handler = defaultHandlers[id] as OperationHandler<OperationId> | undefined
      if (handler === undefined) continue
      this.#routes.add(spec.method, `/v1${spec.path}`, id)
      this.#handlers.set(id, wrap === undefined ? handler : wrap(id, handler))
    }
  }

  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const { host, options } = this
    const started = performance.now()
    const requestId = host.journal.nextId()
    const time = host.clock.now()
    let principal: Principal | undefined
    let operationId: OperationId | undefined
    /** Whether the request got past step 3 (what the test hooks call its operation). */
    let routed = false
    let headers: Record<string, string> = {}
    let response: EmulatorResponse
    // The route is looked up first (a pure lookup: nothing is counted or
    // answered yet), so a 401 or a 429 is journaled with its operation.
    const match = this.#routes.match(request.method, request.path)
    if (match.kind === 'route') operationId = match.data
    try {
      // 1. Authentication
      principal = this.#authenticate(request.headers.authorization)

      // 2. Rate limit
      const rateHook = options.testHooks.rateLimit
      const decision =
        rateHook === undefined
          ? host.rateLimiter.hit(principal.user.id)
          : rateHook(principal, (bucket) => host.rateLimiter.hit(bucket), host.env)
      headers = decision.headers
      if (!decision.allowed) {
        throw fail.rateLimited(`at most ${host.rateLimiter.limit} requests per minute per user; ${host.rateLimiter.retryHint()}`, {})
      }

      // 3. Route
      if (match.kind === 'none') throw fail.notFound('Route', `no operation at ${request.method} ${request.path}`)
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      routed = true
      const spec: OperationSpec = operations[match.data]
      const transformRequest = options.testHooks.transformRequest
      if (transformRequest !== undefined) {
        request = transformRequest({ request, operationId: match.data, principal, world: host.world, env: host.env })
      }

      // 4. Body size
      if (request.bodyTooLarge || (request.body !== null && request.body.byteLength > MAX_BODY_BYTES)) {
        throw fail.payloadTooLarge(MAX_BODY_BYTES)
      }

      // 5. Fault injection
      const fault = host.faults.take(match.data, { value: principal.key.key, id: principal.key.id })
      if (fault !== undefined) {
        if (fault.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
        if (fault.error !== undefined) {
          // An injected 429 looks like a real one: rate-limit headers with nothing remaining.
          if (fault.error.status === 429) headers = { ...headers, ...host.rateLimiter.refusal() }
          if (fault.retryAfter !== undefined) headers = { ...headers, 'retry-after': String(fault.retryAfter) }
          throw fault.error
        }
      }

      // 6. Validation
      const params = decodeParams(match.params)
      const query = spec.query === undefined ? undefined : this.#query(match.data, spec.query, request.query)
      const body = spec.body === undefined ? undefined : parseInput(spec.body, readJsonBody(request, spec.bodyRequired === true))

      // 7. The operation, under the lock. A read (GET) when the lock is free
      // and no job is due runs at once: it is synchronous, so nothing can
      // interleave with it, exactly as under the lock, without queueing.
      const handler = this.#handlers.get(match.data)!
      const authorization = request.headers.authorization
      const result =
        spec.method === 'GET' && this.#syncReads && host.quiet
          ? handler({ world: host.world, env: host.env, principal, params, query, body } as never)
          : await host.exclusive(async () => {
              // Authenticate again inside the lock: a key revoked (or a world
              // replaced) while this request waited is honoured at once.
              const current = this.#authenticate(authorization)
              principal = current
              await host.settleDueJobs()
              return handler({ world: host.world, env: host.env, principal: current, params, query, body } as never)
            })
      if (result instanceof Promise) throw new Error(`${operationId}: a GET handler must answer synchronously`)
      if (options.validateResponses) {
        const check = safeParse(spec.response, result)
        if (!check.success) {
          throw fail.internal(`response of ${match.data} does not match its schema: ${describeIssues(check.error.issues)}`)
        }
      }
      response = jsonResponse(200, result, headers)
    } catch (error) {
      response = this.#errorResponse(error, headers)
    }
    response.headers['x-request-id'] = requestId
    const transform = options.testHooks.transformResponse
    if (transform !== undefined)
      response = transform(
        { request, operationId: routed ? operationId : undefined, principal, world: host.world, env: host.env },
        response,
      )
    // References only: the journal copies, redacts and decodes when an entry is listed.
    const entry: JournalRecord = {
      id: requestId,
      time,
      method: request.method,
      path: request.path,
      query: request.query,
      operationId: operationId ?? null,
      status: response.status,
      durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      keyId: principal?.key.id ?? null,
      userId: principal?.user.id ?? null,
      requestHeaders: request.headers,
      requestBody: request.body,
      responseHeaders: response.headers,
      responseBody: response.body,
    }
    host.journal.record(entry)
    if (options.onRequest !== undefined) options.onRequest(lazyJournalEntry(entry))
    return response
  }

  /**
   * The operation's query, validated by its zod schema. A client repeats the
   * same few queries (the first page, a filter), so results are kept by raw
   * query string, at most `QUERY_CACHE_SIZE` of them; a query that fails
   * validation is checked again each time.
   */
  #query(operationId: OperationId, schema: z.ZodType, raw: string): unknown {
    const key = `${operationId}?${raw}`
    const cached = this.#queries.get(key)
    if (cached !== undefined) return cached
    const parsed = Object.freeze(parseInput(schema, parseQuery(raw)))
    if (this.#queries.size >= QUERY_CACHE_SIZE) this.#queries.clear()
    this.#queries.set(key, parsed)
    return parsed
  }

  #authenticate(header: string | undefined): Principal {
    const hook = this.options.testHooks.authenticate
    if (hook !== undefined) return hook(header, (h) => this.#standardAuthenticate(h), this.host.world)
    return this.#standardAuthenticate(header)
  }

  #standardAuthenticate(header: string | undefined): Principal {
    const token = bearer(header)
    if (token === undefined) {
      throw fail.unauthorized(
        header === undefined ? 'send the header Authorization: Bearer <API key>' : 'the Authorization header must be "Bearer <API key>"',
      )
    }
    if (!token.startsWith(API_KEY_PREFIX)) {
      throw fail.unauthorized(`API keys start with "${API_KEY_PREFIX}"`)
    }
    const world = this.host.world
    const key = world.apiKeyByValue(token)
    if (key === undefined) throw fail.unauthorized('the API key is not valid')
    if (key.revokedAt !== null) throw fail.unauthorized('the API key has been revoked')
    const user = world.users.get(key.userId)
    const team = world.teams.get(key.teamId)
    if (user === undefined || team === undefined) throw fail.unauthorized('the API key’s owner or team no longer exists')
    return { key, user, team }
  }

  #errorResponse(error: unknown, headers: Record<string, string>): EmulatorResponse {
    if (error instanceof ServiceError) return error.toResponse(headers)
    this.options.onError(error)
    return fail.internal('an unexpected error occurred; see the emulator log').toResponse(headers)
  }
}
