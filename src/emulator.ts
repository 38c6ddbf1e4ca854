import { ApiPipeline, STANDARD_PARTS, type PipelineParts } from './api/pipeline.js'
import { Clock } from './core/clock.js'
import { fail, internalError } from './core/errors.js'
import type { EmulatorRequest, EmulatorResponse } from './core/exchange.js'
import { Faults } from './core/faults.js'
import { Journal } from './core/journal.js'
import { Mutex } from './core/mutex.js'
import { OPEN_CORS, OriginGuard, type BrowserPolicy } from './core/web-guard.js'
import { RateLimiter } from './core/rate-limiter.js'
import { ControlPlane } from './control/control-plane.js'
import { seededWorld } from './fixtures/seeded-world.js'
import { JobScheduler } from './model/job-scheduler.js'
import { Urls } from './model/urls.js'
import { MountTable, type BrowserPolicyName, type Mount, type MountContext, type MountHandler } from './mounts.js'
import { NO_SLIDE_CHECKER, NO_SLIDE_CHECKER_MESSAGE, type SlideChecker } from './model/slide-checker.js'
import { SlideCheckService } from './model/slide-check-service.js'
import { SlideCheckResults } from './model/check-results.js'
import type { Env } from './operations/index.js'
import { resolveOptions, type EmulatorOptions, type ResolvedOptions } from './options.js'
import type { Change } from './store/table.js'
import { StateDocument, type World } from './store/world.js'

export { DEFAULT_BASE_URL, type EmulatorOptions } from './options.js'

/**
 * How an emulator is assembled beyond its options: the `/v1` pipeline's
 * parts (the tests' deliberately broken servers,
 * `test/support/hooked-emulator.ts`), the schema state imports are checked
 * with (the Node entry gives zod's compiled clone), the web room's mounts
 * and the slide checker. The composition root (`buildEmulator`) passes
 * them; internal: no entry exports it, and `Emulator`'s
 * constructor that takes it is left out of the published types; it stays
 * in them only because `create-emulator.d.ts` names it.
 */
export interface EmulatorParts extends Partial<PipelineParts> {
  stateSchema?: () => typeof StateDocument
  /** Rows the composition root adds to the mount table (the web room's pages, assets and dashboard). */
  mounts?: readonly Mount<Emulator>[]
  /** What renders slides for the core (the web room's, in Node); without one, asking for a check says so. */
  slideChecker?: (emulator: Emulator) => SlideChecker
}

/**
 * One independent emulated Presentation Service. This is the composition
 * root: it owns the world and its life cycle (build, install, jobs), the
 * clock, rate limits, faults and journal, and hands each request to the
 * row of the mount table (`mounts.ts`) that serves its path: the `/v1`
 * pipeline (`api/pipeline.ts`), the control plane (`control/dispatch.ts`),
 * the pages (`pages/page-server.ts`), … Those depend on narrow interfaces,
 * which this class implements. A row's handler is loaded when its paths
 * are first requested: no API answer needs the control plane's HTTP side or
 * the pages, and an app or a test that never opens them never loads them.
 */
export class Emulator {
  readonly clock: Clock
  readonly journal: Journal
  readonly faults = new Faults()
  readonly rateLimiter: RateLimiter
  /** Every control-plane action as a typed function. */
  readonly control: ControlPlane
  readonly env: Env
  readonly #options: ResolvedOptions
  readonly #stateSchema: () => typeof StateDocument
  readonly #mutex = new Mutex()
  readonly #jobs: JobScheduler
  readonly #api: ApiPipeline
  /** What this emulator serves, and where: the core's rows and those its composition root added. */
  readonly mounts: MountTable<Emulator>
  /** Renders slides for the core: the composition root's (the web room's in Node), or one that says there is none. */
  readonly slideChecker: SlideChecker
  /** Checks slides through `slideChecker`: one at a time, a bounded queue, a deck's budget (`model/slide-check-service.ts`). */
  readonly slideChecks: SlideCheckService
  /**
   * The last check result of each slide, by what was checked (`model/check-results.ts`): what the editor's
   * and the dashboard's badges show. Every check through `slideChecks` records here; a new world clears it.
   */
  readonly slideCheckResults = new SlideCheckResults()
  /** Each mount's handler, once built (on the first request the mount serves), and those being built. */
  readonly #handlers = new Map<Mount<Emulator>, MountHandler>()
  readonly #loading = new Map<Mount<Emulator>, Promise<MountHandler>>()
  /** The browser policy of each policy name a mount can have. */
  readonly #policies: Record<BrowserPolicyName, BrowserPolicy>
  readonly #changeListeners: Array<(change: Change<unknown> | { table: '*' }) => void> = []
  #world: World | undefined
  readonly #ready: Promise<void>
  #listenOrigin: string | undefined
  /** The base URL's origin, read once (a `URL`'s getters cost more than a field). */
  readonly #baseOrigin: string
  /** Set once the world is built, so requests skip awaiting `#ready`. */
  #loaded = false

  constructor(options?: EmulatorOptions)
  /** @internal An emulator assembled from other parts (see `EmulatorParts`). */
  constructor(options: EmulatorOptions | undefined, parts: EmulatorParts)
  constructor(options: EmulatorOptions = {}, { stateSchema, mounts, slideChecker, ...pipeline }: EmulatorParts = {}) {
    const resolved = resolveOptions(options)
    this.mounts = new MountTable<Emulator>(mounts)
    this.slideChecker = slideChecker?.(this) ?? NO_SLIDE_CHECKER
    if (resolved.checkSlidesOnSave && !this.slideChecker.available) {
      // Refused where it is built, not on every PUT: a checked save this emulator could never answer.
      throw new TypeError(`checkSlidesOnSave cannot be used: ${NO_SLIDE_CHECKER_MESSAGE}`)
    }
    this.slideChecks = new SlideCheckService(this)
    this.#stateSchema = stateSchema ?? (() => StateDocument)
    this.#options = resolved
    this.#baseOrigin = resolved.baseUrl.origin
    this.clock = new Clock(resolved.clock, resolved.clockStart)
    this.journal = new Journal(resolved.journalSize, resolved.journalBytes)
    this.rateLimiter = new RateLimiter(resolved.rateLimit, this.clock)
    this.env = { clock: this.clock, urls: new Urls(() => this.publicUrl), timeScale: resolved.timeScale }
    this.#jobs = new JobScheduler(this.clock, () => {
      this.exclusive(() => this.settleDueJobs()).catch((error: unknown) => resolved.onError(error))
    })
    this.control = new ControlPlane(this)
    this.#api = new ApiPipeline(this, resolved, { ...STANDARD_PARTS, ...pipeline })
    // The base URL's origin is the emulator's own when it was given, or while no
    // server listens (msw and fetch answer there); the default one names no
    // server once listen() picked another address.
    const baseUrlGiven = options.baseUrl !== undefined
    const originGuard = new OriginGuard(resolved.allowedOrigins, () =>
      baseUrlGiven || this.#listenOrigin === undefined
        ? [this.publicUrl, this.#listenOrigin ?? this.publicUrl, resolved.baseUrl.origin]
        : [this.publicUrl, this.#listenOrigin],
    )
    this.#policies = { open: OPEN_CORS, 'own-origins': originGuard }
    this.#ready = this.#mutex.run(async () => this.#install(await seededWorld(resolved.fixtures, resolved.seed)))
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

  /** Host names a server from `listen()` accepts besides loopback names (`allowedHosts`). */
  get allowedHosts(): readonly string[] {
    return this.#options.allowedHosts
  }

  /** The host name of the `publicUrl` option, which a server from `listen()` accepts too. */
  get publicHost(): string | undefined {
    const publicUrl = this.#options.publicUrl
    return publicUrl === undefined ? undefined : new URL(publicUrl).hostname
  }

  /** Whether `PUT …/slides/{slideId}` renders the slide before saving it (`checkSlidesOnSave`). */
  get checkSlidesOnSave(): boolean {
    return this.#options.checkSlidesOnSave
  }

  /** The Chromium the slide checker uses for pictures and layout findings (`chromiumPath`), when the options name one. */
  get chromiumPath(): string | undefined {
    return this.#options.chromiumPath
  }

  /** Whether pages load remote images (`allowRemoteImages`). */
  get allowRemoteImages(): boolean {
    return this.#options.allowRemoteImages
  }

  /** The URLs handed out in responses. */
  get urls(): Urls {
    return this.env.urls
  }

  /** The origin of `editorUrl` / `publishedUrl`. */
  get publicUrl(): string {
    return this.#options.publicUrl ?? this.#listenOrigin ?? this.#baseOrigin
  }

  /**
   * Where this emulator's API answers, ending in `/v1`: the public URL (the
   * listening origin by default) once a server listens, else the base URL
   * the msw handlers and `fetch` answer. The served OpenAPI document names it.
   */
  get apiUrl(): string {
    if (this.#listenOrigin !== undefined) return `${this.publicUrl}/v1`
    return this.#options.baseUrl.href.replace(/\/+$/, '')
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

  /** How many `onChange` listeners are subscribed (each open live page holds one while it is connected). */
  get changeListenerCount(): number {
    return this.#changeListeners.length
  }

  /** Runs `task` with exclusive access to the world. */
  exclusive<T>(task: () => Promise<T> | T): Promise<T> {
    return this.#mutex.run(async () => {
      await this.#ready
      return task()
    })
  }

  /**
   * True when a synchronous read may run at once instead of queueing for the
   * lock: the world is loaded, nothing holds or awaits the lock, and no job
   * is due (so there is nothing to settle first).
   */
  get quiet(): boolean {
    return this.#loaded && this.#mutex.idle && !this.#jobs.hasDue()
  }

  /** The schema state documents are validated with. */
  stateSchema(): typeof StateDocument {
    return this.#stateSchema()
  }

  /** Replaces the world (reset, state import). Call inside `exclusive`. */
  install(world: World): void {
    this.#install(world)
  }

  /** Builds the seeded world of the fixtures again. */
  buildSeededWorld(): Promise<World> {
    return seededWorld(this.#options.fixtures, this.#options.seed)
  }

  #install(world: World): void {
    this.#world = world
    this.#loaded = true
    this.#jobs.attach(world)
    // Results of the last world's slides are not this world's (a reset, a state import).
    this.slideCheckResults.clear()
    world.onChange((change) => {
      if (this.#world !== world) return
      this.slideCheckResults.observe(change)
      for (const listener of this.#changeListeners) listener(change)
    })
    for (const listener of this.#changeListeners) listener({ table: '*' })
  }

  /**
   * Finishes every processing job whose time has come, each at its due
   * instant, in due order. Runs before every operation and after the clock
   * moves, so a job completes whether or not anyone polls it. Call inside
   * `exclusive`.
   */
  settleDueJobs(): Promise<void> {
    return this.#jobs.settle()
  }

  /** Finishes a processing job now with `outcome`. Call inside `exclusive`. */
  finishJob(jobId: string, outcome: 'completed' | 'failed', error?: string) {
    return this.#jobs.finish(jobId, outcome, error)
  }

  /** Stops the job timer (the emulator answers no more job completions on its own) and ends journal waits. */
  close(): void {
    this.#jobs.close()
    this.journal.cancelWaits()
  }

  /** The whole service: answers one request. Never throws. */
  async handle(request: EmulatorRequest): Promise<EmulatorResponse> {
    try {
      return await this.#dispatch(request)
    } catch (error) {
      // The API and the control plane answer their own errors; this catches the rest (pages), never a bare 500.
      return internalError(error, this.#options.onError)
    }
  }

  /** Builds the handler of `mount` (loading its module) for its first request; a module that fails to load is tried again next time. */
  #load(mount: Mount<Emulator>): Promise<MountHandler> {
    let loading = this.#loading.get(mount)
    if (loading === undefined) {
      const context: MountContext<Emulator> = { host: this, api: this.#api, onError: this.#options.onError }
      loading = Promise.resolve(mount.open(context)).then(
        (handler) => {
          this.#handlers.set(mount, handler)
          return handler
        },
        (error: unknown) => {
          this.#loading.delete(mount)
          throw error
        },
      )
      this.#loading.set(mount, loading)
    }
    return loading
  }

  /** A request value with its row, and its body checked against the row's limit. */
  #resolve(request: EmulatorRequest): EmulatorRequest {
    const resolved = this.mounts.resolve(request.method, request.path)
    const bodyTooLarge =
      request.bodyTooLarge === true || (request.body !== null && request.body.byteLength > this.mounts.bodyLimitOf(resolved))
    return { ...request, resolved, bodyTooLarge }
  }

  async #dispatch(request: EmulatorRequest): Promise<EmulatorResponse> {
    if (!this.#loaded) {
      try {
        await this.#ready
      } catch (error) {
        return fail.internal(`the emulator could not load its world: ${(error as Error).message}`).toResponse()
      }
    }
    // The way in resolved the request (and checked its body) against this table; a request handed to
    // `handle()` as a value is resolved and checked here. Either way, once.
    if (request.resolved?.table !== this.mounts) request = this.#resolve(request)
    const mount = request.resolved!.mount as Mount<Emulator>
    const policy = this.#policies[mount.browsers]
    const response =
      request.method === 'OPTIONS'
        ? policy.preflight(request)
        : (policy.refusal(request) ?? (await (this.#handlers.get(mount) ?? (await this.#load(mount)))(request)))
    Object.assign(response.headers, policy.corsHeaders(request))
    return request.method === 'HEAD' ? headOf(response) : response
  }
}

/**
 * The answer to a HEAD: what the GET would answer, with its headers
 * (`Content-Length` the GET body's length) and no body (RFC 9110 §9.3.2,
 * §8.6). Every row answers HEAD as its GET; this is the one place the body
 * goes, so no adapter or row can send one. A stream is never started.
 */
function headOf(response: EmulatorResponse): EmulatorResponse {
  const { body } = response
  if (response.stream === undefined && body !== null) {
    response.headers['content-length'] = String(new TextEncoder().encode(body).byteLength)
  }
  return { status: response.status, headers: response.headers, body: null }
}
