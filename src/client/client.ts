import { routes, type OperationId } from '../schemas/operation-routes.js'
import { JobTimeoutError, retryAfterSeconds, serviceApiError, ServiceApiError } from './errors.js'
import type {
  BodyInput,
  CreateProjectInput,
  CreateSlideInput,
  GenerateProjectInput,
  JobStatus,
  ListProjectsQuery,
  ListTemplatesQuery,
  OperationInput,
  Output,
  RenameProjectInput,
  StartSlideEditingInput,
  UpdateProjectConfigInput,
  UpdateSlideInput,
} from './types.js'

/** When and how long to retry a failed call. */
export interface RetryOptions {
  /** Retries after the first attempt. Default 3. */
  retries?: number
  /** Cap on the total time spent waiting between attempts, in ms. Default 30 000. */
  maxWaitMs?: number
  /** Wait before the first retry when the response has no `Retry-After`, doubled each time. Default 250 ms. */
  baseDelayMs?: number
  /**
   * Statuses to retry. Default: 429 for every method (the server did not run
   * the request), and 500, 502, 503 and 504 for GET, PUT and DELETE only
   * (retrying a POST or PATCH that failed halfway could run it twice).
   */
  statuses?: readonly number[]
}

export interface ClientOptions {
  /** The API base URL, ending in the version segment: `https://api.example.com/v1`. */
  baseUrl: string
  /** The API key sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string
  /** The fetch to use (default: the global one). `emulator.fetch` works. */
  fetch?: typeof fetch
  /** Extra headers on every request. */
  headers?: Record<string, string>
  /** Retry on 429 and 5xx, honouring `Retry-After`. Off by default. */
  retry?: RetryOptions | boolean
  /** How the client waits between retries and polls (default: `setTimeout`). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>
}

/** Per-call options. */
export interface CallOptions {
  /** Another API key for this call. */
  apiKey?: string
  /** Extra headers for this call. */
  headers?: Record<string, string>
  signal?: AbortSignal
}

/**
 * A request as plain data: an operation with its inputs, or any method and
 * path (for requests no operation describes). Bodies the types would refuse
 * can be sent: `body` is JSON-encoded as given, `bodyText` is sent verbatim.
 */
export interface RawRequest {
  operationId?: OperationId
  /** Required without `operationId`; overrides the operation's method otherwise. */
  method?: string
  /** A path relative to the base URL (`/projects/x`), instead of the operation's. */
  path?: string
  params?: Record<string, string>
  /** Query parameters (undefined values are left out), or a raw query string without `?`. */
  query?: Record<string, string | number | boolean | undefined> | string
  /** A JSON body, encoded with `JSON.stringify`. */
  body?: unknown
  /** A body sent byte for byte (takes precedence over `body`). */
  bodyText?: string
  /** Headers; `null` removes one the client would send (`content-type`, for example). */
  headers?: Record<string, string | null>
  /** The API key (default: the client's); `null` sends no `Authorization` header. */
  apiKey?: string | null
  /** An `Authorization` header value sent verbatim (a malformed one, for example). */
  authorization?: string
  signal?: AbortSignal
}

/** A request as it was sent. */
export interface SentRequest {
  method: string
  url: string
  headers: Record<string, string>
  body: string | undefined
}

/** A raw exchange: the request as sent and the response as received (body unread). */
export interface RawExchange {
  request: SentRequest
  response: Response
  /** Milliseconds from sending to the response headers. */
  durationMs: number
}

export interface WaitForJobOptions extends CallOptions {
  /** Give up after this long (ms). Default 10 minutes. */
  timeoutMs?: number
  /** First wait between polls (ms). Default 1 000. */
  intervalMs?: number
  /** Longest wait between polls (ms). Default 15 000. */
  maxIntervalMs?: number
  /** Growth of the wait after each poll. Default 1.5. */
  factor?: number
  /** Called with every status read. */
  onPoll?: (job: JobStatus) => void
}

/** The typed client of the Presentation Service API: one method per operation. */
export interface PresentationClient {
  generateProject(body: GenerateProjectInput, options?: CallOptions): Promise<Output<'generateProject'>>
  getJobStatus(jobId: string, options?: CallOptions): Promise<Output<'getJobStatus'>>
  createProject(body?: CreateProjectInput, options?: CallOptions): Promise<Output<'createProject'>>
  listProjects(query?: ListProjectsQuery, options?: CallOptions): Promise<Output<'listProjects'>>
  listTemplates(query?: ListTemplatesQuery, options?: CallOptions): Promise<Output<'listTemplates'>>
  getProject(slug: string, options?: CallOptions): Promise<Output<'getProject'>>
  renameProject(slug: string, body: RenameProjectInput, options?: CallOptions): Promise<Output<'renameProject'>>
  getProjectConfig(slug: string, options?: CallOptions): Promise<Output<'getProjectConfig'>>
  updateProjectConfig(slug: string, body: UpdateProjectConfigInput, options?: CallOptions): Promise<Output<'updateProjectConfig'>>
  duplicateProject(slug: string, options?: CallOptions): Promise<Output<'duplicateProject'>>
  publishProject(slug: string, options?: CallOptions): Promise<Output<'publishProject'>>
  unpublishProject(slug: string, options?: CallOptions): Promise<Output<'unpublishProject'>>
  getProjectUrl(slug: string, options?: CallOptions): Promise<Output<'getProjectUrl'>>
  listTeams(options?: CallOptions): Promise<Output<'listTeams'>>
  listSlides(slug: string, options?: CallOptions): Promise<Output<'listSlides'>>
  /** Emulator extension: the spec refers to a create-slides operation without showing it. */
  createSlide(slug: string, body?: CreateSlideInput, options?: CallOptions): Promise<Output<'createSlide'>>
  /** Emulator extension: the spec refers to a slide guide without showing it. */
  getSlideGuide(slug: string, options?: CallOptions): Promise<Output<'getSlideGuide'>>
  /** Emulator extension: a slide's three files, in the shape `updateSlide` takes them. */
  getSlideFiles(slug: string, slideId: string, options?: CallOptions): Promise<Output<'getSlideFiles'>>
  updateSlide(slug: string, slideId: string, body: UpdateSlideInput, options?: CallOptions): Promise<Output<'updateSlide'>>
  startSlideEditing(
    slug: string,
    slideId: string,
    body?: StartSlideEditingInput,
    options?: CallOptions,
  ): Promise<Output<'startSlideEditing'>>
  stopSlideEditing(slug: string, slideId: string, options?: CallOptions): Promise<Output<'stopSlideEditing'>>

  /** Any operation by id, its inputs as plain data. */
  call<Id extends OperationId>(operationId: Id, input: OperationInput<Id>, options?: CallOptions): Promise<Output<Id>>
  /** Polls a job with backoff until it is no longer `processing`; throws `JobTimeoutError` after `timeoutMs`. */
  waitForJob(jobId: string, options?: WaitForJobOptions): Promise<JobStatus>
  /**
   * Sends a request as given and returns the response as received: no
   * validation, no retry, no error thrown for an error status.
   */
  raw(request: RawRequest): Promise<RawExchange>
  /** The base URL calls go to. */
  readonly baseUrl: string
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'])
const SERVER_ERRORS = [500, 502, 503, 504]

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })

/** Fills the `{param}` placeholders of a path, percent-encoding each value. */
export function fillPath(path: string, params: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new TypeError(`missing path parameter "${name}" for ${path}`)
    return encodeURIComponent(value)
  })
}

function queryString(query: RawRequest['query']): string {
  if (query === undefined) return ''
  if (typeof query === 'string') return query === '' ? '' : `?${query.replace(/^\?/, '')}`
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) if (value !== undefined) search.append(key, String(value))
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/**
 * Creates a client. It runs on `fetch` (the global one, or yours:
 * `emulator.fetch` answers without a socket) and has no runtime dependency.
 *
 * @example
 * const client = createClient({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: 'pres_test_alice' })
 * const { projects } = await client.listProjects({ limit: 5 })
 */
export function createClient(options: ClientOptions): PresentationClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '')
  const sleep = options.sleep ?? defaultSleep
  const retry: (Required<Omit<RetryOptions, 'statuses'>> & { statuses: readonly number[] | undefined }) | undefined =
    options.retry === undefined || options.retry === false
      ? undefined
      : {
          retries: 3,
          maxWaitMs: 30_000,
          baseDelayMs: 250,
          ...(options.retry === true ? {} : options.retry),
          statuses: options.retry === true ? undefined : options.retry.statuses,
        }

  async function raw(request: RawRequest): Promise<RawExchange> {
    const route = request.operationId === undefined ? undefined : routes[request.operationId]
    const method = (request.method ?? route?.method)?.toUpperCase()
    if (method === undefined) throw new TypeError('raw(): give an operationId or a method')
    const path = request.path ?? (route === undefined ? undefined : fillPath(route.path, request.params))
    if (path === undefined) throw new TypeError('raw(): give an operationId or a path')
    const url = `${baseUrl}${path}${queryString(request.query)}`
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers }
    const key = request.apiKey === undefined ? options.apiKey : request.apiKey
    if (request.authorization !== undefined) headers.authorization = request.authorization
    else if (key !== null && key !== undefined) headers.authorization = `Bearer ${key}`
    let body: string | undefined
    if (request.bodyText !== undefined) body = request.bodyText
    else if (request.body !== undefined) body = JSON.stringify(request.body)
    if (body !== undefined) headers['content-type'] = 'application/json'
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase()
      if (value === null) delete headers[lower]
      else headers[lower] = value
    }
    const init: RequestInit = { method, headers }
    if (body !== undefined) init.body = body
    if (request.signal !== undefined) init.signal = request.signal
    const started = performance.now()
    const response = await (options.fetch ?? globalThis.fetch)(url, init)
    return { request: { method, url, headers, body }, response, durationMs: performance.now() - started }
  }

  function retryable(status: number, method: string): boolean {
    if (retry === undefined) return false
    if (retry.statuses !== undefined) return retry.statuses.includes(status)
    return status === 429 || (SERVER_ERRORS.includes(status) && IDEMPOTENT.has(method))
  }

  async function call<Id extends OperationId>(
    operationId: Id,
    input: OperationInput<Id>,
    callOptions: CallOptions = {},
  ): Promise<Output<Id>> {
    const request: RawRequest = {
      operationId,
      params: input.params as Record<string, string> | undefined,
      query: input.query as RawRequest['query'],
      body: input.body,
    }
    if (callOptions.apiKey !== undefined) request.apiKey = callOptions.apiKey
    if (callOptions.headers !== undefined) request.headers = callOptions.headers
    if (callOptions.signal !== undefined) request.signal = callOptions.signal
    let waited = 0
    for (let attempt = 0; ; attempt++) {
      const { response, request: sent } = await raw(request)
      const text = await response.text()
      if (response.ok) return (text === '' ? undefined : JSON.parse(text)) as Output<Id>
      const error = serviceApiError(operationId, response, text)
      if (retry === undefined || attempt >= retry.retries || !retryable(response.status, sent.method)) throw error
      const after = retryAfterSeconds(response.headers.get('retry-after'))
      const delay = after !== undefined ? after * 1000 : retry.baseDelayMs * 2 ** attempt
      if (waited + delay > retry.maxWaitMs) throw error
      waited += delay
      await sleep(delay, callOptions.signal)
    }
  }

  const client: PresentationClient = {
    baseUrl,
    generateProject: (body, o) => call('generateProject', { body }, o),
    getJobStatus: (jobId, o) => call('getJobStatus', { params: { jobId } }, o),
    createProject: (body, o) => call('createProject', { body }, o),
    listProjects: (query, o) => call('listProjects', { query }, o),
    listTemplates: (query, o) => call('listTemplates', { query }, o),
    getProject: (slug, o) => call('getProject', { params: { slug } }, o),
    renameProject: (slug, body, o) => call('renameProject', { params: { slug }, body }, o),
    getProjectConfig: (slug, o) => call('getProjectConfig', { params: { slug } }, o),
    updateProjectConfig: (slug, body, o) => call('updateProjectConfig', { params: { slug }, body }, o),
    duplicateProject: (slug, o) => call('duplicateProject', { params: { slug } }, o),
    publishProject: (slug, o) => call('publishProject', { params: { slug } }, o),
    unpublishProject: (slug, o) => call('unpublishProject', { params: { slug } }, o),
    getProjectUrl: (slug, o) => call('getProjectUrl', { params: { slug } }, o),
    listTeams: (o) => call('listTeams', {}, o),
    listSlides: (slug, o) => call('listSlides', { params: { slug } }, o),
    createSlide: (slug, body, o) => call('createSlide', { params: { slug }, body: body as BodyInput<'createSlide'> }, o),
    getSlideGuide: (slug, o) => call('getSlideGuide', { params: { slug } }, o),
    getSlideFiles: (slug, slideId, o) => call('getSlideFiles', { params: { slug, slideId } }, o),
    updateSlide: (slug, slideId, body, o) => call('updateSlide', { params: { slug, slideId }, body }, o),
    startSlideEditing: (slug, slideId, body, o) => call('startSlideEditing', { params: { slug, slideId }, body }, o),
    stopSlideEditing: (slug, slideId, o) => call('stopSlideEditing', { params: { slug, slideId } }, o),
    call,
    raw,
    async waitForJob(jobId, waitOptions = {}) {
      const { timeoutMs = 600_000, intervalMs = 1_000, maxIntervalMs = 15_000, factor = 1.5, onPoll, ...callOptions } = waitOptions
      const started = Date.now()
      let interval = intervalMs
      for (;;) {
        let job: JobStatus | undefined
        let wait = interval
        try {
          job = await call('getJobStatus', { params: { jobId } }, callOptions)
        } catch (error) {
          // A 429 while polling is a reason to wait, not to give up.
          if (!(error instanceof ServiceApiError) || error.status !== 429) throw error
          wait = Math.max(interval, (error.rateLimit.retryAfterSeconds ?? 1) * 1000)
        }
        if (job !== undefined) {
          onPoll?.(job)
          if (job.status !== 'processing') return job
        }
        const elapsed = Date.now() - started
        if (elapsed + wait > timeoutMs) throw new JobTimeoutError(jobId, elapsed, job?.status ?? 'unknown')
        await sleep(wait, callOptions.signal)
        interval = Math.min(maxIntervalMs, interval * factor)
      }
    },
  }
  return client
}

/**
 * Every page of a cursor-paginated list, following `nextCursor` until it is
 * absent. Throws if the server hands out the same cursor twice (a loop).
 *
 * @example
 * for await (const page of paginate(client.listProjects, { published: true, limit: 100 })) {
 *   for (const project of page.projects) console.log(project.slug)
 * }
 */
// biome-ignore lint/suspicious/noExplicitAny: any list method's query fits; the item type comes from its result
export async function* paginate<F extends (query: any, options?: CallOptions) => Promise<{ nextCursor?: string | undefined }>>(
  list: F,
  query?: NonNullable<Parameters<F>[0]>,
  options?: CallOptions,
): AsyncGenerator<Awaited<ReturnType<F>>, void, undefined> {
  const seen = new Set<string>()
  let cursor: string | undefined = (query as { cursor?: string } | undefined)?.cursor
  for (;;) {
    const page = (await list(cursor === undefined ? (query ?? {}) : { ...query, cursor }, options)) as Awaited<ReturnType<F>>
    yield page
    if (page.nextCursor === undefined) return
    if (seen.has(page.nextCursor)) throw new Error(`the server returned the cursor "${page.nextCursor}" twice; stopping to avoid a loop`)
    seen.add(page.nextCursor)
    cursor = page.nextCursor
  }
}
