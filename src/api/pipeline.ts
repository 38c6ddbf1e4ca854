import type { Clock } from '../core/clock.js'
import { errorResponse, fail } from '../core/errors.js'
import { jsonResponse, MAX_BODY_BYTES, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import type { Faults } from '../core/faults.js'
import { decodeParams, parseQuery, readJsonBody } from '../core/http-input.js'
import { lazyJournalEntry, type Journal, type JournalEntry, type JournalRecord } from '../core/journal.js'
import type { RateDecision, RateLimiter } from '../core/rate-limiter.js'
import { RouteTable } from '../core/router.js'
import { describeIssues, parseInput, safeParse } from '../core/validation.js'
import type { Principal } from '../model/access.js'
import { Serialized } from '../core/serialized.js'
import { handlers as standardHandlers, type Env, type OperationHandler, type OperationHandlers } from '../operations/index.js'
import { operations, type OperationId, type OperationSpec } from '../schemas/index.js'
import type { World } from '../store/world.js'
import type * as z from 'zod'
import { authenticateKey } from './authenticate.js'
import { CHECKED_SAVE_ATTEMPTS, type CheckedSave, checkSave, contended } from '../operations/checked-save.js'
import type { SlideCheckService } from '../model/slide-check-service.js'

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
  /** Checks slides through the slide-checker port (checked saving). */
  readonly slideChecks: SlideCheckService
  /** Whether `PUT …/slides/{slideId}` renders the slide before saving it (`checkSlidesOnSave`). */
  readonly checkSlidesOnSave: boolean
}

/** What an operation answers under the lock when a checked save found its slide changed since its check. */
const STALE = Symbol('stale')

/** How many validated queries the pipeline keeps. */
const QUERY_CACHE_SIZE = 256

export interface ApiPipelineOptions {
  validateResponses: boolean
  onRequest: ((entry: JournalEntry) => void) | undefined
  onError: (error: unknown) => void
}

/** Who a request's `Authorization` header names (a 401 `ServiceError` when nobody). */
export type Authenticate = (header: string | undefined, world: World) => Principal
/** Counts an authenticated request against the rate limit. */
export type RatePolicy = (principal: Principal, limiter: RateLimiter, env: Env) => RateDecision

/** What the pipeline is assembled from: the operations' handlers, authentication and the rate policy. */
export interface PipelineParts {
  handlers: OperationHandlers
  authenticate: Authenticate
  rateLimit: RatePolicy
}

/** The service as the spec describes it: every operation's handler, API keys, one fixed window per user. */
export const STANDARD_PARTS: PipelineParts = {
  handlers: standardHandlers,
  authenticate: authenticateKey,
  rateLimit: (principal, limiter) => limiter.hit(principal.user.id),
}

/**
 * The `/v1` API: every request goes through the same steps, in this order,
 * and the first that fails answers (docs/reference/api.md, "How a request is handled"):
 *
 * 1. authentication, 2. rate limit, 3. route, 4. body size,
 * 5. fault injection, 6. validation, 7. the operation, under the world's lock,
 * as one transaction (all of its writes, or none).
 *
 * Every request, whatever its outcome, is journaled.
 */
export class ApiPipeline {
  readonly #routes = new RouteTable<OperationId>()
  readonly #handlers: OperationHandlers
  readonly #authenticate: Authenticate
  readonly #rateLimit: RatePolicy
  /** Validated queries by operation and raw query string (validation is a pure function of them). */
  readonly #queries = new Map<string, unknown>()
  /**
   * GET handlers run at once when the lock is free. The standard ones answer
   * synchronously; other handlers (assembled elsewhere) may await, so they
   * always run under the lock.
   */
  readonly #syncReads: boolean

  constructor(
    private readonly host: ApiHost,
    private readonly options: ApiPipelineOptions,
    parts: PipelineParts = STANDARD_PARTS,
  ) {
    this.#handlers = parts.handlers
    this.#authenticate = parts.authenticate
    this.#rateLimit = parts.rateLimit
    this.#syncReads = parts.handlers === standardHandlers
    for (const [id, spec] of Object.entries(operations) as Array<[OperationId, OperationSpec]>) {
      this.#routes.add(spec.method, `/v1${spec.path}`, id)
    }
  }

  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    const { host, options } = this
    const started = performance.now()
    const requestId = host.journal.nextId()
    const time = host.clock.now()
    const realTime = Date.now()
    let principal: Principal | undefined
    let operationId: OperationId | undefined
    let headers: Record<string, string> = {}
    let response: EmulatorResponse
    // The route is looked up first (a pure lookup: nothing is counted or
    // answered yet), so a 401 or a 429 is journaled with its operation.
    const match = this.#routes.match(request.method, request.path)
    if (match.kind === 'route') operationId = match.data
    try {
      // 1. Authentication
      principal = this.#authenticate(request.headers.authorization, host.world)

      // 2. Rate limit
      const decision = this.#rateLimit(principal, host.rateLimiter, host.env)
      headers = decision.headers
      if (!decision.allowed) {
        throw fail.rateLimited(`at most ${host.rateLimiter.limit} requests per minute per user; ${host.rateLimiter.retryHint()}`, {})
      }

      // 3. Route
      // A HEAD is its GET (the same answer, the body dropped later), so its hint names GET: the two Content-Lengths agree.
      if (match.kind === 'none') {
        throw fail.notFound('Route', `no operation at ${request.method === 'HEAD' ? 'GET' : request.method} ${request.path}`)
      }
      if (match.kind === 'wrong-method') throw fail.methodNotAllowed(match.allow)
      const spec: OperationSpec = operations[match.data]

      // 4. Body size
      // Checked once, where the request was read (or by the emulator for a request value): the row's limit is MAX_BODY_BYTES.
      if (request.bodyTooLarge) throw fail.payloadTooLarge(MAX_BODY_BYTES)

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
      const handler = this.#handlers[match.data] as OperationHandler<OperationId>
      const authorization = request.headers.authorization
      // Checked saving: the slide is rendered as it would be stored, without the lock, before the save
      // (operations/checked-save.ts); under the lock the save goes ahead only if that is still what it
      // would store, else the new snapshot is checked (a concurrent write changed the slide or config).
      const checked = match.data === 'updateSlide' && host.checkSlidesOnSave
      let answer: ReturnType<OperationHandler<OperationId>> | typeof STALE = STALE
      for (let attempt = 0; answer === STALE; attempt++) {
        if (attempt === CHECKED_SAVE_ATTEMPTS) throw contended()
        const save: CheckedSave | undefined = checked
          ? await checkSave(host, principal, params as { slug: string; slideId: string }, (body as { files: never }).files)
          : undefined
        answer =
          spec.method === 'GET' && this.#syncReads && host.quiet
            ? handler({ world: host.world, env: host.env, principal, params, query, body } as never)
            : await host.exclusive(async () => {
                // Authenticate again inside the lock: a key revoked (or a world
                // replaced) while this request waited is honoured at once.
                const current = this.#authenticate(authorization, host.world)
                principal = current
                await host.settleDueJobs()
                // All or nothing: an operation that fails half-way leaves the world as it was, and tells nobody.
                const world = host.world
                if (save !== undefined && !save.stillAsChecked(world)) return STALE
                return world.transaction(() => handler({ world, env: host.env, principal: current, params, query, body } as never))
              })
      }
      if (answer instanceof Promise) throw new Error(`${operationId}: a GET handler must answer synchronously`)
      // A value composed from cached parts comes with its JSON text (model/response-cache.ts).
      const [result, text] = answer instanceof Serialized ? [answer.value, answer.text] : [answer, undefined]
      if (options.validateResponses) {
        const check = safeParse(spec.response, result)
        if (!check.success) {
          throw fail.internal(`response of ${match.data} does not match its schema: ${describeIssues(check.error.issues)}`)
        }
        if (text !== undefined && text !== JSON.stringify(result)) {
          throw fail.internal(`response of ${match.data}: the cached JSON text is not the serialisation of the validated value`)
        }
      }
      response = jsonResponse(200, result, headers, text)
    } catch (error) {
      response = errorResponse(error, options.onError, headers)
    }
    response.headers['x-request-id'] = requestId
    // References only: the journal copies, redacts and decodes when an entry is listed.
    const entry: JournalRecord = {
      id: requestId,
      time,
      realTime,
      clientGone: request.clientGone?.() === true,
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
}
