import { fail } from '../core/errors.js'
import { MAX_JSON_DEPTH, valueDepthExceeded } from '../core/json-depth.js'
import type { JournalEntry } from '../core/journal.js'
import { describeIssues, parseInput, safeParse } from '../core/validation.js'
import { loadFaker, seedFrom } from '../content/random.js'
import type { Clock } from '../core/clock.js'
import type { Faults } from '../core/faults.js'
import { credentialFingerprint, Journal } from '../core/journal.js'
import { type ClientReport, clientReport } from '../model/client-report/index.js'
import type { RateLimiter } from '../core/rate-limiter.js'
import type { Urls } from '../model/urls.js'
import { jobStatusView } from '../model/generation.js'
import { createTemplate } from '../model/templates.js'
import { queueFull, SlideCheckQueueFullError, type SlideCheckService } from '../model/slide-check-service.js'
import type { CheckSlidesOptions, DeckCheckResult, DeckPictures, SlidePictureRequestOptions } from '../model/slide-checks.js'
import type { JobStatusResponse } from '../schemas/index.js'
import { slugify, hashToken } from '../store/ids.js'
import { integrityProblems } from '../store/integrity.js'
import type { JobRecord, TeamRecord } from '../store/records.js'
import { STATE_FORMAT, type StateDocument, TABLE_NAMES, World, withStateDefaults } from '../store/world.js'
import { VERSION } from '../version.js'
import { journalHar } from './har.js'
import type { Har } from '../schemas/har.js'
import {
  AddCollaboratorRequest,
  AdvanceClockRequest,
  AddFaultRequest,
  ClientReportQuery,
  type ClientReportMarkResponse,
  CreateAccountRequest,
  CreateKeyRequest,
  CreateTeamRequest,
  CreateTemplateRequest,
  FailJobRequest,
  ListRequestsQuery,
  SetCreditsRequest,
  WaitForRequestQuery,
  type AddCollaboratorResponse,
  type AddFaultResponse,
  type AdvanceClockResponse,
  type ClockResponse,
  type CreateAccountResponse,
  type CreateKeyResponse,
  type CreateTeamResponse,
  type CreateTemplateResponse,
  type HealthResponse,
  type KeyResponse,
  type ListFaultsResponse,
  type ListRequestsResponse,
  type SetCreditsResponse,
} from './schemas.js'

/** Credits of a team created by `createAccount` when none are given. */
export const DEFAULT_ACCOUNT_CREDITS = 10

/** How long `waitForRequest` waits when no `timeoutMs` is given: less than a test runner's usual 5 s, so its own message shows. */
export const DEFAULT_WAIT_MS = 2_000

/** Which journal entries to list or wait for (in-process: numbers and dates are welcome). */
export interface RequestFilter {
  operationId?: string
  /** An exact status (`429`) or a class (`'4xx'`). */
  status?: number | string
  keyId?: string
  /** At or after this instant on the emulator clock (ISO 8601, epoch ms or a Date). */
  since?: string | number | Date
  /** At or before this instant. */
  until?: string | number | Date
  /** Only requests recorded after the one with this id (`req_<n>`). */
  after?: string
}

/** A journal listing: a filter, at most `limit` entries, bodies cut after `bodyLimit` bytes. */
export interface RequestQuery extends RequestFilter {
  limit?: number | string
  bodyLimit?: number | string
}

/** The query-string form of an in-process query, so both ways share one schema (and one set of messages). */
function asQueryStrings(query: object): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(query)) {
    out[name] = value === undefined ? undefined : value instanceof Date ? value.toISOString() : String(value)
  }
  return out
}

/** What the control plane acts on: the emulator's parts, behind a narrow interface. */
export interface ControlHost {
  readonly world: World
  readonly clock: Clock
  readonly faults: Faults
  readonly journal: Journal
  readonly rateLimiter: RateLimiter
  readonly urls: Urls
  readonly timeScale: number
  exclusive<T>(task: () => Promise<T> | T): Promise<T>
  /** The schema state documents are validated with: `StateDocument`, or (in Node) zod's compiled clone of it. */
  stateSchema(): typeof StateDocument
  /** Replaces the world (inside `exclusive`). */
  install(world: World): void
  buildSeededWorld(): Promise<World>
  settleDueJobs(): Promise<void>
  finishJob(jobId: string, outcome: 'completed' | 'failed', error?: string): Promise<JobRecord>
  /** Checks slides through the slide-checker port (`model/slide-check-service.ts`). */
  readonly slideChecks: SlideCheckService
}

/** A summary of a loaded state: how many records of each kind. */
export interface StateSummary {
  format: string
  counts: Record<string, number>
}

/**
 * Every control-plane action as a typed function, for in-process use
 * (`emulator.control`) and behind the `/_emulator/*` routes. Input is
 * validated like the API's: bad input throws a 400 `ServiceError`, an
 * unknown id a 404, and nothing changes.
 */
export class ControlPlane {
  constructor(private readonly emulator: ControlHost) {}

  /** Runs `task` under the lock as one transaction of the world: all of its writes, or none. */
  #write<T>(task: (world: World) => Promise<T> | T): Promise<T> {
    return this.emulator.exclusive(() => {
      const world = this.emulator.world
      return world.transaction(() => task(world))
    })
  }

  health(): HealthResponse {
    return { status: 'ok', version: VERSION }
  }

  /** Back to the seeded world; clock, faults, journal and rate-limit windows cleared. */
  async reset(): Promise<{ reset: true; now: string }> {
    const emulator = this.emulator
    return emulator.exclusive(async () => {
      const world = await emulator.buildSeededWorld()
      emulator.clock.reset()
      emulator.faults.clear()
      emulator.journal.clear()
      emulator.rateLimiter.clear()
      emulator.install(world)
      return { reset: true as const, now: emulator.clock.iso() }
    })
  }

  /** The whole world as one JSON document. */
  async getState(): Promise<StateDocument> {
    const { clock } = this.emulator
    return this.emulator.exclusive(
      () => JSON.parse(JSON.stringify(this.emulator.world.toState(clock.mode === 'manual' ? clock.iso() : undefined))) as StateDocument,
    )
  }

  /**
   * Replaces the world with a state document, after validating all of it; an
   * invalid one changes nothing. The world's records are copies of the
   * document's, unless `adopt` is true: then the document's own objects
   * become the records (its token lists filled in where the schema would),
   * for a document nothing else holds or changes (one just parsed from JSON:
   * `--state`, `PUT /_emulator/state`, `persist`). The world never changes a
   * record in place, so its objects stay as they were loaded. It spares a
   * copy of every object (1.5 million at 100,000 projects).
   */
  async putState(input: unknown, options: { adopt?: boolean } = {}): Promise<StateSummary> {
    // The schema has no open-ended part (a test checks it), so it never recurses into what it refuses, and
    // a document it accepts is nested no deeper than the schema itself, well within the bound. The bound is
    // looked at only for a document the schema refuses, and named first then; a valid 137 MB document is not
    // walked a second time. (In Node, the schema is zod's compiled clone of `StateDocument`: same answers.)
    const schema = this.emulator.stateSchema()
    let doc: StateDocument
    if (options.adopt === true && schema.validate(input)) {
      doc = withStateDefaults(input as StateDocument) // what the parse would give, less the copy
    } else {
      const result = safeParse(schema, input)
      if (!result.success) {
        const tooDeep = valueDepthExceeded(input)
        if (tooDeep !== undefined)
          throw fail.validation(`not a valid state document: ${tooDeep}: nested deeper than ${MAX_JSON_DEPTH} levels`)
        throw fail.validation(`not a valid state document: ${describeIssues(result.error.issues, [], 10)}`)
      }
      doc = result.data
    }
    // Built before the integrity checks, which then read its tables and indexes instead of indexing
    // the document again; discarded if they find a problem. A duplicate id stops the build: the checks name it.
    let world: World | undefined
    try {
      world = World.fromState(doc)
    } catch {
      world = undefined
    }
    const problems = integrityProblems(doc, world)
    if (problems.length > 0) throw fail.validation(`not a consistent state document: ${listProblems(problems)}`)
    world ??= World.fromState(doc)
    const savedNow = doc.clock?.now
    return this.emulator.exclusive(() => {
      // A manual clock resumes where the document left it, so new records never predate saved ones.
      if (savedNow !== undefined) this.emulator.clock.set(Date.parse(savedNow))
      this.emulator.install(world)
      return summary(world)
    })
  }

  /** A fresh user with a personal team and one key, sharing nothing with anyone. */
  async createAccount(input: CreateAccountRequest = {}): Promise<CreateAccountResponse> {
    const body = parseInput(CreateAccountRequest, input)
    return this.#write((world) => {
      const at = this.emulator.clock.iso()
      const userId = world.ids('usr')
      const name = body.name ?? `Test user ${userId.slice(4, 10)}`
      world.users.insert({ id: userId, name, email: `${userId}@example.com` })
      const team = insertTeam(world, { name, personalOf: userId, credits: body.credits ?? DEFAULT_ACCOUNT_CREDITS, at })
      world.memberships.insert({ id: world.ids('mem'), userId, teamId: team.id, role: 'owner' })
      const key = insertKey(world, userId, team.id, 'Test key', at)
      return { userId, teamId: team.id, apiKey: key.key, keyId: key.id }
    })
  }

  async createTeam(input: CreateTeamRequest): Promise<CreateTeamResponse> {
    const body = parseInput(CreateTeamRequest, input)
    return this.#write((world) => {
      const members = [...new Set(body.memberUserIds)]
      for (const userId of members) {
        if (world.users.get(userId) === undefined) throw fail.notFound('User', `no user "${userId}"`)
      }
      const team = insertTeam(world, { name: body.name, personalOf: null, credits: body.credits ?? 0, at: this.emulator.clock.iso() })
      for (const [index, userId] of members.entries()) {
        world.memberships.insert({ id: world.ids('mem'), userId, teamId: team.id, role: index === 0 ? 'owner' : 'member' })
      }
      return { teamId: team.id, slug: team.slug }
    })
  }

  /** A new key for a user, scoped to `teamId` (default: the user's personal team). */
  async createKey(input: CreateKeyRequest): Promise<CreateKeyResponse> {
    const body = parseInput(CreateKeyRequest, input)
    return this.#write((world) => {
      if (world.users.get(body.userId) === undefined) throw fail.notFound('User', `no user "${body.userId}"`)
      let teamId = body.teamId
      if (teamId === undefined) {
        teamId = [...world.teamIdsOf(body.userId)].find((id) => world.teams.get(id)?.personalOf === body.userId)
        if (teamId === undefined) throw fail.validation(`userId: user "${body.userId}" has no personal team; give teamId`)
      } else {
        if (world.teams.get(teamId) === undefined) throw fail.notFound('Team', `no team "${teamId}"`)
        if (!world.teamIdsOf(body.userId).has(teamId)) {
          throw fail.validation(`teamId: user "${body.userId}" is not a member of team "${teamId}"`)
        }
      }
      const key = insertKey(world, body.userId, teamId, body.name ?? 'API key', this.emulator.clock.iso())
      return { keyId: key.id, apiKey: key.key }
    })
  }

  /** One key, with its value. */
  async getKey(keyId: string): Promise<KeyResponse> {
    return this.emulator.exclusive(() => {
      const key = this.emulator.world.apiKeys.get(keyId)
      if (key === undefined) throw fail.notFound('API key', `no key "${keyId}"`)
      return {
        keyId: key.id,
        apiKey: key.key,
        name: key.name,
        userId: key.userId,
        teamId: key.teamId,
        createdAt: key.createdAt,
        revokedAt: key.revokedAt,
      }
    })
  }

  /** Revokes a key at once: every later request with it is 401. */
  async revokeKey(keyId: string): Promise<{ keyId: string; revokedAt: string }> {
    return this.#write((world) => {
      const key = world.apiKeys.get(keyId)
      if (key === undefined) throw fail.notFound('API key', `no key "${keyId}"`)
      if (key.revokedAt !== null) return { keyId, revokedAt: key.revokedAt }
      const revoked = world.apiKeys.update(keyId, (draft) => {
        draft.revokedAt = this.emulator.clock.iso()
      })
      return { keyId, revokedAt: revoked.revokedAt! }
    })
  }

  async setCredits(teamId: string, input: { credits: number }): Promise<SetCreditsResponse> {
    const body = parseInput(SetCreditsRequest, input)
    return this.#write((world) => {
      if (world.teams.get(teamId) === undefined) throw fail.notFound('Team', `no team "${teamId}"`)
      const team = world.teams.update(teamId, (draft) => {
        draft.credits = body.credits
      })
      // The client report's 402 rule reads it: a generate retried after credits were given is not blind.
      this.emulator.journal.noteCreditChange({ teamId, credits: team.credits, time: this.emulator.clock.now(), realTime: Date.now() })
      return { teamId, credits: team.credits }
    })
  }

  async createTemplate(input: CreateTemplateRequest): Promise<CreateTemplateResponse> {
    const body = parseInput(CreateTemplateRequest, input)
    const createFaker = await loadFaker()
    return this.#write(async (world) => {
      if (world.teams.get(body.teamId) === undefined) throw fail.notFound('Team', `no team "${body.teamId}"`)
      const id = world.ids('tpl')
      const template = await createTemplate(world, createFaker(seedFrom(`${world.seed}:${id}`)), {
        id,
        teamId: body.teamId,
        name: body.name,
        slideCount: body.slideCount ?? 5,
        at: this.emulator.clock.iso(),
      })
      return { templateId: template.id }
    })
  }

  /** Shares a project with a user as collaborator. */
  async addCollaborator(slug: string, input: AddCollaboratorRequest): Promise<AddCollaboratorResponse> {
    const body = parseInput(AddCollaboratorRequest, input)
    return this.#write((world) => {
      const project = world.projectBySlug(slug)
      if (project === undefined) throw fail.notFound('Project', `no project "${slug}"`)
      if (world.users.get(body.userId) === undefined) throw fail.notFound('User', `no user "${body.userId}"`)
      const updated = project.collaborators.includes(body.userId)
        ? project
        : world.projects.update(project.id, (draft) => {
            draft.collaborators.push(body.userId)
          })
      return { projectId: updated.id, slug: updated.slug, collaborators: [...updated.collaborators] }
    })
  }

  clock(): ClockResponse {
    const { clock } = this.emulator
    return { now: clock.iso(), mode: clock.mode, timeScale: this.emulator.timeScale }
  }

  /** Moves the emulator clock forward; jobs that become due complete, rate windows roll. */
  async advanceClock(input: { ms: number }): Promise<AdvanceClockResponse> {
    const body = parseInput(AdvanceClockRequest, input)
    return this.emulator.exclusive(async () => {
      this.emulator.clock.advance(body.ms)
      await this.emulator.settleDueJobs()
      return { now: this.emulator.clock.iso() }
    })
  }

  /** Finishes a processing job now, as completed. */
  async completeJob(jobId: string): Promise<JobStatusResponse> {
    return this.#finish(jobId, 'completed')
  }

  /** Fails a processing job now (its credit goes back to the team). */
  async failJob(jobId: string, input: { error?: string } = {}): Promise<JobStatusResponse> {
    const body = parseInput(FailJobRequest, input)
    return this.#finish(jobId, 'failed', body.error)
  }

  async #finish(jobId: string, outcome: 'completed' | 'failed', error?: string): Promise<JobStatusResponse> {
    return this.emulator.exclusive(async () => {
      const world = this.emulator.world
      await this.emulator.settleDueJobs()
      const job = world.jobs.get(jobId)
      if (job === undefined) throw fail.notFound('Job', `no job "${jobId}"`)
      if (job.status !== 'processing') throw fail.validation(`job "${jobId}" is already ${job.status}`)
      const finished = await this.emulator.finishJob(jobId, outcome, error)
      return jobStatusView(world, finished, this.emulator.urls)
    })
  }

  addFault(input: AddFaultRequest): AddFaultResponse {
    const body = parseInput(AddFaultRequest, input)
    return { faultId: this.emulator.faults.add(body).id }
  }

  listFaults(): ListFaultsResponse {
    return { faults: this.emulator.faults.list() }
  }

  clearFaults(): { removed: number } {
    const removed = this.emulator.faults.list().length
    this.emulator.faults.clear()
    return { removed }
  }

  removeFault(faultId: string): { removed: number } {
    if (!this.emulator.faults.remove(faultId)) throw fail.notFound('Fault', `no fault "${faultId}"`)
    return { removed: 1 }
  }

  /**
   * The request journal, newest first: every filter given must match
   * (`operationId`, `status` as `429` or `4xx`, `keyId`, `since` / `until` on
   * the emulator clock, `after` a request id); at most `limit` entries, bodies
   * cut after `bodyLimit` bytes (default 64 KiB).
   */
  listRequests(query: RequestQuery = {}): ListRequestsResponse {
    const parsed = parseInput(ListRequestsQuery, asQueryStrings(query))
    const requests: JournalEntry[] = this.emulator.journal.list(parsed)
    return { requests }
  }

  /**
   * The journal as a HAR 1.2 document, oldest first: the same filters,
   * `limit` (the newest `limit` matches) and `bodyLimit` as `listRequests`;
   * bodies the limit cut are marked `comment: "truncated: …"`.
   */
  requestsHar(query: RequestQuery = {}): Har {
    return journalHar(this.listRequests(query).requests, this.emulator.urls.origin)
  }

  /**
   * The newest journal entry `filter` admits: at once if there is one, else
   * the first matching request to arrive within `timeoutMs` (default 2000,
   * at most `MAX_WAIT_MS`, 60000). Rejects with a 408 `WAIT_TIMEOUT` `ServiceError` when
   * none arrives in time. `GET /_emulator/requests/wait` is its long-poll.
   *
   * @example
   * await emulator.control.waitForRequest({ operationId: 'generateProject', keyId }, { timeoutMs: 1000 })
   */
  waitForRequest(
    filter: RequestFilter = {},
    options: { timeoutMs?: number | string; bodyLimit?: number | string } = {},
  ): Promise<JournalEntry> {
    let parsed: WaitForRequestQuery
    try {
      parsed = parseInput(WaitForRequestQuery, asQueryStrings({ ...filter, ...options }))
    } catch (error) {
      return Promise.reject(error)
    }
    const { timeoutMs = DEFAULT_WAIT_MS, bodyLimit, ...journalFilter } = parsed
    return this.emulator.journal.wait(journalFilter, { timeoutMs, bodyLimit })
  }

  /**
   * Renders a project's slides (all, or `slideIds`) as the editor does and
   * reports each as data, in deck order: status, error with its file and
   * position, text, element count, notes. The world's lock is held only
   * while the files are read; each slide is checked by the slide checker
   * (never in the emulator's process). `budgetMs` (default 120 s) bounds the
   * whole deck: slides not reached are `timeout`. `onProgress(done, total)`
   * is called after each slide. Rejects with a `ServiceError`: 400 for a bad
   * option, 404 for an unknown slug or slide id (before anything is
   * checked), 503 `SLIDE_CHECKER_UNAVAILABLE` without a checker (the browser
   * entry) or when it cannot start, 429 `SLIDE_CHECK_QUEUE_FULL` with
   * `Retry-After` when too many checks are waiting.
   *
   * @example
   * const result = await emulator.control.checkSlides('welcome-deck')
   * for (const slide of result.slides) if (slide.status !== 'rendered') console.log(slide.position, slide.error?.message)
   */
  async checkSlides(slug: string, options?: CheckSlidesOptions): Promise<DeckCheckResult> {
    try {
      return await this.emulator.slideChecks.checkDeck(slug, options)
    } catch (error) {
      if (error instanceof SlideCheckQueueFullError) throw queueFull(429, error)
      throw error
    }
  }

  /**
   * The client report (docs/guides/client-report.md): what the journal shows
   * about how the calls made with each key (or with `keyId` alone) use the
   * API, from everything kept or `since` a request id (`req_<n>`) or a mark
   * (`mark_<n>`, from `markClientReport`). Each finding has a rule id, a
   * severity (`error`, `warning`), the spec clause and its `ref` in the
   * shipped reference, and the journal ids of the calls that show it. Reads
   * the journal once. A 400 for a bad query, a 404 for an unknown key or mark.
   *
   * @example
   * const { account } = …
   * const report = await emulator.control.clientReport({ keyId: account.keyId })
   * expect(report.findings).toEqual([])
   */
  async clientReport(query: { keyId?: string; since?: string } = {}): Promise<ClientReport> {
    const parsed = parseInput(ClientReportQuery, asQueryStrings(query))
    const { journal, clock } = this.emulator
    return this.emulator.exclusive(() => {
      const world = this.emulator.world
      let keyFingerprint: string | undefined
      if (parsed.keyId !== undefined) {
        const key = world.apiKeys.get(parsed.keyId)
        if (key === undefined) throw fail.notFound('API key', `no key "${parsed.keyId}"`)
        keyFingerprint = credentialFingerprint(key.key)
      }
      let afterSequence = 0
      if (parsed.since !== undefined) {
        const sequence = parsed.since.startsWith('mark_') ? journal.markSequence(parsed.since) : Journal.sequenceOf(parsed.since)
        if (sequence === undefined) throw fail.notFound('Mark', `no mark "${parsed.since}" (POST /_emulator/client-report/marks makes one)`)
        afterSequence = sequence
      }
      return clientReport(journal.snapshot(), {
        clock: clock.mode,
        now: clock.now(),
        keyFingerprint,
        afterSequence,
        since: parsed.since,
        teamOf: (keyId) => world.apiKeys.get(keyId)?.teamId,
      })
    })
  }

  /** A mark at the newest request so far: `clientReport({ since: mark })` judges only what comes after it. */
  markClientReport(): ClientReportMarkResponse {
    return this.emulator.journal.mark()
  }

  /**
   * A PNG of one slide (`image/png` bytes), `width` pixels wide (320 to
   * 3840, default 1280) and `width × 9/16` high, taken in headless Chromium
   * from the sandboxed renderer the editor uses. The world's lock is held
   * only while the slide's files are read. Rejects with a `ServiceError`:
   * 400 `PICTURE_WIDTH_OUT_OF_RANGE` naming the bounds, 404 for an unknown
   * slug or slide, 400 `SLIDE_DOES_NOT_RENDER` for a slide that does not
   * render, 503 `SLIDE_CHECKER_UNAVAILABLE` when no browser can be found or
   * started (its message names the path tried, the `CHROMIUM_PATH`
   * variable and the usual install locations), 429 `SLIDE_CHECK_QUEUE_FULL`
   * when too many checks are waiting. The emulator is unaffected either way.
   *
   * @example
   * const png = await emulator.control.slidePicture('welcome-deck', slideId, { width: 640 })
   * await writeFile('slide.png', png)
   */
  async slidePicture(slug: string, slideId: string, options?: SlidePictureRequestOptions): Promise<Uint8Array> {
    try {
      return await this.emulator.slideChecks.picture(slug, slideId, options)
    } catch (error) {
      if (error instanceof SlideCheckQueueFullError) throw queueFull(429, error)
      throw error
    }
  }

  /**
   * Pictures of a project's slides (all, or `slideIds`) in one call, with
   * one browser and one renderer frame for the deck: each slide's check
   * (with `layout: true`, its layout findings) and a PNG of each slide that
   * rendered. In-process only (the control plane over HTTP answers one
   * picture per request: `slidePicture`). Rejects as `checkSlides` and
   * `slidePicture` do.
   */
  async slidePictures(slug: string, options?: CheckSlidesOptions & SlidePictureRequestOptions): Promise<DeckPictures> {
    try {
      return await this.emulator.slideChecks.pictures(slug, options)
    } catch (error) {
      if (error instanceof SlideCheckQueueFullError) throw queueFull(429, error)
      throw error
    }
  }

  clearRequests(): { removed: number } {
    const removed = this.emulator.journal.size
    this.emulator.journal.clear()
    return { removed }
  }
}

/** At most ten problems, `; `-separated, and how many more there are. */
function listProblems(problems: string[]): string {
  const more = problems.length > 10 ? `; (${problems.length - 10} more)` : ''
  return `${problems.slice(0, 10).join('; ')}${more}`
}

/** The records of each table, counted from the tables (a whole-world document only to count them cost 300,000 copies at 100,000 projects). */
function summary(world: World): StateSummary {
  const counts: Record<string, number> = {}
  for (const name of TABLE_NAMES) counts[name] = world.table(name).size
  return { format: STATE_FORMAT, counts }
}

function insertTeam(world: World, input: { name: string; personalOf: string | null; credits: number; at: string }): TeamRecord {
  const id = world.ids('team')
  let slug = slugify(input.name, 30)
  if (world.teams.all().some((team) => team.slug === slug)) slug = `${slug}-${hashToken(id, 6)}`
  return world.teams.insert({ id, slug, name: input.name, personalOf: input.personalOf, credits: input.credits, createdAt: input.at })
}

function insertKey(world: World, userId: string, teamId: string, name: string, at: string) {
  const id = world.ids('key')
  return world.apiKeys.insert({
    id,
    key: `pres_${hashToken(`${world.seed}:secret:${id}`, 32)}`,
    name,
    userId,
    teamId,
    createdAt: at,
    revokedAt: null,
  })
}
